//! The hot paths of a search: knee detection, the elimination walk, one hybrid scoring
//! step over 20 / 200 / 2,000 candidates in a real embedded store (the engine's fused
//! query, the raw scores a tree step now fetches, and fusing them here), context
//! assembly.
//!
//! `cargo bench --bench hot_paths` (release build; the store step needs no model).

use std::collections::{HashMap, HashSet};
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use pagetree::search::context::assemble;
use pagetree::search::knee::{knee_cut, sensitive_knee_cut};
use pagetree::search::walk::elimination_walk;
use pagetree::search::SelectedNode;
use pagetree::store::edge::EdgeStore;
use pagetree::store::{fusion, Candidates, Fusion, ScoredNode, VectorStore};
use pagetree::synthetic::Generator;

const SIZES: [usize; 3] = [20, 200, 2_000];
const DIMENSION: usize = 384;

fn descending(n: usize) -> Vec<f32> {
    // An RRF-shaped curve: 1 / (2 + rank) from two lists.
    (0..n).map(|rank| 2.0 / (2.0 + rank as f32)).collect()
}

fn knee(c: &mut Criterion) {
    let mut group = c.benchmark_group("knee");
    for n in SIZES {
        let scores = descending(n);
        group.bench_with_input(BenchmarkId::new("plain", n), &scores, |b, s| {
            b.iter(|| knee_cut(black_box(s)))
        });
        group.bench_with_input(BenchmarkId::new("sensitive-0.85", n), &scores, |b, s| {
            b.iter(|| sensitive_knee_cut(black_box(s), 0.85))
        });
    }
    group.finish();
}

fn walk(c: &mut Criterion) {
    let mut group = c.benchmark_group("elimination_walk");
    for n in SIZES {
        // A beam of n/5 parents with four children each, ranked children-first.
        let parents = (n / 5).max(1);
        let beam: HashSet<u64> = (0..parents as u64).collect();
        let children: HashMap<u64, Vec<u64>> = (0..parents as u64)
            .map(|p| (p, (0..4).map(|k| 1_000_000 + p * 4 + k).collect()))
            .collect();
        let mut ranked: Vec<ScoredNode> = children
            .values()
            .flatten()
            .chain(beam.iter())
            .enumerate()
            .map(|(i, &id)| ScoredNode {
                id,
                score: 1.0 / (1.0 + i as f32),
            })
            .collect();
        ranked.sort_by(|a, b| b.score.total_cmp(&a.score));
        group.bench_with_input(BenchmarkId::from_parameter(n), &ranked, |b, r| {
            b.iter(|| elimination_walk(black_box(r), &beam, &children, None))
        });
    }
    group.finish();
}

fn hybrid_step(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");
    let store = EdgeStore::open(dir.path(), DIMENSION).expect("store");
    let mut generator = Generator::new(11, DIMENSION).expect("generator");
    let mut ids = Vec::new();
    runtime.block_on(async {
        for doc in 1..=60 {
            let nodes = generator.document(doc, "bench.pdf", 250);
            ids.extend(nodes.iter().map(|n| n.node.id));
            store.upsert(nodes).await.expect("upsert");
        }
        store.optimize().await.expect("optimize");
    });
    let query = generator.query();
    let fusion = Fusion::rrf(2, 1.0, 1.0);
    let mut group = c.benchmark_group("hybrid_step");
    for n in SIZES {
        let candidates =
            Candidates::Ids(ids.iter().step_by(ids.len() / n).take(n).copied().collect());
        // A store's hybrid query: the embedded one searches dense and sparse side by
        // side and fuses the two lists itself.
        group.bench_with_input(
            BenchmarkId::new("hybrid-query", n),
            &candidates,
            |b, cands| {
                b.iter(|| {
                    runtime
                        .block_on(store.hybrid_scores(&query, cands, n, fusion))
                        .expect("scores")
                })
            },
        );
        let Candidates::Ids(ids) = &candidates else {
            continue;
        };
        // What a tree step costs now: raw scores from the store, fused here.
        group.bench_with_input(BenchmarkId::new("raw-scores", n), ids, |b, ids| {
            b.iter(|| {
                runtime
                    .block_on(store.raw_scores(&query, ids))
                    .expect("scores")
            })
        });
        let raw = runtime
            .block_on(store.raw_scores(&query, ids))
            .expect("scores");
        group.bench_with_input(BenchmarkId::new("local-rrf", n), &raw, |b, raw| {
            b.iter(|| fusion::fuse(black_box(raw), fusion))
        });
    }
    group.finish();
}

fn context(c: &mut Criterion) {
    let page = "Revenue grew 7% to $66.6 billion, driven by commercial airplanes. ".repeat(40);
    let lookup = |_: i64, _: u32| Some(page.clone());
    let mut group = c.benchmark_group("context_assembly");
    for pages in [5usize, 20, 80] {
        let selected: Vec<SelectedNode> = (0..pages as u32)
            .map(|p| SelectedNode {
                id: p as u64,
                doc_id: 1,
                file_name: "BOEING_2022_10K.pdf".into(),
                level: 0,
                page_start: p + 1,
                page_end: p + 1,
                score: 1.0 / (1.0 + p as f32),
            })
            .collect();
        group.bench_with_input(BenchmarkId::from_parameter(pages), &selected, |b, s| {
            b.iter(|| assemble(black_box(s), &lookup, Some(2_500)))
        });
    }
    group.finish();
}

criterion_group!(benches, knee, walk, hybrid_step, context);
criterion_main!(benches);
