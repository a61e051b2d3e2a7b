//! `pagetree ingest`: add files and folders, one line per document, a summary at the end.

use super::terminal::warn_line;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use pagetree::ingest::{IngestBatch, IngestOutcome, StageSeconds};
use pagetree::settings::LibrarySettings;
use pagetree::Library;

use super::progress::CliProgress;

#[derive(Args, Debug)]
pub struct IngestArgs {
    /// PDF files, or folders to search for PDFs.
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Children per parent in the page tree (3–5); applies to documents added from now on.
    #[arg(long)]
    pub width: Option<usize>,
    /// BM25 language (english, russian, spanish, …); only before the first document.
    #[arg(long)]
    pub language: Option<String>,
    /// Refuse documents longer than this many pages.
    #[arg(long)]
    pub max_pages: Option<u32>,
    /// Embed each page in up to this many windows of the model's length (default 1);
    /// documents already in the library keep theirs until `reindex --windows`.
    #[arg(long, value_name = "N")]
    pub windows: Option<usize>,
    /// The dense embedding model of a new library: e5-small+minilm (both side by side,
    /// the default for a library whose first document is in English), e5-small
    /// (multilingual; the default for one in another language) or minilm (English,
    /// fastest). A library keeps the model it was made with; `reindex --model` changes it.
    #[arg(long, value_name = "MODEL")]
    pub model: Option<pagetree::embed::DenseModel>,
    /// Read pages without a text layer (scans) by OCR with Tesseract (on by default);
    /// `--ocr false` leaves them unread for this library from now on.
    #[arg(long, value_name = "true|false")]
    pub ocr: Option<bool>,
    /// Print one JSON object per document instead of text.
    #[arg(long)]
    pub json: bool,
}

pub async fn run(mut library: Library, args: &IngestArgs) -> Result<ExitCode> {
    apply_settings(&mut library, args).await?;
    let found = pagetree::files::find_pdfs(&args.paths);
    for skipped in &found.skipped {
        if args.json {
            println!("{}", serde_json::json!({"skipped": skipped.to_string()}));
        }
        warn_line!("skipped: {skipped}");
    }
    let skipped = found.skipped.len();
    let files = found.files;
    if let Some(first) = files.first() {
        if let Some(notice) = library.settle_model_for(first).await? {
            if args.json {
                let model = library.settings().dense_model.id();
                println!("{}", serde_json::json!({"model": model, "notice": notice}));
            }
            warn_line!("{notice}");
        }
    }
    let cancelled = Arc::new(AtomicBool::new(false));
    let on_interrupt = Arc::clone(&cancelled);
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            warn_line!("stopping after cleaning up the current document…");
            on_interrupt.store(true, Ordering::Relaxed);
        }
    });
    let progress = CliProgress::new(files.len(), Arc::clone(&cancelled));
    let (mut added, mut present, mut failed) = (0, 0, 0);
    let mut fell_back = 0usize;
    let started = Instant::now();
    let mut pages_added = 0u64;
    let mut stage_seconds = StageSeconds::default();
    let mut batch = IngestBatch::new();
    for file in &files {
        if cancelled.load(Ordering::Relaxed) {
            break;
        }
        let began = Instant::now();
        let result = library.ingest(file, &progress).await;
        let seconds = began.elapsed().as_secs_f64();
        batch.record(&result);
        if args.json {
            println!("{}", outcome_json(file, &result, seconds));
        }
        let line = match &result {
            Ok(IngestOutcome::Added {
                document,
                warnings,
                seconds: stages,
                offline_fallbacks,
            }) => {
                added += 1;
                if *offline_fallbacks > 0 {
                    fell_back += 1;
                }
                stage_seconds += *stages;
                let pages = document.page_count.unwrap_or(0);
                pages_added += u64::from(pages);
                let mut line = format!(
                    "added {} ({} pages, {} nodes) in {seconds:.1} s",
                    document.name,
                    pages,
                    document.node_count.unwrap_or(0)
                );
                for warning in warnings {
                    line.push_str(&format!("\n  warning: {warning}"));
                }
                line
            }
            Ok(IngestOutcome::AlreadyPresent { document }) => {
                present += 1;
                format!(
                    "{}: already in the library as {}",
                    file.display(),
                    document.name
                )
            }
            Err(err) => {
                failed += 1;
                format!("failed: {}", super::words::error(err))
            }
        };
        progress.finish_document(&file.display().to_string(), &line);
    }
    progress.finish();
    if batch.will_optimize() {
        warn_line!("optimizing the index");
    }
    batch.finish(&library).await?;
    let elapsed = started.elapsed().as_secs_f64();
    let rate = if elapsed > 0.0 {
        pages_added as f64 / elapsed
    } else {
        0.0
    };
    let skipped_note = if skipped > 0 {
        format!(", {skipped} skipped")
    } else {
        String::new()
    };
    warn_line!(
        "{added} added, {present} already in the library, {failed} failed{skipped_note} ({pages_added} pages in {elapsed:.1} s, {rate:.1} pages/s)"
    );
    if pages_added > 0 {
        warn_line!("{}", stage_throughput(&stage_seconds, pages_added));
    }
    if let Some(reason) = library.model_given_up() {
        warn_line!(
            "the language model was given up on for this run ({reason}); {fell_back} document(s) were described offline, in part or whole; add them again once the server answers to have the model describe them"
        );
    } else if fell_back > 0 {
        warn_line!(
            "the language model failed on some pages of {fell_back} document(s); those pages were described offline"
        );
    }
    if cancelled.load(Ordering::Relaxed) {
        return Ok(ExitCode::from(130));
    }
    Ok(exit_code(failed + skipped, fell_back))
}

/// Exit status of `ingest` when some descriptions were made offline because the
/// language model failed, and nothing failed outright.
pub const DESCRIBED_OFFLINE: u8 = 3;

/// The help text's account of `ingest`'s exit statuses.
pub const EXIT_STATUSES: &str =
    "Exit status: 0 when every file was added (or was already there) as asked; \
1 when a file failed or was skipped; 3 when every file was added but the language model \
failed on some pages, which were described offline instead (the summary says why); 130 when \
interrupted.";

/// Something given that could not be searched or read is a failure of the request, even
/// when everything that could be read was added; descriptions made offline are a lesser one.
fn exit_code(not_added: usize, fell_back: usize) -> ExitCode {
    if not_added > 0 {
        ExitCode::FAILURE
    } else if fell_back > 0 {
        ExitCode::from(DESCRIBED_OFFLINE)
    } else {
        ExitCode::SUCCESS
    }
}

async fn apply_settings(library: &mut Library, args: &IngestArgs) -> Result<()> {
    if args.width.is_none()
        && args.language.is_none()
        && args.max_pages.is_none()
        && args.windows.is_none()
        && args.model.is_none()
        && args.ocr.is_none()
    {
        return Ok(());
    }
    let current = library.settings().clone();
    let wanted = LibrarySettings {
        group_width: args.width.unwrap_or(current.group_width),
        bm25_language: args
            .language
            .clone()
            .unwrap_or(current.bm25_language.clone()),
        max_pages: args.max_pages.unwrap_or(current.max_pages),
        page_windows: args.windows.unwrap_or(current.page_windows),
        dense_model: args.model.unwrap_or(current.dense_model),
        dense_model_chosen: current.dense_model_chosen || args.model.is_some(),
        ocr: args.ocr.unwrap_or(current.ocr),
        ..current
    };
    library.update_settings(wanted).await?;
    Ok(())
}

/// Pages per second of each stage alone, e.g. "text extraction 310 pages/s (2.1 s)".
fn stage_throughput(seconds: &StageSeconds, pages: u64) -> String {
    let parts: Vec<String> = seconds
        .stages()
        .iter()
        .map(|(name, secs)| {
            if *secs > 0.0 {
                format!("{name} {:.0} pages/s ({secs:.1} s)", pages as f64 / secs)
            } else {
                format!("{name} –")
            }
        })
        .collect();
    let ocr = match seconds.ocr_pages_per_second() {
        Some(rate) => format!(
            ", OCR {rate:.2} pages/s ({} pages, {:.1} s)",
            seconds.ocr_pages, seconds.ocr
        ),
        None => String::new(),
    };
    format!("by stage: {}{ocr}", parts.join(", "))
}

fn outcome_json(
    file: &Path,
    result: &pagetree::Result<IngestOutcome>,
    seconds: f64,
) -> serde_json::Value {
    match result {
        Ok(outcome) => serde_json::json!({"file": file, "seconds": seconds, "result": outcome}),
        Err(err) => {
            serde_json::json!({"file": file, "seconds": seconds, "error": super::words::error(err)})
        }
    }
}
