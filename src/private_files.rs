//! A new library is private to the person who made it: its folder is created 0700 and
//! its catalog 0600, whatever the umask, because the catalog holds every page's text,
//! the questions asked and the answers given. SQLite creates its `-wal` and `-shm`
//! files with the catalog's own mode, so they follow; everything else lives inside the
//! folder, which no other local user can enter.

use std::io;
use std::path::Path;

/// Owner only: read, write and enter.
#[cfg(unix)]
const FOLDER_MODE: u32 = 0o700;
/// Owner only: read and write.
#[cfg(unix)]
const FILE_MODE: u32 = 0o600;

/// Creates `path` and any missing parents, each private to the user. A folder that
/// already exists keeps its mode: someone may have shared it on purpose.
pub fn create_dir_all(path: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, FOLDER_MODE);
    builder.create(path)
}

/// Creates `path` empty and private to the user unless it exists (SQLite takes an
/// empty file for a new database), so that the file never exists readable by others.
pub fn create_file(path: &Path) -> io::Result<()> {
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
}
