//! Argument parsing and the commands.

mod ask;
mod bench_answers;
mod card;
mod docs;
mod ingest;
mod migrate;
mod progress;
mod report_output;
mod scale;
mod search;
pub mod terminal;
pub mod words;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use terminal::{say, warn_line};

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use pagetree::describe::LlmSettings;
use pagetree::library::{Library, OpenOptions, QdrantOptions};
use pagetree::secret::ApiKey;
use pagetree::store::remote::ClusterSettings;

#[derive(Parser, Debug)]
#[command(
    name = "pagetree",
    version,
    about = "Ask questions of a PDF library and get answers with page citations"
)]
pub struct Args {
    /// The library folder (default: the desktop app's library in your data folder).
    #[arg(long, global = true, env = "PAGETREE_LIBRARY")]
    pub library: Option<PathBuf>,
    /// Folder with PDFium, ONNX Runtime and the embedding model (see scripts/setup.sh).
    #[arg(long, global = true, env = "PAGETREE_ASSETS")]
    pub assets: Option<PathBuf>,
    /// Another ONNX sentence-embedding model folder (model.onnx + tokenizer files).
    #[arg(long, global = true, env = "PAGETREE_MODEL_DIR")]
    pub model_dir: Option<PathBuf>,
    /// OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1; without it, PageTree works offline.
    #[arg(long, global = true, env = "PAGETREE_LLM_URL")]
    pub llm_url: Option<String>,
    /// A model file (.gguf) to answer with: PageTree starts llama.cpp's llama-server
    /// with it on 127.0.0.1 for this run, uses it as --llm-url, and stops it at the end.
    #[arg(
        long,
        global = true,
        env = "PAGETREE_LLM_GGUF",
        value_name = "FILE",
        conflicts_with = "llm_url"
    )]
    pub llm_gguf: Option<PathBuf>,
    /// The context window of the server --llm-gguf started, which answers are fitted to.
    #[arg(skip)]
    pub llm_context_tokens: Option<usize>,
    /// The model name to ask for at that URL.
    #[arg(
        long,
        global = true,
        env = "PAGETREE_LLM_MODEL",
        default_value = "default"
    )]
    pub llm_model: String,
    /// The environment variable that holds the API key (the key itself is never a flag).
    #[arg(long, global = true, default_value = "OPENAI_API_KEY")]
    pub llm_api_key_env: String,
    /// Seconds to wait for one LLM answer to begin (and the longest silence within a
    /// streamed one). A server that does not show it is there within 10 s is given up on
    /// sooner; either way the rest of the run is described offline.
    #[arg(long, global = true, default_value_t = pagetree::llm::DEFAULT_TIMEOUT_SECS)]
    pub llm_timeout: u64,
    /// Seconds one whole LLM answer may take, retries included; what arrived by then is
    /// kept and marked as cut short (default: the library's setting, 300 unless changed
    /// in the app).
    #[arg(long, global = true)]
    pub llm_deadline: Option<u64>,
    /// A Qdrant server's gRPC address (e.g. http://qdrant.internal:6334, https for TLS)
    /// for a new library's vectors; a library remembers where its vectors are.
    #[arg(long, global = true, env = "PAGETREE_QDRANT_URL")]
    pub qdrant_url: Option<String>,
    /// The environment variable that holds the Qdrant API key.
    #[arg(long, global = true, default_value = "QDRANT_API_KEY")]
    pub qdrant_api_key_env: String,
    /// Seconds one Qdrant request may take before it is retried (default: the library's, 30).
    #[arg(long, global = true)]
    pub qdrant_timeout: Option<u64>,
    /// Shards of a new collection (default: one per cluster node).
    #[arg(long, global = true)]
    pub qdrant_shards: Option<u32>,
    /// Copies of each shard in a new collection.
    #[arg(long, global = true, default_value_t = 1)]
    pub qdrant_replicas: u32,
    /// Copies that must confirm each write in a new collection.
    #[arg(long, global = true, default_value_t = 1)]
    pub qdrant_write_consistency: u32,
    /// More log output (-v, -vv).
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Add PDFs (files or folders) to the library.
    #[command(after_help = ingest::EXIT_STATUSES)]
    Ingest(ingest::IngestArgs),
    /// List the library's documents.
    Docs {
        #[arg(long)]
        json: bool,
    },
    /// Show a document's page tree.
    Tree {
        /// Document name (e.g. 3M_2018_10K), file name or id.
        document: String,
        #[arg(long)]
        json: bool,
    },
    /// Search the library with one strategy.
    Search(search::SearchArgs),
    /// Run every strategy on the same question, side by side.
    Compare(search::CompareArgs),
    /// Measure every strategy on questions with gold pages.
    Bench(search::BenchArgs),
    /// Search latency on a synthetic library of a given size (in a temporary folder).
    BenchScale(scale::ScaleArgs),
    /// Ask a question; the answer cites its pages.
    Ask(ask::AskArgs),
    /// Past searches, comparisons, questions and benchmarks.
    History(ask::HistoryArgs),
    /// Rebuild the vectors of every document from what the library holds (no PDF is
    /// read again): the BM25 vectors, and with --dense the dense ones too.
    Reindex {
        /// Add each page's full text to its BM25 vector (true) or only its description
        /// and keywords (false); the library's setting otherwise.
        #[arg(long)]
        leaf_text: Option<bool>,
        /// Embed each page's own text (true) or its description (false) for its dense
        /// vector; implies --dense. The library's setting otherwise.
        #[arg(long)]
        page_text: Option<bool>,
        /// Re-embed the dense vectors too (the slow part of an ingestion).
        #[arg(long)]
        dense: bool,
        /// Embed each page in up to this many windows of the model's length, found by
        /// its best one; implies --dense. An index made before windows is rebuilt.
        #[arg(long, value_name = "N")]
        windows: Option<usize>,
        /// Re-embed every page with this dense model (e5-small+minilm, e5-small or minilm) into a new
        /// index, swapped in when complete; implies --dense.
        #[arg(long, value_name = "MODEL")]
        model: Option<pagetree::embed::DenseModel>,
        /// Rebuild every document's tree to follow its outline or headings (sections
        /// with their titles), keeping its pages' descriptions, into a new index swapped
        /// in when complete (every node is embedded again).
        #[arg(long)]
        trees: bool,
    },
    /// Show a document's card (what it says it is), or correct it.
    Card(card::CardArgs),
    /// Move the library's vectors to a Qdrant server or back to this computer.
    Migrate(migrate::MigrateArgs),
    /// Remove a document, its pages and its vectors.
    Delete {
        /// Document name, file name or id.
        document: String,
    },
}

pub fn init_logging(verbose: u8) {
    // qdrant-edge warns at every start about process-wide flags a server would set; they
    // mean nothing to a person using the CLI.
    let default = match verbose {
        0 => "warn,qdrant_edge=error",
        1 => "info,pagetree=debug",
        _ => "debug",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("PAGETREE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // Colour codes are for a person at a terminal, not for a log file or a pipe.
        .with_ansi(terminal::colours_on_stderr())
        .init();
}

pub async fn run(mut args: Args) -> Result<ExitCode> {
    let root = library_root(args.library.clone())?;
    // Lives until the command has finished; dropping it stops the server.
    let _local_model = match &args.llm_gguf {
        Some(file) if uses_a_model(&args.command) => {
            let server = start_local_model(file, args.assets.clone()).await?;
            args.llm_url = Some(server.base_url());
            args.llm_model = server.model_name().to_string();
            args.llm_context_tokens = Some(server.context_tokens() as usize);
            Some(server)
        }
        _ => None,
    };
    match &args.command {
        Command::Docs { json } => {
            // Reading the catalog needs no lock, so this works while another process ingests.
            let catalog = Library::open_catalog(&root).await?;
            let settings = pagetree::settings::LibrarySettings::load_existing(&catalog).await?;
            docs::print_documents(&catalog.documents().await?, settings.dense_model, *json)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Tree { document, json } => {
            let library = open(&root, &args).await?;
            let (record, nodes) = library.tree(document).await?;
            docs::print_tree(&record, &nodes, *json)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Delete { document } => {
            let library = open(&root, &args).await?;
            let record = library.delete(document).await?;
            say!("deleted {} ({})", record.name, record.file_name);
            Ok(ExitCode::SUCCESS)
        }
        Command::Search(search_args) => {
            search::search(&open(&root, &args).await?, search_args).await
        }
        Command::Compare(compare_args) => {
            search::compare(&open(&root, &args).await?, compare_args).await
        }
        Command::Bench(bench_args) => {
            search::bench(&mut open(&root, &args).await?, bench_args).await
        }
        Command::BenchScale(scale_args) => {
            let options = OpenOptions {
                assets_dir: args.assets.clone(),
                model_dir: args.model_dir.clone(),
                ..OpenOptions::default()
            };
            scale::run(scale_args, options).await
        }
        Command::Reindex {
            leaf_text,
            page_text,
            dense,
            windows,
            model,
            trees,
        } => {
            let mut library = open(&root, &args).await?;
            if leaf_text.is_some() || page_text.is_some() || windows.is_some() {
                let current = library.settings().clone();
                let settings = pagetree::settings::LibrarySettings {
                    index_leaf_text: leaf_text.unwrap_or(current.index_leaf_text),
                    embed_page_text: page_text.unwrap_or(current.embed_page_text),
                    page_windows: windows.unwrap_or(current.page_windows),
                    ..current
                };
                library.update_settings(settings).await?;
            }
            let dense =
                *dense || page_text.is_some() || windows.is_some() || model.is_some() || *trees;
            let started = std::time::Instant::now();
            let points = match model {
                _ if *trees => library.rebuild_trees(&pagetree::ingest::NoProgress).await?,
                Some(model) if *model != library.settings().dense_model => {
                    library
                        .switch_dense_model(*model, &pagetree::ingest::NoProgress)
                        .await?
                }
                _ => {
                    library
                        .reindex(dense, &pagetree::ingest::NoProgress)
                        .await?
                }
            };
            say!(
                "rebuilt the {} vectors of {points} nodes in {:.1} s ({}, pages in up to {} window(s), page text in BM25 {})",
                if dense { "dense and BM25" } else { "BM25" },
                started.elapsed().as_secs_f64(),
                library.settings().dense_model.label(),
                library.page_windows().await?,
                if library.settings().index_leaf_text {
                    "included"
                } else {
                    "left out"
                }
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Card(card_args) => card::run(&open(&root, &args).await?, card_args).await,
        Command::Ask(ask_args) => {
            let mut library = open(&root, &args).await?;
            // The pages sent are fitted to the server's window, when it reports one.
            if let Some(mut llm) = library.llm_settings().cloned() {
                pagetree::local_llm::learn_context_window(&mut llm).await;
                library.set_llm(Some(llm));
            }
            ask::ask(&library, ask_args).await
        }
        Command::History(history_args) => {
            ask::history(&open(&root, &args).await?, history_args).await
        }
        Command::Migrate(migrate_args) => {
            migrate::run(open(&root, &args).await?, migrate_args).await
        }
        Command::Ingest(ingest_args) => {
            let library = open(&root, &args).await?;
            ingest::run(library, ingest_args).await
        }
    }
}

/// Whether `command` may ask a language model (describing pages, proxy-pointer,
/// answers): only then is a model file worth loading.
fn uses_a_model(command: &Command) -> bool {
    !matches!(
        command,
        Command::Docs { .. }
            | Command::Tree { .. }
            | Command::Delete { .. }
            | Command::History(_)
            | Command::Migrate(_)
            | Command::BenchScale(_)
    )
}

/// Starts llama-server with `file`, saying so on stderr (loading a large model takes a
/// while).
async fn start_local_model(
    file: &std::path::Path,
    assets: Option<PathBuf>,
) -> Result<pagetree::local_llm::LocalModelServer> {
    use pagetree::local_llm::{LocalModelServer, ServerOptions};
    warn_line!("starting llama-server with {}…", file.display());
    let options = ServerOptions {
        assets_dir: assets,
        ..ServerOptions::new(file)
    };
    let server = LocalModelServer::start(options).await?;
    warn_line!(
        "llama-server (pid {}) answers at {} as `{}`",
        server.pid(),
        server.base_url(),
        server.model_name()
    );
    Ok(server)
}

fn library_root(explicit: Option<PathBuf>) -> Result<PathBuf> {
    if let Some(root) = explicit {
        return Ok(root);
    }
    pagetree::library::default_root()
        .context("no home folder to keep the library in; pass --library")
}

fn llm_settings(args: &Args) -> Option<LlmSettings> {
    let url = args.llm_url.as_ref().filter(|url| !url.trim().is_empty())?;
    let mut settings = LlmSettings::new(url.trim(), args.llm_model.clone());
    settings.api_key = ApiKey::new(std::env::var(&args.llm_api_key_env).unwrap_or_default());
    settings.timeout = Duration::from_secs(args.llm_timeout.max(1));
    if let Some(seconds) = args.llm_deadline {
        settings.answer_deadline = Duration::from_secs(seconds.max(1));
    }
    settings.context_tokens = args.llm_context_tokens;
    Some(settings)
}

fn qdrant_options(args: &Args) -> QdrantOptions {
    QdrantOptions {
        url: args.qdrant_url.clone(),
        api_key: ApiKey::new(std::env::var(&args.qdrant_api_key_env).unwrap_or_default()),
        cluster: Some(ClusterSettings {
            shard_number: args.qdrant_shards,
            replication_factor: args.qdrant_replicas,
            write_consistency_factor: args.qdrant_write_consistency,
        }),
        timeout_secs: args.qdrant_timeout,
    }
}

async fn open(root: &std::path::Path, args: &Args) -> Result<Library> {
    let options = OpenOptions {
        assets_dir: args.assets.clone(),
        model_dir: args.model_dir.clone(),
        llm: llm_settings(args),
        qdrant: qdrant_options(args),
    };
    let (mut library, recovery) = Library::open(root, options).await?;
    if args.llm_deadline.is_none() {
        if let Some(mut llm) = library.llm_settings().cloned() {
            llm.answer_deadline = library.settings().answer_deadline();
            library.set_llm(Some(llm));
        }
    }
    for name in recovery.cleaned {
        warn_line!("note: the ingestion of {name} was interrupted last time; its partial data was removed, add it again to finish");
    }
    for name in recovery.in_progress {
        warn_line!("note: {name} is still being added by another PageTree process; it is not searchable until that finishes");
    }
    Ok(library)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_has_a_deadline_by_default_and_one_can_be_given() {
        let args = |extra: &[&str]| {
            let mut line = vec!["pagetree", "--llm-url", "http://127.0.0.1:8080/v1"];
            line.extend_from_slice(extra);
            line.push("docs");
            llm_settings(&Args::try_parse_from(line).expect("valid arguments")).expect("a model")
        };
        assert_eq!(args(&[]).answer_deadline, Duration::from_secs(300));
        assert_eq!(
            args(&["--llm-deadline", "20"]).answer_deadline,
            Duration::from_secs(20)
        );
        assert_eq!(
            args(&["--llm-deadline", "0"]).answer_deadline,
            Duration::from_secs(1),
            "no deadline of zero"
        );
    }

    #[test]
    fn a_model_file_is_a_flag_or_a_variable_and_not_beside_a_url() {
        let args = Args::try_parse_from(["pagetree", "--llm-gguf", "/m/smol.gguf", "docs"])
            .expect("valid arguments");
        assert_eq!(args.llm_gguf, Some(PathBuf::from("/m/smol.gguf")));
        let both = Args::try_parse_from([
            "pagetree",
            "--llm-gguf",
            "/m/smol.gguf",
            "--llm-url",
            "http://127.0.0.1:8080/v1",
            "docs",
        ]);
        assert!(both.is_err(), "a model file and a URL at once");
        assert!(
            !uses_a_model(&args.command),
            "listing documents loads no model"
        );
    }

    #[tokio::test]
    async fn the_library_s_saved_deadline_holds_unless_the_flag_says_otherwise() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().join("library");
        let (mut library, _) = Library::open(&root, OpenOptions::default())
            .await
            .expect("opens");
        let settings = pagetree::settings::LibrarySettings {
            llm_answer_deadline_secs: 42,
            ..library.settings().clone()
        };
        library.update_settings(settings).await.expect("saved");
        drop(library);

        let deadline = |extra: &'static [&'static str]| {
            let root = root.clone();
            async move {
                let mut line = vec!["pagetree", "--llm-url", "http://127.0.0.1:8080/v1"];
                line.extend_from_slice(extra);
                line.push("docs");
                let args = Args::try_parse_from(line).expect("valid arguments");
                let library = open(&root, &args).await.expect("opens");
                library.llm_settings().expect("a model").answer_deadline
            }
        };
        assert_eq!(deadline(&[]).await, Duration::from_secs(42));
        assert_eq!(
            deadline(&["--llm-deadline", "7"]).await,
            Duration::from_secs(7)
        );
    }
}
