//! Files the UI offers for saving (history exports) go to the user's Downloads folder
//! under a name that does not overwrite anything, and the UI is told where they went;
//! WebKitGTK would otherwise drop them silently into the process's working folder.

use std::path::{Path, PathBuf};

use serde::Serialize;
use tauri::webview::DownloadEvent;
use tauri::{Emitter, Manager, Runtime, Webview};

pub const SAVED_EVENT: &str = "download://finished";

#[derive(Serialize, Clone)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "DownloadFinished"))]
pub(crate) struct Saved {
    path: Option<PathBuf>,
    ok: bool,
}

pub fn handle<R: Runtime>(webview: Webview<R>, event: DownloadEvent<'_>) -> bool {
    match event {
        DownloadEvent::Requested { destination, .. } => {
            let name = destination
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_else(|| "pagetree-export".to_string());
            let folder = webview
                .path()
                .download_dir()
                .or_else(|_| webview.path().home_dir())
                .unwrap_or_else(|_| std::env::temp_dir());
            if let Err(err) = std::fs::create_dir_all(&folder) {
                tracing::warn!(folder = %folder.display(), error = %err, "no downloads folder");
                return false;
            }
            *destination = free_name(&folder, &name);
            tracing::info!(path = %destination.display(), "saving a download");
            true
        }
        DownloadEvent::Finished { path, success, .. } => {
            let saved = Saved { path, ok: success };
            if let Err(err) = webview.emit(SAVED_EVENT, saved) {
                tracing::warn!(error = %err, "the window did not take a download event");
            }
            true
        }
        _ => true,
    }
}

/// `folder/name`, or `folder/stem (2).ext`, `(3)`, … when that exists.
fn free_name(folder: &Path, name: &str) -> PathBuf {
    let first = folder.join(name);
    if !first.exists() {
        return first;
    }
    let path = Path::new(name);
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| name.to_string());
    let extension = path
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    (2..)
        .map(|n| folder.join(format!("{stem} ({n}){extension}")))
        .find(|candidate| !candidate.exists())
        .unwrap_or(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_existing_file_is_never_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(free_name(dir.path(), "h.md"), dir.path().join("h.md"));
        std::fs::write(dir.path().join("h.md"), "x").unwrap();
        assert_eq!(free_name(dir.path(), "h.md"), dir.path().join("h (2).md"));
        std::fs::write(dir.path().join("h (2).md"), "x").unwrap();
        assert_eq!(free_name(dir.path(), "h.md"), dir.path().join("h (3).md"));
    }
}
