//! What a path is, in the words a message to the user needs.

use std::fmt;
use std::fs::FileType;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Regular,
    Folder,
    NamedPipe,
    Device,
    Socket,
    Other,
}

impl FileKind {
    /// The kind of a file type read with links followed (a link is whatever it points at).
    pub fn of(file_type: FileType) -> Self {
        if file_type.is_file() {
            return Self::Regular;
        }
        if file_type.is_dir() {
            return Self::Folder;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if file_type.is_fifo() {
                return Self::NamedPipe;
            }
            if file_type.is_char_device() || file_type.is_block_device() {
                return Self::Device;
            }
            if file_type.is_socket() {
                return Self::Socket;
            }
        }
        Self::Other
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Regular => "a regular file",
            Self::Folder => "a folder",
            Self::NamedPipe => "a named pipe (FIFO)",
            Self::Device => "a device",
            Self::Socket => "a socket",
            Self::Other => "a special file",
        })
    }
}
