//! Room on the disk that holds a library. The vector engine writes its log, vectors and
//! payloads through memory-mapped files it creates sparse (32 MiB each, a few KB of
//! them really on disk); when the disk is full, storing into one of their holes is not
//! an error a program can answer but SIGBUS, which ends the process with no message
//! (issue 16). So every command that writes to the library first checks that the disk
//! has room for what it is about to write, and stops with a sentence if it has not.

use std::path::Path;

const MIB: u64 = 1024 * 1024;

/// The vector engine's unit of growth: its write-ahead log advances through 32 MiB
/// segments and its vectors and payloads grow through 32 MiB chunks, each created
/// sparse and filled through a memory map.
pub(crate) const MAPPED_FILE: u64 = 32 * MIB;

/// Room any use of the vector index needs, opening it for a search included: the
/// engine may begin a log segment then. Measured on a 128 MB tmpfs: a search with
/// 16 MB free died of SIGBUS, with 33 MB free it ran. The 4 MiB are for the small
/// files written beside the mapped ones (segment descriptions, SQLite's journal).
pub(crate) const ONE_WRITE: u64 = MAPPED_FILE + 4 * MIB;

/// Room every command that writes needs beyond what it adds: a new log segment and a
/// new chunk may both come into being during it. SQLite's own WAL (checkpointed at
/// about 4 MB) fits in the rest.
pub(crate) const WRITE_MARGIN: u64 = 2 * MAPPED_FILE;

/// What the library grows by for each byte of PDF added: 2.0 measured (3M's 2018
/// 10-K, 1.25 MB, 160 pages: +2.5 MB of page text, vectors and payloads after the
/// optimize that follows an ingestion), doubled for documents with more text per byte.
pub(crate) const INGEST_BYTES_PER_PDF_BYTE: u64 = 4;

/// What one node takes in the embedded index: about 12 KB measured (2.5 MB for the
/// 3M 10-K's 215 nodes, dense vector, BM25 vector and payload), rounded up.
pub(crate) const INDEX_BYTES_PER_NODE: u64 = 16 * 1024;

/// Room opening a library needs at all: SQLite creates the catalog's shared-memory
/// file (32 KB) and writes its log's first pages there; on a disk with none left it
/// reports only "disk I/O error" (seen with `docs` on a full tmpfs).
pub(crate) const OPEN_ROOM: u64 = MIB;

/// A file of zeros kept in the library folder, given up when a full disk would
/// otherwise keep a failed document from being recorded as failed: SQLite needs a
/// little room to write even that.
pub(crate) const RESERVE_FILE: &str = "room.reserve";
const RESERVE_BYTES: usize = 4 * MIB as usize;

/// Puts the reserve in place if it is missing and the disk has room for it (quietly
/// not otherwise: it is a precaution, tried again at the next open).
pub(crate) fn keep_reserve(root: &Path) {
    let path = root.join(RESERVE_FILE);
    if std::fs::metadata(&path).is_ok_and(|metadata| metadata.len() == RESERVE_BYTES as u64) {
        return;
    }
    if ensure_room(root, RESERVE_BYTES as u64 + OPEN_ROOM, Task::OpenLibrary).is_err() {
        return;
    }
    let _ = std::fs::remove_file(&path);
    // Written, not just sized: a sparse file would hold no room at all.
    if let Err(err) = crate::private_files::write_new(&path, &vec![0u8; RESERVE_BYTES]) {
        tracing::debug!(%err, "no room set aside in the library folder");
        let _ = std::fs::remove_file(&path);
    }
}

/// Gives the reserve's room back to the disk; true when there was one to give.
pub(crate) fn release_reserve(root: &Path) -> bool {
    std::fs::remove_file(root.join(RESERVE_FILE)).is_ok()
}

/// What a command is about to do, for the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    OpenLibrary,
    Open,
    Write,
    Ingest,
    Delete,
    Optimize,
    Migrate,
    Rebuild,
}

impl Task {
    fn describe(self) -> &'static str {
        match self {
            Task::OpenLibrary => "opening the library",
            Task::Open => "opening the vector index",
            Task::Write => "writing to the vector index",
            Task::Ingest => "adding this document",
            Task::Delete => "removing a document",
            Task::Optimize => "optimizing the vector index",
            Task::Migrate => "moving the library's vectors",
            Task::Rebuild => "rebuilding the vector index",
        }
    }
}

#[derive(Debug, thiserror::Error)]
#[error("the disk holding the library has {free_mb} MB free; PageTree needs about {needed_mb} MB for this ({task}); free some space and try again")]
pub struct NoRoom {
    pub free_mb: u64,
    pub needed_mb: u64,
    pub task: &'static str,
}

/// Stops `task` unless the disk holding `path` has `needed` bytes free. A disk whose
/// free space cannot be read is let through (the write then fails or not as before).
pub(crate) fn ensure_room(path: &Path, needed: u64, task: Task) -> Result<(), NoRoom> {
    let probe = existing_ancestor(path);
    match fs4::available_space(probe) {
        Ok(free) => check(free, needed, task),
        Err(err) => {
            tracing::debug!(path = %probe.display(), %err, "free space unknown");
            Ok(())
        }
    }
}

fn check(free: u64, needed: u64, task: Task) -> Result<(), NoRoom> {
    if free >= needed {
        return Ok(());
    }
    Err(NoRoom {
        free_mb: free / MIB,
        needed_mb: needed.div_ceil(MIB),
        task: task.describe(),
    })
}

/// Whether an error's text says the disk was full (`ENOSPC`, as Rust, the engine and
/// SQLite word it).
pub(crate) fn is_no_space(text: &str) -> bool {
    let text = text.to_ascii_lowercase();
    text.contains("no space left on device")
        || text.contains("os error 28")
        || text.contains("database or disk is full")
}

/// The error for `task` having found too little room on the disk holding `path`: with
/// what is free now and the `needed` bytes it takes.
pub(crate) fn no_room(path: &Path, needed: u64, task: Task) -> NoRoom {
    let free = fs4::available_space(existing_ancestor(path)).unwrap_or(0);
    NoRoom {
        free_mb: free / MIB,
        needed_mb: needed.div_ceil(MIB),
        task: task.describe(),
    }
}

/// What adding a PDF of `pdf_bytes` needs.
pub(crate) fn for_ingest(pdf_bytes: u64) -> u64 {
    pdf_bytes
        .saturating_mul(INGEST_BYTES_PER_PDF_BYTE)
        .saturating_add(WRITE_MARGIN)
}

/// What rewriting the index in `dir` needs: a second copy of what it holds now (an
/// optimize writes merged segments before it drops the old ones; a rebuild writes a
/// whole new index beside the old).
pub(crate) fn for_rewrite(dir: &Path) -> u64 {
    allocated_size(dir).saturating_add(WRITE_MARGIN)
}

/// What an embedded index of `nodes` nodes needs.
pub(crate) fn for_nodes(nodes: usize) -> u64 {
    (nodes as u64)
        .saturating_mul(INDEX_BYTES_PER_NODE)
        .saturating_add(WRITE_MARGIN)
}

/// The bytes the files under `dir` really take on disk (the engine's files are sparse,
/// so their lengths say far more).
pub(crate) fn allocated_size(dir: &Path) -> u64 {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| entry.metadata().ok())
        .filter(|metadata| metadata.is_file())
        .map(|metadata| on_disk(&metadata))
        .sum()
}

#[cfg(unix)]
fn on_disk(metadata: &std::fs::Metadata) -> u64 {
    // st_blocks counts 512-byte units whatever the file system's block size.
    std::os::unix::fs::MetadataExt::blocks(metadata).saturating_mul(512)
}

#[cfg(not(unix))]
fn on_disk(metadata: &std::fs::Metadata) -> u64 {
    metadata.len()
}

/// A library or index folder not made yet is on the disk of its nearest parent.
fn existing_ancestor(path: &Path) -> &Path {
    path.ancestors()
        .find(|ancestor| ancestor.exists())
        .unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_little_room_is_told_in_megabytes() {
        let err = check(3 * MIB + 5, for_ingest(10 * MIB), Task::Ingest).expect_err("no room");
        assert_eq!(
            err.to_string(),
            "the disk holding the library has 3 MB free; PageTree needs about 104 MB for this (adding this document); free some space and try again"
        );
        check(200 * MIB, for_ingest(10 * MIB), Task::Ingest).expect("room");
    }

    #[test]
    fn sizes_do_not_overflow() {
        assert_eq!(for_ingest(u64::MAX), u64::MAX);
        assert!(for_nodes(usize::MAX) >= WRITE_MARGIN);
    }

    #[test]
    fn sparse_files_count_what_they_take() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = std::fs::File::create(dir.path().join("sparse")).expect("creates");
        file.set_len(64 * MIB).expect("grows");
        assert!(allocated_size(dir.path()) < MIB);
    }
}
