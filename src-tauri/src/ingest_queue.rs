//! Ingestion in the background: files queue up and are added one at a time, each
//! reporting progress and its outcome as events, so the window stays responsive.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use pagetree::catalog::DocumentRecord;
use pagetree::ingest::{IngestBatch, IngestOutcome, Progress, Stage};
use serde::Serialize;
use tauri::{AppHandle, Emitter};
use tokio::sync::mpsc;

use crate::state::SharedLibrary;

pub const PROGRESS_EVENT: &str = "ingest://progress";
pub const FINISHED_EVENT: &str = "ingest://finished";
pub const QUEUED_EVENT: &str = "ingest://queued";

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct IngestProgress<'a> {
    pub file: &'a str,
    pub stage: Stage,
    pub done: usize,
    pub total: usize,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct IngestFinished {
    pub file: String,
    pub document: Option<DocumentRecord>,
    pub error: Option<String>,
    pub warnings: Vec<String>,
}

/// One file waiting in the queue, as the window lists it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct QueuedFile {
    pub file: String,
    /// Its page count, once counted (null at first, or when pdfium cannot open it).
    pub pages: Option<u32>,
}

/// Files just queued: sent at once without page counts, then again with them, so the
/// window can list the files at once and count the batch in pages soon after.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct IngestQueued {
    pub files: Vec<QueuedFile>,
    /// False when the files were just queued, true for the later event with their counts.
    pub counted: bool,
}

pub struct IngestQueue {
    sender: mpsc::UnboundedSender<PathBuf>,
    cancel: Arc<AtomicBool>,
    queued: Arc<AtomicUsize>,
    library: SharedLibrary,
}

impl IngestQueue {
    pub fn start(app: AppHandle, library: SharedLibrary) -> Self {
        let (sender, receiver) = mpsc::unbounded_channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let queued = Arc::new(AtomicUsize::new(0));
        let (worker_cancel, worker_queued) = (cancel.clone(), queued.clone());
        let counting = library.clone();
        // Its own thread and runtime: the engine's ingestion future is not `Send` (it
        // borrows the progress sink across awaits), and a long ingestion should not
        // share workers with the commands that keep the window responsive.
        let spawned = std::thread::Builder::new()
            .name("ingestion".into())
            .spawn(move || {
                match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(runtime) => {
                        runtime.block_on(work(app, library, receiver, worker_cancel, worker_queued))
                    }
                    Err(err) => tracing::error!(error = %err, "no runtime for ingestion"),
                }
            });
        if let Err(err) = spawned {
            tracing::error!(error = %err, "the ingestion thread did not start");
        }
        Self {
            sender,
            cancel,
            queued,
            library: counting,
        }
    }

    /// Queues every file; returns how many were queued.
    pub fn enqueue(&self, files: Vec<PathBuf>) -> usize {
        let mut count = 0;
        for file in files {
            self.queued.fetch_add(1, Ordering::SeqCst);
            if self.sender.send(file).is_ok() {
                count += 1;
            } else {
                self.queued.fetch_sub(1, Ordering::SeqCst);
            }
        }
        count
    }

    /// Stops the file being added (its partial data is removed) and drops the queue.
    pub fn cancel(&self) {
        if self.queued.load(Ordering::SeqCst) > 0 {
            self.cancel.store(true, Ordering::SeqCst);
        }
    }
}

async fn work(
    app: AppHandle,
    library: SharedLibrary,
    mut receiver: mpsc::UnboundedReceiver<PathBuf>,
    cancel: Arc<AtomicBool>,
    queued: Arc<AtomicUsize>,
) {
    // What was added since the index was last optimized.
    let mut batch = IngestBatch::new();
    while let Some(path) = receiver.recv().await {
        let file = pagetree::pdf::display_name(&path);
        let finished = if cancel.load(Ordering::SeqCst) {
            failed(
                file,
                "ingestion was cancelled before this file started".to_string(),
            )
        } else {
            let progress = EventProgress {
                app: app.clone(),
                cancel: cancel.clone(),
            };
            let notice = settle_model(&library, &path).await;
            let library = library.read().await;
            let outcome = library.ingest(&path, &progress).await;
            batch.record(&outcome);
            let mut finished = match outcome {
                Ok(outcome) => succeeded(file, outcome),
                Err(err) => {
                    tracing::warn!(%file, error = %err, "ingestion failed");
                    failed(file, crate::error::words(&err))
                }
            };
            // The model changed whether or not the file went in.
            finished.warnings.splice(0..0, notice);
            finished
        };
        if let Err(err) = app.emit(FINISHED_EVENT, &finished) {
            tracing::warn!(error = %err, "the window did not take an ingestion event");
        }
        // The last file of a batch re-arms a cancelled queue for the next one, and
        // ends the batch (the index is optimized once over what it added).
        if queued.fetch_sub(1, Ordering::SeqCst) == 1 {
            cancel.store(false, Ordering::SeqCst);
            optimize(&library, std::mem::take(&mut batch)).await;
        }
    }
}

async fn optimize(library: &SharedLibrary, batch: IngestBatch) {
    let library = library.read().await;
    if let Err(err) = batch.finish(&library).await {
        // Searches still work on an unoptimized index, only slower; the next batch
        // tries again.
        tracing::warn!(error = %err, "the vector index was not optimized");
    }
}

/// Lets the first document of a library whose model nobody chose choose it (see
/// [`pagetree::Library::settle_model_for`]); what was decided, for the user. The library
/// is held for writing only when the model may still change, which is before its first
/// document.
async fn settle_model(library: &SharedLibrary, path: &Path) -> Option<String> {
    match library.read().await.may_settle_model().await {
        Ok(true) => {}
        Ok(false) => return None,
        Err(err) => {
            tracing::warn!(error = %err, "could not tell whether the library's model is settled");
            return None;
        }
    }
    match library.write().await.settle_model_for(path).await {
        Ok(notice) => notice,
        Err(err) => {
            tracing::warn!(error = %err, "the library's model was not chosen by its first document");
            None
        }
    }
}

fn succeeded(file: String, outcome: IngestOutcome) -> IngestFinished {
    let (document, warnings) = match outcome {
        IngestOutcome::Added {
            document, warnings, ..
        } => (document, warnings),
        IngestOutcome::AlreadyPresent { document } => (
            document,
            vec!["this file is already in the library; nothing was added".to_string()],
        ),
    };
    IngestFinished {
        file,
        document: Some(document),
        error: None,
        warnings,
    }
}

fn failed(file: String, error: String) -> IngestFinished {
    IngestFinished {
        file,
        document: None,
        error: Some(error),
        warnings: Vec::new(),
    }
}

struct EventProgress {
    app: AppHandle,
    cancel: Arc<AtomicBool>,
}

impl Progress for EventProgress {
    fn stage(&self, file: &str, stage: Stage, done: usize, total: usize) {
        let event = IngestProgress {
            file,
            stage,
            done,
            total,
        };
        if let Err(err) = self.app.emit(PROGRESS_EVENT, &event) {
            tracing::debug!(error = %err, "the window did not take a progress event");
        }
    }

    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::SeqCst)
    }
}

/// Queues what the user dropped or picked, searched by the engine's folder walk (the
/// CLI's too): every PDF it found is queued, and everything it passed over is reported as
/// a file that failed, with the reason. Finding nothing at all is the command's error,
/// so the user hears it at once.
pub fn queue_paths(
    app: &AppHandle,
    queue: &IngestQueue,
    paths: &[PathBuf],
) -> Result<usize, String> {
    let found = pagetree::files::find_pdfs(paths);
    if found.files.is_empty() && !found.skipped.is_empty() {
        let reasons: Vec<String> = found.skipped.iter().map(ToString::to_string).collect();
        return Err(reasons.join("\n"));
    }
    let names: Vec<String> = found
        .files
        .iter()
        .map(|path| pagetree::pdf::display_name(path))
        .collect();
    // Before the skipped paths' events, so that the window counts them in this batch.
    emit_queued(
        app,
        names.iter().map(|file| (file.clone(), None)).collect(),
        false,
    );
    for skipped in &found.skipped {
        tracing::warn!(%skipped, "not added");
        let finished = failed(skipped.path().display().to_string(), skipped.to_string());
        if let Err(err) = app.emit(FINISHED_EVENT, &finished) {
            tracing::warn!(error = %err, "the window did not take an ingestion event");
        }
    }
    let paths = found.files.clone();
    let queued = queue.enqueue(found.files);
    let (app, library) = (app.clone(), queue.library.clone());
    // Counted off the command's path: opening hundreds of PDFs takes seconds.
    tauri::async_runtime::spawn(async move {
        let mut counted = Vec::with_capacity(paths.len());
        for (path, file) in paths.iter().zip(names) {
            let pages = match library.read().await.page_count(path).await {
                Ok(pages) => Some(pages),
                Err(err) => {
                    tracing::debug!(%file, error = %err, "pages not counted");
                    None
                }
            };
            counted.push((file, pages));
        }
        emit_queued(&app, counted, true);
    });
    Ok(queued)
}

fn emit_queued(app: &AppHandle, files: Vec<(String, Option<u32>)>, counted: bool) {
    if files.is_empty() {
        return;
    }
    let event = IngestQueued {
        files: files
            .into_iter()
            .map(|(file, pages)| QueuedFile { file, pages })
            .collect(),
        counted,
    };
    if let Err(err) = app.emit(QUEUED_EVENT, &event) {
        tracing::warn!(error = %err, "the window did not take the queued files");
    }
}
