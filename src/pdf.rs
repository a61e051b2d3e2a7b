//! Reads the text of every page of a PDF through pdfium.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use pdfium_render::prelude::{PdfDocument, Pdfium, PdfiumError, PdfiumInternalError};

use crate::card::{FrontMatter, FRONT_PAGES};
use crate::files::{self, FileError};
use crate::ocr::PageOcr;
use crate::text_clean::{clean_page_text, has_text_layer};

/// A document longer than this is refused rather than ingested for hours; it is a
/// setting so that a user with a genuinely huge file can raise it.
pub(crate) const DEFAULT_MAX_PAGES: u32 = 5_000;

#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    /// Not a readable file that starts like a PDF; found before pdfium sees it.
    #[error(transparent)]
    File(#[from] FileError),
    #[error("{file}: the PDF is encrypted with a password; remove the password and add it again")]
    Encrypted { file: String },
    #[error("{file}: the PDF is damaged or truncated and cannot be opened ({detail})")]
    Corrupt { file: String, detail: String },
    #[error("{file}: the PDF has no pages")]
    NoPages { file: String },
    #[error("{file}: the PDF has {pages} pages, more than the limit of {limit} (raise `max_pages` in settings to ingest it)")]
    TooManyPages {
        file: String,
        pages: u32,
        limit: u32,
    },
    #[error("PDFium could not be loaded from {path}: {detail}")]
    PdfiumUnavailable { path: PathBuf, detail: String },
}

/// One page's cleaned text. `number` is 1-based, as people count pages.
#[derive(Debug, Clone, PartialEq)]
pub struct PageText {
    pub number: u32,
    pub text: String,
    /// False for a page with no extractable text (a scan or a blank page): kept and
    /// flagged, never dropped, so that page numbers stay true.
    pub has_text: bool,
    /// Whether the text is OCR's, and if a scan was left unread, why.
    pub ocr: PageOcr,
    /// The number printed on the page as the PDF's page labels give it ("47", "xii"),
    /// which people cite; None when the PDF has no labels.
    pub label: Option<String>,
}

static PDFIUM: OnceLock<Mutex<Pdfium>> = OnceLock::new();
/// Held while pdfium is being bound: two first callers at once would both bind, and
/// pdfium refuses the second ("bindings already initialized").
static BINDING: Mutex<()> = Mutex::new(());

/// Binds pdfium once per process. pdfium is not thread-safe, so every call goes through
/// one lock.
fn pdfium(library: &Path) -> Result<&'static Mutex<Pdfium>, PdfError> {
    if let Some(bound) = PDFIUM.get() {
        return Ok(bound);
    }
    let _binding = BINDING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(bound) = PDFIUM.get() {
        return Ok(bound);
    }
    let bindings = Pdfium::bind_to_library(library).map_err(|err| PdfError::PdfiumUnavailable {
        path: library.to_path_buf(),
        detail: err.to_string(),
    })?;
    Ok(PDFIUM.get_or_init(|| Mutex::new(Pdfium::new(bindings))))
}

/// Extracts every page's text and what the document says about itself (metadata,
/// outline, first pages), in one opening of the file.
pub(crate) fn extract_document(
    pdfium_library: &Path,
    path: &Path,
    max_pages: u32,
) -> Result<(Vec<PageText>, FrontMatter), PdfError> {
    with_document(pdfium_library, path, |document, file| {
        let pages = read_pages(document, file, max_pages)?;
        let first_pages = pages
            .iter()
            .take(FRONT_PAGES)
            .map(|page| page.text.clone())
            .collect();
        Ok((pages, front_matter(document, first_pages)))
    })
}

/// Reads only the metadata, the outline and the first pages: what a document card is
/// made from, without the cost of the whole text.
pub fn extract_front_matter(pdfium_library: &Path, path: &Path) -> Result<FrontMatter, PdfError> {
    with_document(pdfium_library, path, |document, _| {
        let first_pages = document
            .pages()
            .iter()
            .take(FRONT_PAGES)
            .map(|page| {
                page.text()
                    .map(|text| clean_page_text(&text.all()))
                    .unwrap_or_default()
            })
            .collect();
        Ok(front_matter(document, first_pages))
    })
}

fn front_matter(document: &PdfDocument<'_>, first_pages: Vec<String>) -> FrontMatter {
    use pdfium_render::prelude::PdfDocumentMetadataTagType as Tag;
    let metadata = document.metadata();
    let tag = |kind: Tag| {
        metadata
            .get(kind)
            .map(|tag| tag.value().trim().to_string())
            .filter(|value| !value.is_empty())
    };
    // Outlines can be huge (one bookmark per note); the top level is what names a
    // document's parts.
    const OUTLINE_ITEMS: usize = 64;
    let outline = document
        .bookmarks()
        .root()
        .map(|first| {
            first
                .iter_siblings()
                .take(OUTLINE_ITEMS)
                .filter_map(|bookmark| bookmark.title())
                .map(|title| title.trim().to_string())
                .filter(|title| !title.is_empty())
                .collect()
        })
        .unwrap_or_default();
    let (page_count, landscape_pages) = page_orientation(document);
    FrontMatter {
        title: tag(Tag::Title),
        author: tag(Tag::Author),
        subject: tag(Tag::Subject),
        keywords: tag(Tag::Keywords),
        creation_date: tag(Tag::CreationDate),
        modification_date: tag(Tag::ModificationDate),
        outline,
        sections: crate::structure::outline::read(document),
        first_pages,
        page_count,
        landscape_pages,
    }
}

/// How many pages the document has, and how many are wider than tall (a slide deck's
/// are), from the page sizes alone: no page is loaded.
fn page_orientation(document: &PdfDocument<'_>) -> (usize, usize) {
    let pages = document.pages();
    let count = usize::try_from(pages.len()).unwrap_or(0);
    let landscape = (0..pages.len())
        .filter_map(|index| pages.page_size(index).ok())
        .filter(|size| size.width().value > size.height().value)
        .count();
    (count, landscape)
}

/// Opens `path` with pdfium (checked to be a PDF first) and hands the document and its
/// display name to `work`, holding pdfium's lock throughout.
pub(crate) fn with_document<T, E: From<PdfError>>(
    pdfium_library: &Path,
    path: &Path,
    work: impl FnOnce(&PdfDocument<'_>, &str) -> Result<T, E>,
) -> Result<T, E> {
    let file = display_name(path);
    files::open_pdf(path, &file).map_err(PdfError::from)?;
    let pdfium = pdfium(pdfium_library)?;
    // A poisoned lock only means another caller panicked; pdfium itself is intact.
    let pdfium = pdfium
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let document = pdfium
        .load_pdf_from_file(path, None)
        .map_err(|err| open_error(&file, err))?;
    work(&document, &file)
}

fn read_pages(
    document: &PdfDocument<'_>,
    file: &str,
    max_pages: u32,
) -> Result<Vec<PageText>, PdfError> {
    let pages = document.pages();
    let count = u32::try_from(pages.len()).unwrap_or(0);
    if count == 0 {
        return Err(PdfError::NoPages {
            file: file.to_string(),
        });
    }
    if count > max_pages {
        return Err(PdfError::TooManyPages {
            file: file.to_string(),
            pages: count,
            limit: max_pages,
        });
    }
    let mut out = Vec::with_capacity(count as usize);
    for (index, page) in pages.iter().enumerate() {
        let raw = page
            .text()
            .map(|text| text.all())
            .map_err(|err| PdfError::Corrupt {
                file: file.to_string(),
                detail: format!("page {}: {err}", index + 1),
            })?;
        let text = clean_page_text(&raw);
        out.push(PageText {
            number: index as u32 + 1,
            has_text: has_text_layer(&text),
            text,
            ocr: PageOcr::NotNeeded,
            label: printed_label(page.label()),
        });
    }
    Ok(out)
}

/// A page's label as people read it: trimmed, None when blank. A label equal to the
/// page's own number is kept, so that a question naming it finds the labelled page.
fn printed_label(label: Option<&str>) -> Option<String> {
    /// Longer than any printed page number; a longer label is a PDF's oddity.
    const MAX_LABEL_CHARS: usize = 32;
    let label = label?.trim();
    (!label.is_empty()).then(|| label.chars().take(MAX_LABEL_CHARS).collect())
}

fn open_error(file: &str, err: PdfiumError) -> PdfError {
    match err {
        PdfiumError::PdfiumLibraryInternalError(
            PdfiumInternalError::PasswordError | PdfiumInternalError::SecurityError,
        ) => PdfError::Encrypted {
            file: file.to_string(),
        },
        other => PdfError::Corrupt {
            file: file.to_string(),
            detail: describe_pdfium_error(&other),
        },
    }
}

fn describe_pdfium_error(err: &PdfiumError) -> String {
    match err {
        PdfiumError::PdfiumLibraryInternalError(PdfiumInternalError::FormatError) => {
            "its structure is not valid PDF".to_string()
        }
        PdfiumError::PdfiumLibraryInternalError(PdfiumInternalError::FileError) => {
            "the file could not be read".to_string()
        }
        other => format!("{other:?}"),
    }
}

/// How many pages `path` has, without reading their text: what a batch is counted in.
pub fn page_count(pdfium_library: &Path, path: &Path) -> Result<u32, PdfError> {
    with_document(pdfium_library, path, |document, _| {
        Ok(u32::try_from(document.pages().len()).unwrap_or(0))
    })
}

/// The file name shown to people: the last path component.
pub fn display_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::printed_label;

    #[test]
    fn a_label_is_trimmed_and_a_blank_one_is_none() {
        assert_eq!(printed_label(Some(" xii ")).as_deref(), Some("xii"));
        assert_eq!(printed_label(Some("3")).as_deref(), Some("3"));
        assert_eq!(printed_label(Some("  ")), None);
        assert_eq!(printed_label(None), None);
        assert_eq!(
            printed_label(Some(&"9".repeat(100))).map(|label| label.len()),
            Some(32)
        );
    }
}
