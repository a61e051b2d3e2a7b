use crate::assets::AssetError;
use crate::catalog::CatalogError;
use crate::describe::DescribeError;
use crate::embed::EmbedError;
use crate::ingest::IngestFailure;
use crate::library::LibraryError;
use crate::pdf::PdfError;
use crate::render::RenderError;
use crate::store::StoreError;

/// Every failure the engine reports, grouped by the part that failed. Each variant's
/// message is written for the person using the app, not for the developer.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Assets(#[from] AssetError),
    #[error(transparent)]
    Pdf(#[from] PdfError),
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Embed(#[from] EmbedError),
    #[error(transparent)]
    Describe(#[from] DescribeError),
    #[error(transparent)]
    Library(#[from] LibraryError),
    #[error(transparent)]
    Ingest(#[from] IngestFailure),
    #[error(transparent)]
    Render(#[from] RenderError),
    #[error(transparent)]
    Card(#[from] crate::card::CardError),
    #[error(transparent)]
    Parameter(#[from] crate::search::ParameterError),
    #[error(transparent)]
    Disk(#[from] crate::disk::NoRoom),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A file refused before reading is reported as the PDF it was meant to be.
impl From<crate::files::FileError> for Error {
    fn from(err: crate::files::FileError) -> Self {
        Self::Pdf(PdfError::File(err))
    }
}
