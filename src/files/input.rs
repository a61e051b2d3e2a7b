//! One file given to PageTree, checked before anything reads it: a regular file (a
//! named pipe or a device would make any read wait forever or never end), starting
//! like a PDF, with a path the catalog can store and open again.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use super::kind::FileKind;

/// The PDF spec allows junk before the header; readers look for it in the first 1 KiB.
const HEADER_WINDOW: u64 = 1024;

#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("{file}: cannot read the file: {source}")]
    Unreadable {
        file: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{file}: this is {kind}, not a regular file; only PDF files can be added")]
    NotARegularFile { file: String, kind: FileKind },
    #[error("{file}: the file is empty (0 bytes)")]
    EmptyFile { file: String },
    #[error("{file}: this is not a PDF (it does not start with a PDF header)")]
    NotAPdf { file: String },
    #[error("{file}: the file's path is not valid UTF-8 text ({path}), so the library could not open it again by the path it keeps; rename the file, or the folder holding it, and add it again")]
    PathNotUtf8 { file: String, path: String },
}

/// Opens `path` for reading once it is known to be a regular file that starts with a
/// PDF header; the handle is positioned at the start. `file` names it in errors.
pub fn open_pdf(path: &Path, file: &str) -> Result<File, FileError> {
    let unreadable = |source| FileError::Unreadable {
        file: file.to_string(),
        source,
    };
    // The type is checked before opening: opening a named pipe for reading waits for a
    // writer, and opening some devices has effects of its own.
    let kind = FileKind::of(std::fs::metadata(path).map_err(unreadable)?.file_type());
    refuse_unless_regular(kind, file)?;
    let mut handle = open_without_waiting(path).map_err(unreadable)?;
    // Checked again on the open handle: the path may have been replaced in between.
    let kind = FileKind::of(handle.metadata().map_err(unreadable)?.file_type());
    refuse_unless_regular(kind, file)?;
    let mut head = Vec::with_capacity(HEADER_WINDOW as usize);
    (&mut handle)
        .take(HEADER_WINDOW)
        .read_to_end(&mut head)
        .map_err(unreadable)?;
    if head.is_empty() {
        return Err(FileError::EmptyFile {
            file: file.to_string(),
        });
    }
    if !head.windows(5).any(|window| window == b"%PDF-") {
        return Err(FileError::NotAPdf {
            file: file.to_string(),
        });
    }
    handle.seek(SeekFrom::Start(0)).map_err(unreadable)?;
    Ok(handle)
}

/// The absolute path the catalog keeps for `path`, to open the file again later (for
/// page images and cards).
///
/// The catalog stores paths as TEXT and hands them to the app and to `--json` output,
/// which are UTF-8. A path that is not UTF-8 (possible on Linux, e.g. a Latin-1 name
/// from an old disk) is refused rather than escaped: an escaped form would be a second
/// path syntax that every reader of the catalog must decode, and a lossy one would not
/// open again. Such names are rare and renaming is a fix the message can name.
pub fn path_text(path: &Path, file: &str) -> Result<String, FileError> {
    let absolute = std::fs::canonicalize(path).map_err(|source| FileError::Unreadable {
        file: file.to_string(),
        source,
    })?;
    absolute
        .to_str()
        .map(str::to_string)
        .ok_or_else(|| FileError::PathNotUtf8 {
            file: file.to_string(),
            path: absolute.display().to_string(),
        })
}

fn refuse_unless_regular(kind: FileKind, file: &str) -> Result<(), FileError> {
    if kind == FileKind::Regular {
        return Ok(());
    }
    Err(FileError::NotARegularFile {
        file: file.to_string(),
        kind,
    })
}

#[cfg(unix)]
fn open_without_waiting(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // Non-blocking so that a file swapped for a named pipe after the check above does
    // not block here; reads of a regular file are unaffected by the flag.
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_without_waiting(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_says_it_cannot_be_read() {
        let err = open_pdf(Path::new("/no/such/file.pdf"), "file.pdf").expect_err("missing");
        assert!(
            err.to_string()
                .starts_with("file.pdf: cannot read the file"),
            "{err}"
        );
    }

    #[test]
    fn a_folder_is_named_as_a_folder() {
        let dir = tempfile::tempdir().expect("temp dir");
        let err = open_pdf(dir.path(), "x.pdf").expect_err("folder");
        assert!(
            err.to_string()
                .contains("x.pdf: this is a folder, not a regular file"),
            "{err}"
        );
    }

    #[test]
    fn the_handle_starts_at_the_beginning_after_the_header_check() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("a.pdf");
        std::fs::write(&path, b"%PDF-1.7\nrest").expect("write");
        let mut bytes = Vec::new();
        open_pdf(&path, "a.pdf")
            .expect("opens")
            .read_to_end(&mut bytes)
            .expect("reads");
        assert_eq!(bytes, b"%PDF-1.7\nrest");
    }
}
