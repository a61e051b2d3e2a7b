//! Ingestion in the background: files queue up and are added one at a time, each
//! reporting progress and its outcome as events, so the window stays responsive.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use pagetree::catalog::DocumentRecord;
use pagetree::ingest::{IngestOutcome, Progress, Stage};
use serde::Serialize;
use tauri::{AppHandle, Emitter};
use tokio::sync::mpsc;

use crate::state::SharedLibrary;

pub const PROGRESS_EVENT: &str = "ingest://progress";
pub const FINISHED_EVENT: &str = "ingest://finished";

#[derive(Debug, Clone, Serialize)]
pub struct IngestProgress<'a> {
    pub file: &'a str,
    pub stage: Stage,
    pub done: usize,
    pub total: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct IngestFinished {
    pub file: String,
    pub document: Option<DocumentRecord>,
    pub error: Option<String>,
    pub warnings: Vec<String>,
}

pub struct IngestQueue {
    sender: mpsc::UnboundedSender<PathBuf>,
    cancel: Arc<AtomicBool>,
    queued: Arc<AtomicUsize>,
}

impl IngestQueue {
    pub fn start(app: AppHandle, library: SharedLibrary) -> Self {
        let (sender, receiver) = mpsc::unbounded_channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let queued = Arc::new(AtomicUsize::new(0));
        let (worker_cancel, worker_queued) = (cancel.clone(), queued.clone());
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
    // Whether a document was added since the index was last optimized.
    let mut added = false;
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
            let library = library.read().await;
            match library.ingest(&path, &progress).await {
                Ok(outcome) => succeeded(file, outcome),
                Err(err) => {
                    tracing::warn!(%file, error = %err, "ingestion failed");
                    failed(file, err.to_string())
                }
            }
        };
        added |= finished.error.is_none();
        if let Err(err) = app.emit(FINISHED_EVENT, &finished) {
            tracing::warn!(error = %err, "the window did not take an ingestion event");
        }
        // The last file of a batch re-arms a cancelled queue for the next one, and
        // builds the search indexes over what the batch added (as `pagetree ingest`
        // does after its files): once per batch, not per file, since each run may
        // rewrite a large part of the index.
        if queued.fetch_sub(1, Ordering::SeqCst) == 1 {
            cancel.store(false, Ordering::SeqCst);
            if std::mem::take(&mut added) {
                optimize(&library).await;
            }
        }
    }
}

async fn optimize(library: &SharedLibrary) {
    let library = library.read().await;
    let optimized = match library.store().await {
        Ok(store) => store.optimize().await.map_err(|err| err.to_string()),
        Err(err) => Err(err.to_string()),
    };
    if let Err(err) = optimized {
        // Searches still work on an unoptimized index, only slower; the next batch
        // tries again.
        tracing::warn!(error = %err, "the vector index was not optimized");
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

/// The files to add for what the user dropped or picked: PDFs as given, folders
/// searched (recursively) for PDFs, in name order. Anything else given directly is
/// kept, so the user hears why it cannot be added.
pub fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let before = files.len();
            files.extend(
                walkdir::WalkDir::new(path)
                    .sort_by_file_name()
                    .into_iter()
                    .filter_map(|entry| entry.ok())
                    .filter(|entry| entry.file_type().is_file() && is_pdf_name(entry.path()))
                    .map(|entry| entry.into_path()),
            );
            if files.len() == before && paths.len() == 1 {
                return Err(format!("there are no PDF files in {}", path.display()));
            }
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

fn is_pdf_name(path: &Path) -> bool {
    path.extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("pdf"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_expand_to_their_pdfs_in_name_order_and_files_pass_through() {
        let dir = tempfile::tempdir().unwrap();
        let nested = dir.path().join("b");
        std::fs::create_dir(&nested).unwrap();
        for name in ["z.pdf", "notes.txt", "A.PDF"] {
            std::fs::write(dir.path().join(name), b"x").unwrap();
        }
        std::fs::write(nested.join("c.pdf"), b"x").unwrap();
        let loose = dir.path().join("notes.txt");
        let files = expand(&[dir.path().to_path_buf(), loose.clone()]).unwrap();
        let names: Vec<String> = files
            .iter()
            .map(|f| f.strip_prefix(dir.path()).unwrap().display().to_string())
            .collect();
        assert_eq!(names, ["A.PDF", "b/c.pdf", "z.pdf", "notes.txt"]);
    }

    #[test]
    fn a_folder_without_pdfs_says_so() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.txt"), b"x").unwrap();
        let err = expand(&[dir.path().to_path_buf()]).unwrap_err();
        assert!(err.contains("no PDF files"), "{err}");
    }
}
