//! A new library is private to the person who made it: its folder is created 0700 and
//! its catalog 0600, whatever the umask, because the catalog holds every page's text,
//! the questions asked and the answers given. SQLite creates its `-wal` and `-shm`
//! files with the catalog's own mode, so they follow; everything else lives inside the
//! folder, which no other local user can enter.
//!
//! A library made before this kept 0644 files in a 0755 folder; [`tighten`] takes the
//! access of others away from it when it is opened.

use std::io;
use std::path::Path;

/// Owner only: read, write and enter.
#[cfg(unix)]
const FOLDER_MODE: u32 = 0o700;
/// Owner only: read and write.
#[cfg(unix)]
const FILE_MODE: u32 = 0o600;

/// Makes every file and folder this process creates from now on private to the user
/// (umask 077): the index engine creates its files itself, by the umask, and rewrites
/// some (`segment.json`) as new files at every save, so no chmod after it keeps them
/// private. Called first thing by the CLI and the app, before any thread exists.
pub fn keep_new_files_private() {
    #[cfg(unix)]
    // SAFETY: umask only sets this process's file-creation mask; it cannot fail.
    unsafe {
        libc::umask(0o077);
    }
}

/// Creates `path` and any missing parents, each private to the user. A folder that
/// already exists keeps its mode here (a library's own folder is tightened on open).
pub fn create_dir_all(path: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, FOLDER_MODE);
    builder.create(path)
}

/// Creates `path` empty and private to the user unless it exists (SQLite takes an
/// empty file for a new database), so that the file never exists readable by others.
pub(crate) fn create_file(path: &Path) -> io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, FILE_MODE);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(err) if err.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        Err(err) => Err(err),
    }
}

/// Writes `bytes` to a new file at `path`, private to the user from its first byte.
pub fn write_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, FILE_MODE);
    options.open(path)?.write_all(bytes)
}

/// What could not be made private, and why.
pub type Refused = Vec<(std::path::PathBuf, io::Error)>;

/// Takes group and other access away from `path` and, when it is a folder, from
/// everything under it, where any was given; what the user may do is left as it is.
/// Links are neither followed nor changed (a chmod would change what they point at).
/// A missing `path` is nothing to do.
pub(crate) fn tighten(path: &Path) -> Refused {
    tighten_walk(path, true)
}

/// [`tighten`] for `path` alone, not what a folder holds.
pub(crate) fn tighten_one(path: &Path) -> Refused {
    tighten_walk(path, false)
}

#[cfg(unix)]
fn tighten_walk(path: &Path, recursive: bool) -> Refused {
    use std::os::unix::fs::PermissionsExt;
    let mut refused = Vec::new();
    let mut pending = vec![path.to_path_buf()];
    while let Some(path) = pending.pop() {
        let metadata = match std::fs::symlink_metadata(&path) {
            Ok(metadata) => metadata,
            Err(err) if err.kind() == io::ErrorKind::NotFound => continue,
            Err(err) => {
                refused.push((path, err));
                continue;
            }
        };
        if metadata.file_type().is_symlink() {
            continue;
        }
        let mode = metadata.permissions().mode() & 0o7777;
        if mode & 0o077 != 0 {
            let private = std::fs::Permissions::from_mode(mode & !0o077);
            if let Err(err) = std::fs::set_permissions(&path, private) {
                refused.push((path.clone(), err));
            }
        }
        if recursive && metadata.is_dir() {
            match std::fs::read_dir(&path) {
                Ok(entries) => pending.extend(entries.flatten().map(|entry| entry.path())),
                Err(err) => refused.push((path, err)),
            }
        }
    }
    refused
}

/// Elsewhere files have no modes to tighten.
#[cfg(not(unix))]
fn tighten_walk(_path: &Path, _recursive: bool) -> Refused {
    Vec::new()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path)
            .expect("metadata")
            .permissions()
            .mode()
            & 0o777
    }

    #[test]
    fn new_folders_and_files_are_the_users_alone_and_old_ones_keep_their_mode() {
        let dir = tempfile::tempdir().expect("temp dir");
        let nested = dir.path().join("a/b");
        create_dir_all(&nested).expect("created");
        assert_eq!(mode(&nested), 0o700);
        assert_eq!(mode(&dir.path().join("a")), 0o700);
        let file = nested.join("catalog.sqlite");
        create_file(&file).expect("created");
        assert_eq!(mode(&file), 0o600);

        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        std::fs::write(&file, b"kept").expect("write");
        create_file(&file).expect("already there");
        assert_eq!(mode(&file), 0o640);
        assert_eq!(std::fs::read(&file).expect("read"), b"kept");
    }

    #[test]
    fn tightening_takes_only_others_access_and_leaves_links_alone() {
        let dir = tempfile::tempdir().expect("temp dir");
        let tree = dir.path().join("index");
        std::fs::create_dir_all(tree.join("segment")).expect("folders");
        let chmod = |path: &Path, mode: u32| {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod")
        };
        let file = tree.join("segment/data");
        std::fs::write(&file, b"x").expect("write");
        let outside = dir.path().join("outside");
        std::fs::write(&outside, b"y").expect("write");
        std::os::unix::fs::symlink(&outside, tree.join("link")).expect("link");
        chmod(&tree, 0o755);
        chmod(&tree.join("segment"), 0o775);
        chmod(&file, 0o644);
        chmod(&outside, 0o644);

        assert!(tighten(&tree).is_empty());
        assert_eq!(mode(&tree), 0o700);
        assert_eq!(mode(&tree.join("segment")), 0o700);
        assert_eq!(mode(&file), 0o600);
        assert_eq!(mode(&outside), 0o644, "what a link points at is not ours");
        assert!(tighten(&dir.path().join("absent")).is_empty());
        chmod(&tree, 0o755);
        chmod(&file, 0o644);
        assert!(tighten_one(&tree).is_empty());
        assert_eq!(mode(&tree), 0o700);
        assert_eq!(mode(&file), 0o644, "only the folder itself");

        chmod(&file, 0o400);
        assert!(tighten(&tree).is_empty());
        assert_eq!(mode(&file), 0o400, "no access is added");
    }
}
