//! The one folder walk behind `pagetree ingest` and the app's "add files": PDFs under
//! the folders given, each found once, and a sentence for everything that was passed
//! over and why.

use std::collections::HashSet;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::kind::FileKind;

/// What a walk found: the files to add, in order, and what it could not use.
#[derive(Debug, Default)]
pub struct Found {
    pub files: Vec<PathBuf>,
    pub skipped: Vec<Skipped>,
}

/// Something under a folder that was not added, said for the person who gave the folder.
#[derive(Debug, thiserror::Error)]
pub enum Skipped {
    #[error("{}: could not open this folder ({reason}); the PDFs in it were not added", path.display())]
    UnreadableFolder { path: PathBuf, reason: String },
    #[error("{}: could not read this ({reason}), so it was not added", path.display())]
    Unreadable { path: PathBuf, reason: String },
    #[error("{}: this is {kind}, not a regular file, so it was not added", path.display())]
    NotARegularFile { path: PathBuf, kind: FileKind },
    #[error("{}: this folder has no PDF files in it, so nothing was added from it", path.display())]
    NoPdfs { path: PathBuf },
}

impl Skipped {
    /// The file or folder passed over.
    pub fn path(&self) -> &Path {
        match self {
            Self::UnreadableFolder { path, .. }
            | Self::Unreadable { path, .. }
            | Self::NotARegularFile { path, .. }
            | Self::NoPdfs { path } => path,
        }
    }
}

/// Files given are kept as they are (adding one says why it cannot be added); folders
/// are searched, in name order, for files named `*.pdf`.
///
/// Links to folders are followed, since a folder of PDFs may link to others, but each
/// folder is searched once however many links lead to it, so a link back to a parent
/// neither repeats files nor runs forever.
pub fn find_pdfs(paths: &[PathBuf]) -> Found {
    let mut found = Found::default();
    let mut searched = HashSet::new();
    for path in paths {
        if !path.is_dir() {
            found.files.push(path.clone());
            continue;
        }
        let (files, skipped) = (found.files.len(), found.skipped.len());
        let already_searched = folder_key(path).is_some_and(|key| searched.contains(&key));
        search(path, &mut searched, &mut found);
        let nothing = found.files.len() == files && found.skipped.len() == skipped;
        if nothing && !already_searched {
            found.skipped.push(Skipped::NoPdfs { path: path.clone() });
        }
    }
    found
}

fn search(root: &Path, searched: &mut HashSet<FolderKey>, found: &mut Found) {
    let mut entries = walkdir::WalkDir::new(root)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter();
    while let Some(entry) = entries.next() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                if let Some(skipped) = skipped_for(&err) {
                    found.skipped.push(skipped);
                }
                continue;
            }
        };
        let kind = FileKind::of(entry.file_type());
        if kind == FileKind::Folder {
            let fresh = folder_key(entry.path()).is_none_or(|key| searched.insert(key));
            if !fresh {
                tracing::debug!(folder = %entry.path().display(), "already searched");
                entries.skip_current_dir();
            }
            continue;
        }
        if !is_pdf_name(entry.path()) {
            continue;
        }
        if kind == FileKind::Regular {
            found.files.push(entry.into_path());
        } else {
            found.skipped.push(Skipped::NotARegularFile {
                path: entry.into_path(),
                kind,
            });
        }
    }
}

/// What a walk error means to the user; none for a link back to a folder being
/// searched, which is the loop the walk exists to stop and costs the user nothing.
fn skipped_for(err: &walkdir::Error) -> Option<Skipped> {
    if err.loop_ancestor().is_some() {
        tracing::debug!(error = %err, "a link back to a folder being searched");
        return None;
    }
    let path = err.path()?.to_path_buf();
    let reason = err
        .io_error()
        .map(plain_reason)
        .unwrap_or_else(|| err.to_string());
    if path.is_dir() {
        Some(Skipped::UnreadableFolder { path, reason })
    } else if is_pdf_name(&path) {
        Some(Skipped::Unreadable { path, reason })
    } else {
        // Something not named like a PDF (a dangling link to a text file, say) would
        // not have been added anyway.
        tracing::debug!(error = %err, "passed over");
        None
    }
}

fn plain_reason(err: &std::io::Error) -> String {
    match err.kind() {
        ErrorKind::PermissionDenied => "permission denied".to_string(),
        ErrorKind::NotFound => "it does not exist; a link to something removed?".to_string(),
        _ => err.to_string(),
    }
}

fn is_pdf_name(path: &Path) -> bool {
    path.extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("pdf"))
}

/// A folder's identity whatever path reaches it.
#[cfg(unix)]
type FolderKey = (u64, u64);
#[cfg(not(unix))]
type FolderKey = PathBuf;

#[cfg(unix)]
fn folder_key(path: &Path) -> Option<FolderKey> {
    use std::os::unix::fs::MetadataExt;
    let metadata = std::fs::metadata(path).ok()?;
    Some((metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn folder_key(path: &Path) -> Option<FolderKey> {
    std::fs::canonicalize(path).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(found: &Found, root: &Path) -> Vec<String> {
        found
            .files
            .iter()
            .map(|f| f.strip_prefix(root).unwrap_or(f).display().to_string())
            .collect()
    }

    #[test]
    fn folders_expand_to_their_pdfs_in_name_order_and_files_pass_through() {
        let dir = tempfile::tempdir().expect("temp dir");
        let nested = dir.path().join("b");
        std::fs::create_dir(&nested).expect("mkdir");
        for name in ["z.pdf", "notes.txt", "A.PDF"] {
            std::fs::write(dir.path().join(name), b"x").expect("write");
        }
        std::fs::write(nested.join("c.pdf"), b"x").expect("write");
        let loose = dir.path().join("notes.txt");
        let found = find_pdfs(&[dir.path().to_path_buf(), loose]);
        assert_eq!(
            names(&found, dir.path()),
            ["A.PDF", "b/c.pdf", "z.pdf", "notes.txt"]
        );
        assert!(found.skipped.is_empty(), "{:?}", found.skipped);
    }

    #[test]
    fn a_folder_without_pdfs_says_so() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("notes.txt"), b"x").expect("write");
        let found = find_pdfs(&[dir.path().to_path_buf()]);
        assert!(found.files.is_empty());
        let said = found.skipped[0].to_string();
        assert!(
            said.contains("this folder has no PDF files in it"),
            "{said}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn links_to_folders_are_followed_once() {
        let dir = tempfile::tempdir().expect("temp dir");
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).expect("mkdir");
        std::fs::write(dir.path().join("a.pdf"), b"x").expect("write");
        std::fs::write(sub.join("b.pdf"), b"x").expect("write");
        std::os::unix::fs::symlink(".", dir.path().join("loop")).expect("link");
        std::os::unix::fs::symlink("..", sub.join("up")).expect("link");
        std::os::unix::fs::symlink("sub", dir.path().join("alias")).expect("link");
        let found = find_pdfs(&[dir.path().to_path_buf(), sub.clone()]);
        assert_eq!(names(&found, dir.path()), ["a.pdf", "alias/b.pdf"]);
        assert!(found.skipped.is_empty(), "{:?}", found.skipped);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_nothing_named_like_a_pdf_is_named_and_others_are_not() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("a.pdf"), b"x").expect("write");
        std::os::unix::fs::symlink("gone.pdf", dir.path().join("old.pdf")).expect("link");
        std::os::unix::fs::symlink("gone.txt", dir.path().join("old.txt")).expect("link");
        let found = find_pdfs(&[dir.path().to_path_buf()]);
        assert_eq!(names(&found, dir.path()), ["a.pdf"]);
        assert_eq!(found.skipped.len(), 1, "{:?}", found.skipped);
        let said = found.skipped[0].to_string();
        assert!(
            said.contains("old.pdf: could not read this (it does not exist"),
            "{said}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn an_unreadable_folder_is_named_unless_the_process_reads_everything() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let locked = dir.path().join("locked");
        std::fs::create_dir(&locked).expect("mkdir");
        std::fs::write(dir.path().join("a.pdf"), b"x").expect("write");
        std::fs::write(locked.join("b.pdf"), b"x").expect("write");
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
        let privileged = std::fs::read_dir(&locked).is_ok();
        let found = find_pdfs(&[dir.path().to_path_buf()]);
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        if privileged {
            eprintln!("NOTE: running as root (or with CAP_DAC_READ_SEARCH): chmod 000 does not block reading, so only the files found are checked");
            assert_eq!(names(&found, dir.path()), ["a.pdf", "locked/b.pdf"]);
            return;
        }
        assert_eq!(names(&found, dir.path()), ["a.pdf"]);
        assert_eq!(found.skipped.len(), 1, "{:?}", found.skipped);
        let said = found.skipped[0].to_string();
        assert!(
            said.ends_with("locked: could not open this folder (permission denied); the PDFs in it were not added"),
            "{said}"
        );
    }
}
