//! `pagetree search`, `compare` and `bench`.

use super::report_output;
use super::terminal::{say, warn_line};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, Result};
use clap::{Args, ValueEnum};
use pagetree::eval::{load_questions, BenchReport};
use pagetree::history::{NewRun, RunKind};
use pagetree::ingest::NoProgress;
use pagetree::search::strategy::*;
use pagetree::search::{Comparison, SearchResult, SearchSettings, SectionScoring, Strategy};
use pagetree::store::{Fusion, FusionMethod};
use pagetree::Library;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum StrategyName {
    Flat,
    Branch,
    Beam,
    Knee,
    SensitiveKnee,
    LargestGap,
    CollapsedTree,
    ProxyPointer,
}

/// Settings shared by every search command.
#[derive(Args, Debug, Clone)]
pub struct SearchOptions {
    /// Pages for flat top-k.
    #[arg(long, default_value_t = DEFAULT_FLAT_K)]
    pub k: usize,
    /// Roots for branch search.
    #[arg(long, default_value_t = DEFAULT_BRANCH_ROOTS)]
    pub roots: usize,
    /// Beam width for the fixed beam.
    #[arg(long, default_value_t = DEFAULT_BEAM_WIDTH)]
    pub width: usize,
    /// Most roots the knee strategies start from.
    #[arg(long, default_value_t = DEFAULT_MAX_ROOTS)]
    pub max_roots: usize,
    /// Sensitive knee: 1 is the plain knee, 0 keeps everything.
    #[arg(long, default_value_t = DEFAULT_SENSITIVITY)]
    pub sensitivity: f32,
    /// Nodes of every level the collapsed tree ranks before its knee.
    #[arg(long, default_value_t = DEFAULT_COLLAPSED_DEPTH)]
    pub collapsed_depth: usize,
    /// Section summaries proxy-pointer shows the LLM.
    #[arg(long, default_value_t = DEFAULT_PROXIES)]
    pub proxies: usize,
    /// How dense and BM25 rankings are fused: rrf (ranks only), dbsf (each list by its
    /// mean ± 3 deviations) or min-max (each list scaled to 0–1); the knee is cut on
    /// the fused scores.
    #[arg(long, default_value_t = pagetree::search::DEFAULT_FUSION)]
    pub fusion: FusionMethod,
    /// How the tree strategies score a section: own-text (its summary and keywords) or
    /// best-page (the best of its own and its pages' similarities).
    #[arg(long, default_value_t = pagetree::search::DEFAULT_SECTION_SCORING)]
    pub section_scoring: SectionScoring,
    /// RRF k (Qdrant's default is 2; the article uses 60).
    #[arg(long, default_value_t = pagetree::search::DEFAULT_RRF_K)]
    pub rrf_k: usize,
    /// How much the dense half counts, relative to the library model's own balance
    /// with BM25 (1: as measured best for that model; e5-small's dense half counts
    /// 1.25 times, at the roots 1.5).
    #[arg(long, default_value_t = 1.0)]
    pub dense_weight: f32,
    /// How much the BM25 half counts.
    #[arg(long, default_value_t = 1.0)]
    pub sparse_weight: f32,
    /// Dense weight for the first step over the documents' roots (default: --dense-weight).
    #[arg(long)]
    pub root_dense_weight: Option<f32>,
    /// Fusion for the first step over the roots (default: --fusion).
    #[arg(long)]
    pub root_fusion: Option<FusionMethod>,
    /// Sparse (BM25) weight for the first step over the roots (default: --sparse-weight).
    #[arg(long)]
    pub root_sparse_weight: Option<f32>,
    /// Largest context in LLM tokens (cl100k_base); lowest-scored nodes go first.
    #[arg(long)]
    pub token_budget: Option<usize>,
    /// Narrow selected sections wider than this many pages to their best pages (0: keep whole sections).
    #[arg(long, default_value_t = pagetree::search::DEFAULT_MAX_NODE_PAGES)]
    pub max_node_pages: u32,
    /// Search only these documents (name, file name or id; repeatable).
    #[arg(long = "document")]
    pub documents: Vec<String>,
    /// Do not read organisations, periods and kinds of document in the question (by
    /// default a named organisation restricts the search to its documents, and cards
    /// matching the period and kind rank first).
    #[arg(long)]
    pub no_query_analysis: bool,
    /// With --token-budget, do not fill what a tree strategy leaves of the budget with
    /// the best other pages of the documents it chose.
    #[arg(long)]
    pub no_fill_budget: bool,
}

impl SearchOptions {
    /// The strategy `name` with these options, refused in words (by the engine's own
    /// check) when a value is out of range.
    pub fn strategy(&self, name: StrategyName) -> Result<Strategy> {
        let strategy = match name {
            StrategyName::Flat => Strategy::Flat { k: self.k },
            StrategyName::Branch => Strategy::Branch { roots: self.roots },
            StrategyName::Beam => Strategy::Beam { width: self.width },
            StrategyName::Knee => Strategy::Knee {
                max_roots: self.max_roots,
            },
            StrategyName::SensitiveKnee => Strategy::SensitiveKnee {
                sensitivity: self.sensitivity,
                max_roots: self.max_roots,
            },
            StrategyName::LargestGap => Strategy::LargestGap {
                max_roots: self.max_roots,
            },
            StrategyName::CollapsedTree => Strategy::CollapsedTree {
                depth: self.collapsed_depth,
            },
            StrategyName::ProxyPointer => Strategy::ProxyPointer {
                proxies: self.proxies,
            },
        };
        strategy.validate()?;
        Ok(strategy)
    }

    pub fn all_strategies(&self) -> Result<Vec<Strategy>> {
        StrategyName::value_variants()
            .iter()
            .map(|name| self.strategy(*name))
            .collect()
    }

    pub async fn settings(&self, library: &Library) -> Result<SearchSettings> {
        let documents = if self.documents.is_empty() {
            None
        } else {
            let mut ids = Vec::new();
            for key in &self.documents {
                ids.push(library.catalog().resolve(key).await?.id);
            }
            Some(ids)
        };
        let fusion =
            Fusion::rrf(self.rrf_k, self.dense_weight, self.sparse_weight).with_method(self.fusion);
        let root_fusion = (self.root_dense_weight.is_some()
            || self.root_sparse_weight.is_some()
            || self.root_fusion.is_some())
        .then(|| Fusion {
            method: self.root_fusion.unwrap_or(self.fusion),
            dense_weight: self.root_dense_weight.unwrap_or(self.dense_weight),
            sparse_weight: self.root_sparse_weight.unwrap_or(self.sparse_weight),
            ..fusion
        });
        let settings = SearchSettings {
            fusion,
            root_fusion,
            token_budget: self.token_budget,
            max_node_pages: Some(self.max_node_pages).filter(|&m| m > 0),
            documents,
            query_analysis: !self.no_query_analysis,
            section_scoring: self.section_scoring,
            fill_budget: !self.no_fill_budget,
        };
        settings.validate()?;
        Ok(settings)
    }
}

#[derive(Args, Debug)]
pub struct SearchArgs {
    pub question: String,
    #[arg(long, value_enum, default_value_t = StrategyName::Knee)]
    pub strategy: StrategyName,
    #[command(flatten)]
    pub options: SearchOptions,
    #[arg(long)]
    pub json: bool,
    /// Print the context handed to the model, too.
    #[arg(long)]
    pub show_context: bool,
}

pub async fn search(library: &Library, args: &SearchArgs) -> Result<ExitCode> {
    let strategy = args.options.strategy(args.strategy)?;
    let settings = args.options.settings(library).await?;
    let result = library
        .search_recorded(&args.question, &strategy, &settings)
        .await?;
    report_output::print(&result, args.json, |result| {
        print_result(result, args.show_context)
    })?;
    Ok(ExitCode::SUCCESS)
}

fn print_result(result: &SearchResult, show_context: bool) {
    say!(
        "{}: {} node(s), {} page(s), {} tokens ({}), {:.1} ms (embedding {:.1} ms), {} store queries; {}",
        result.strategy.name(),
        result.selected.len(),
        result.context.pages.len(),
        result.context.tokens,
        result.context.tokenizer,
        result.latency_ms,
        result.embed_ms,
        result.store_queries,
        result.stopped_because
    );
    if let Some(analysis) = result.analysis.as_ref().filter(|a| a.recognised_anything()) {
        say!("  question: {}", analysis.note);
    }
    for node in &result.selected {
        let pages = if node.page_start == node.page_end {
            format!("p.{}", node.page_start)
        } else {
            format!("pp.{}-{}", node.page_start, node.page_end)
        };
        say!(
            "  {:.4}  {} {pages}",
            node.score,
            super::terminal::line(&node.file_name)
        );
    }
    if let Some(note) = &result.context.truncation {
        say!("  note: {note}");
    }
    if show_context {
        say!("\n{}", result.context.text);
    }
}

#[derive(Args, Debug)]
pub struct CompareArgs {
    pub question: String,
    #[command(flatten)]
    pub options: SearchOptions,
    #[arg(long)]
    pub json: bool,
    /// Write one SVG per strategy step (the score curve and its knee) here.
    #[arg(long)]
    pub plot_dir: Option<PathBuf>,
}

pub async fn compare(library: &Library, args: &CompareArgs) -> Result<ExitCode> {
    let settings = args.options.settings(library).await?;
    let strategies = args.options.all_strategies()?;
    let Comparison { results, skipped } = library
        .compare(&args.question, &strategies, &settings)
        .await?;
    let skipped: Vec<String> = skipped
        .iter()
        .map(|skip| format!("{}: {}", skip.strategy, super::words::error(&skip.reason)))
        .collect();
    let mut plots = Vec::new();
    if let Some(dir) = &args.plot_dir {
        for result in &results {
            plots.extend(pagetree::plot::plot_trace(
                dir,
                result.strategy.name(),
                &result.trace,
            )?);
        }
    }
    if args.json {
        let value = serde_json::json!({
            "question": args.question,
            "results": results,
            "skipped": skipped,
            "plots": plots,
        });
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        for result in &results {
            print_result(result, false);
        }
        for note in &skipped {
            say!("skipped {note}");
        }
        if !plots.is_empty() {
            say!("wrote {} plot(s)", plots.len());
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// FinanceBench-style JSONL (gold `page_index` zero-based).
    #[arg(long)]
    pub questions: PathBuf,
    /// The PDFs the questions are about; missing ones are ingested first.
    #[arg(long)]
    pub pdfs: Option<PathBuf>,
    /// Search only the question's own document instead of the whole library.
    #[arg(long)]
    pub per_document: bool,
    /// Strategies to run (default: all that can run).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub strategies: Vec<StrategyName>,
    /// Only the first N questions.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Ingest copies of `--pdfs` named `doc-<hash>.pdf` instead of the files, so that
    /// nothing can be read from a file name (use a library of its own: content already
    /// in the library keeps its name).
    #[arg(long)]
    pub rename_opaque: bool,
    /// Measure answers instead of pages: the share of questions whose gold `answer` the
    /// extractive answer holds (see docs/answers.md).
    #[arg(long)]
    pub answers: bool,
    #[command(flatten)]
    pub options: SearchOptions,
    #[arg(long)]
    pub json: bool,
}

/// Benchmark file names that are byte-identical copies of a library document.
const ALIASES_KEY: &str = "bench_aliases";

pub async fn bench(library: &mut Library, args: &BenchArgs) -> Result<ExitCode> {
    let mut questions = load_questions(&args.questions).map_err(anyhow::Error::msg)?;
    if let Some(limit) = args.limit {
        questions.truncate(limit);
    }
    // Identical files under two names are one document: questions about either name
    // are scored against it. The names are learnt while `--pdfs` is read and kept in
    // the library, so that later runs without `--pdfs` score those questions too.
    let mut aliases: std::collections::HashMap<String, String> =
        library.catalog().json_setting(ALIASES_KEY).await?;
    if let Some(dir) = &args.pdfs {
        let found = ingest_missing(library, dir, args.rename_opaque).await?;
        if found
            .iter()
            .any(|(name, target)| aliases.get(name) != Some(target))
        {
            aliases.extend(found);
            library
                .catalog()
                .set_json_setting(ALIASES_KEY, &aliases)
                .await?;
        }
    }
    pagetree::eval::apply_aliases(&mut questions, &aliases);
    let strategies: Vec<Strategy> = if args.strategies.is_empty() {
        args.options
            .all_strategies()?
            .into_iter()
            .filter(|s| !s.needs_llm() || library.llm_settings().is_some())
            .collect()
    } else {
        args.strategies
            .iter()
            .map(|name| args.options.strategy(*name))
            .collect::<Result<_>>()?
    };
    let settings = args.options.settings(library).await?;
    if args.answers {
        return super::bench_answers::run(library, args, &questions, &strategies, &settings).await;
    }
    let report = library
        .bench(&questions, &strategies, &settings, args.per_document)
        .await?;
    record_bench(
        library,
        &report,
        &args.questions,
        &questions,
        &settings,
        args.per_document,
    )
    .await?;
    report_output::print(&report, args.json, print_report)?;
    Ok(ExitCode::SUCCESS)
}

/// Ingests the PDFs of `dir` that the library lacks; returns, for files whose content is
/// already in the library under another name, that name (file stem → document name).
/// Keeps a benchmark run as one history entry with its figures (without per-question runs).
async fn record_bench(
    library: &Library,
    report: &BenchReport,
    questions_file: &std::path::Path,
    questions: &[pagetree::eval::BenchQuestion],
    settings: &SearchSettings,
    per_document: bool,
) -> Result<()> {
    let mut metrics = serde_json::to_value(report)?;
    let gold: Vec<_> = questions.iter().map(|q| q.gold_record()).collect();
    if let Some(object) = metrics.as_object_mut() {
        object.insert(
            pagetree::history::BENCH_GOLD_KEY.to_string(),
            serde_json::to_value(gold)?,
        );
    }
    if let Some(list) = metrics.get_mut("strategies").and_then(|s| s.as_array_mut()) {
        for strategy in list {
            if let Some(object) = strategy.as_object_mut() {
                object.remove("runs");
            }
        }
    }
    library
        .catalog()
        .record_run(&NewRun {
            kind: RunKind::Bench,
            conversation_id: None,
            question: format!(
                "{} questions from {}",
                questions.len(),
                questions_file.display()
            ),
            strategy: None,
            settings: serde_json::json!({"search": settings, "per_document": per_document}),
            selected: serde_json::json!([]),
            pages: serde_json::json!([]),
            trace: serde_json::json!([]),
            metrics: Some(metrics),
            context_tokens: None,
            latency_ms: None,
            embed_ms: None,
            error: None,
        })
        .await?;
    Ok(())
}

async fn ingest_missing(
    library: &mut Library,
    dir: &std::path::Path,
    rename_opaque: bool,
) -> Result<std::collections::HashMap<String, String>> {
    let mut aliases = std::collections::HashMap::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdf")))
        .collect();
    files.sort();
    // The model a person's library would get from its first document (as `ingest` and
    // the app choose it), so that a bench measures what a person searches.
    if let Some(first) = files.first() {
        if let Some(notice) = library.settle_model_for(first).await? {
            warn_line!("{notice}");
        }
    }
    let mut batch = pagetree::ingest::IngestBatch::new();
    for file in files {
        let stem = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let source = if rename_opaque {
            opaque_copy(library, &file)?
        } else {
            file.clone()
        };
        let outcome = library.ingest(&source, &NoProgress).await;
        batch.record(&outcome);
        match outcome {
            Ok(pagetree::ingest::IngestOutcome::Added { document, .. }) => {
                if stem != document.name {
                    aliases.insert(stem, document.name);
                }
            }
            Ok(pagetree::ingest::IngestOutcome::AlreadyPresent { document }) => {
                if stem != document.name {
                    aliases.insert(stem, document.name);
                }
            }
            Err(err) => warn_line!("warning: {err}"),
        }
    }
    if batch.will_optimize() {
        warn_line!("ingested {} missing document(s)", batch.added());
    }
    batch.finish(library).await?;
    Ok(aliases)
}

/// A copy of `file` in the library's `opaque-copies` folder, named by its content's hash:
/// kept there so that pages can still be shown from it.
fn opaque_copy(library: &Library, file: &std::path::Path) -> Result<PathBuf> {
    use sha2::{Digest, Sha256};
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let hash = hex::encode(Sha256::digest(&bytes));
    let folder = library.root().join(pagetree::library::OPAQUE_COPIES_DIR);
    pagetree::private_files::create_dir_all(&folder)
        .with_context(|| format!("cannot create {}", folder.display()))?;
    let copy = folder.join(format!("doc-{}.pdf", &hash[..12]));
    if !copy.exists() {
        pagetree::private_files::write_new(&copy, &bytes)
            .with_context(|| format!("cannot write {}", copy.display()))?;
    }
    Ok(copy)
}

/// The fusion as a report names it: RRF with its k, a score fusion by name.
fn fusion_label(fusion: &Fusion) -> String {
    match fusion.method {
        FusionMethod::Rrf => format!("RRF k = {}", fusion.rrf_k),
        method => format!("fusion {method}"),
    }
}

fn print_report(report: &BenchReport) {
    say!(
        "{} questions, {} documents, {}; {}; median query embedding {:.1} ms",
        report.strategies.first().map(|s| s.questions).unwrap_or(0),
        report.documents,
        if report.per_document {
            "per document"
        } else {
            "whole library"
        },
        fusion_label(&report.settings.fusion),
        report.median_embed_ms
    );
    say!(
        "{:<16} {:>6} {:>7} {:>7} {:>8} {:>9} {:>9} {:>10} {:>6} {:>6}",
        "strategy",
        "hit",
        "recall",
        "pages",
        "tokens",
        "p50 ms",
        "p95 ms",
        "hits/1k tok",
        "doc@1",
        "doc@5"
    );
    for s in &report.strategies {
        say!(
            "{:<16} {:>6.3} {:>7.3} {:>7.1} {:>8.0} {:>9.1} {:>9.1} {:>10.3} {:>6.3} {:>6.3}{}",
            s.strategy.name(),
            s.hit_rate,
            s.page_recall,
            s.mean_pages,
            s.mean_tokens,
            s.median_latency_ms,
            s.p95_latency_ms,
            s.hits_per_1k_tokens,
            s.document_recall_at_1,
            s.document_recall_at_5,
            if s.failed > 0 {
                format!("  ({} failed)", s.failed)
            } else {
                String::new()
            }
        );
    }
    say!("\nshare of its candidates each step keeps, mean ± spread over the questions:");
    for s in &report.strategies {
        let steps: Vec<String> = s
            .step_shares
            .iter()
            .map(|share| {
                let step = match share.step {
                    0 => "all".to_string(),
                    step => step.to_string(),
                };
                format!("{step} {:.2}±{:.2}", share.mean, share.spread)
            })
            .collect();
        say!("{:<16} {}", s.strategy.name(), steps.join("  "));
    }
}
