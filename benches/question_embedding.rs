//! What a question costs before the search starts: its dense vector, with each model a
//! library can use. The questions are financebench-dev's (analysts' questions, 10 to 80
//! words), read from `PAGETREE_BENCH_QUESTIONS` or `../shared/bench`; each iteration
//! embeds the next one, so the median is over the set.
//!
//! `cargo bench --bench question_embedding` (release build; needs `scripts/setup.sh`'s
//! assets, and skips what it cannot find).

use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion};
use pagetree::assets::Assets;
use pagetree::embed::{DenseEmbedder, DenseModel, QuestionLanguage};

fn questions() -> Option<Vec<String>> {
    let path = std::env::var_os("PAGETREE_BENCH_QUESTIONS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../shared/bench/financebench-dev/questions.jsonl")
        });
    let text = std::fs::read_to_string(&path)
        .map_err(|err| eprintln!("question_embedding: {}: {err}", path.display()))
        .ok()?;
    let questions: Vec<String> = text
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter_map(|row| row.get("question")?.as_str().map(str::to_owned))
        .collect();
    (!questions.is_empty()).then_some(questions)
}

fn question_embedding(c: &mut Criterion) {
    let Some(questions) = questions() else {
        return;
    };
    let assets = match Assets::locate(None, None) {
        Ok(assets) => assets,
        Err(err) => {
            eprintln!("question_embedding: no assets ({err})");
            return;
        }
    };
    let mut group = c.benchmark_group("question_embedding");
    for model in DenseModel::ALL {
        let embedder = match DenseEmbedder::load(&assets, model) {
            Ok(embedder) => embedder,
            Err(err) => {
                eprintln!("question_embedding: {} not loaded ({err})", model.id());
                continue;
            }
        };
        // A model that fails would be timed failing: it is left out, and says why.
        if let Err(err) = embedder.embed_question(&questions[0], QuestionLanguage::English) {
            eprintln!("question_embedding: {} cannot embed ({err})", model.id());
            continue;
        }
        let mut next = questions.iter().cycle();
        group.bench_function(model.id(), |b| {
            b.iter(|| {
                let question = next.next().map(String::as_str).unwrap_or_default();
                embedder
                    .embed_question(question, QuestionLanguage::English)
                    .expect("the model embedded a question before")
                    .len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, question_embedding);
criterion_main!(benches);
