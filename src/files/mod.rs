//! The files PageTree is asked to read, checked before anything reads them: folders
//! searched for PDFs by one walk (the CLI's and the app's), and each file opened only
//! if it is a regular file that starts like a PDF.

mod input;
mod kind;
mod walk;

pub use input::{open_pdf, path_text, FileError};
pub use kind::FileKind;
pub use walk::{find_pdfs, Found, Skipped};
