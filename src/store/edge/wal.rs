//! Keeps the embedded engine's write-ahead log from growing without bound.
//!
//! qdrant-edge 0.7 writes every update to a log in `wal/` but never replays it (a shard
//! is loaded from its segments alone, which it flushes when dropped) and never truncates
//! it. At 1M nodes the log was 2.2 GB of a 4.7 GB library, and checking its checksums
//! was a fifth of every open. Its one live use is numbering updates: each point keeps
//! the number of the update that wrote it, and the engine ignores an update numbered
//! lower than the point's. So this does what the engine's own truncation (`Wal::
//! prefix_truncate`, which 0.7 never calls) would do: it removes the oldest closed
//! segments and keeps the newest closed one and the open ones, which carry the numbering
//! on. The version pin in Cargo.toml guards the layout it relies on.

use std::path::{Path, PathBuf};

const LOG_DIR: &str = "wal";
const CLOSED_PREFIX: &str = "closed-";
const OPEN_PREFIX: &str = "open-";
/// Written by the engine once it acknowledges updates itself; a log with one is left to it.
const ACKNOWLEDGED_FILE: &str = "first-index";

/// What one trim removed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct LogTrim {
    pub segments: usize,
    pub bytes: u64,
}

/// Removes every closed log segment but the newest from the index in `index_dir`.
/// The caller must hold the library's lock, with the index not open. A log with a
/// file this does not recognise is left as it is.
pub(crate) fn trim_write_ahead_log(index_dir: &Path) -> std::io::Result<LogTrim> {
    let log_dir = index_dir.join(LOG_DIR);
    if !log_dir.is_dir() || log_dir.join(ACKNOWLEDGED_FILE).exists() {
        return Ok(LogTrim::default());
    }
    let Some(mut closed) = closed_segments(&log_dir)? else {
        tracing::warn!(log = %log_dir.display(), "left a write-ahead log with unexpected files alone");
        return Ok(LogTrim::default());
    };
    closed.sort_unstable_by_key(|(start, _)| *start);
    closed.pop();
    let mut trim = LogTrim::default();
    // Oldest first, so that an interrupted trim still leaves a contiguous log.
    for (_, path) in closed {
        let bytes = std::fs::metadata(&path)?.len();
        std::fs::remove_file(&path)?;
        trim.segments += 1;
        trim.bytes += bytes;
    }
    if trim.segments > 0 {
        tracing::info!(
            segments = trim.segments,
            mib = trim.bytes / (1 << 20),
            "trimmed the index's write-ahead log"
        );
    }
    Ok(trim)
}

/// The closed segments and the index of each one's first entry, or `None` when the
/// folder holds something other than log segments.
fn closed_segments(log_dir: &Path) -> std::io::Result<Option<Vec<(u64, PathBuf)>>> {
    let mut closed = Vec::new();
    for entry in std::fs::read_dir(log_dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            return Ok(None);
        };
        if let Some(start) = name.strip_prefix(CLOSED_PREFIX) {
            match start.parse::<u64>() {
                Ok(start) => closed.push((start, entry.path())),
                Err(_) => return Ok(None),
            }
        } else if is_open_segment(name) || is_windows_lock(name) {
            continue;
        } else {
            return Ok(None);
        }
    }
    Ok(Some(closed))
}

fn is_open_segment(name: &str) -> bool {
    name.strip_prefix(OPEN_PREFIX)
        .is_some_and(|id| id.parse::<u64>().is_ok())
}

/// On Windows the engine locks its log through a file inside it.
fn is_windows_lock(name: &str) -> bool {
    name == ".wal"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(dir: &Path, name: &str, bytes: usize) {
        std::fs::write(dir.join(name), vec![0u8; bytes]).expect("write");
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("read dir")
            .map(|entry| {
                entry
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    }

    #[test]
    fn keeps_the_newest_closed_segment_and_the_open_ones() {
        let index = tempfile::tempdir().expect("temp dir");
        let log = index.path().join(LOG_DIR);
        std::fs::create_dir(&log).expect("log dir");
        for name in ["closed-0", "closed-90", "closed-1059", "closed-973"] {
            touch(&log, name, 10);
        }
        touch(&log, "open-69", 7);
        touch(&log, "open-70", 7);
        let trim = trim_write_ahead_log(index.path()).expect("trim");
        assert_eq!(
            trim,
            LogTrim {
                segments: 3,
                bytes: 30
            }
        );
        // Ordered numerically, not by name: 1059 is the newest.
        assert_eq!(names(&log), ["closed-1059", "open-69", "open-70"]);
        assert_eq!(
            trim_write_ahead_log(index.path()).expect("again"),
            LogTrim::default()
        );
    }

    #[test]
    fn leaves_unknown_or_acknowledged_logs_alone() {
        for stranger in ["first-index", "notes.txt", "closed-x"] {
            let index = tempfile::tempdir().expect("temp dir");
            let log = index.path().join(LOG_DIR);
            std::fs::create_dir(&log).expect("log dir");
            touch(&log, "closed-0", 10);
            touch(&log, "closed-5", 10);
            touch(&log, stranger, 1);
            let before = names(&log);
            assert_eq!(
                trim_write_ahead_log(index.path()).expect("trim"),
                LogTrim::default(),
                "{stranger}"
            );
            assert_eq!(names(&log), before);
        }
        let empty = tempfile::tempdir().expect("temp dir");
        assert_eq!(
            trim_write_ahead_log(empty.path()).expect("no log"),
            LogTrim::default()
        );
    }
}
