//! OCR of pages without a usable text layer (scans, faxes, photographed pages), with
//! Tesseract's own command: each page is drawn by pdfium at 300 dpi and read with its
//! words' boxes, which are kept in the page's coordinates so that a citation on a
//! scanned page can be marked like any other.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};

pub(crate) mod languages;
pub(crate) mod read;
mod scan;
mod tesseract;
mod tsv;

pub use tesseract::{Tesseract, INSTALL_HINT, PROGRAM_VARIABLE};

/// A page whose text layer has fewer letters and digits than this is read by OCR when
/// it draws anything: a scanner's software often leaves a page number or a stray mark
/// in an otherwise image-only page.
const STRAY_CHARACTERS: usize = 20;

/// A rectangle on a page in PDF points, in the page's own coordinates (origin at the
/// bottom left of its box, y upwards), as pdfium gives character boxes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PageRect {
    pub left: f32,
    pub bottom: f32,
    pub right: f32,
    pub top: f32,
}

/// One word OCR read, where it is on the page, and how sure Tesseract was (0–100).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct WordBox {
    pub text: String,
    pub rect: PageRect,
    pub confidence: f32,
}

/// How a page's text came to be, as far as OCR is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PageOcr {
    /// The page's text is its text layer (or it is blank): OCR had nothing to do.
    #[default]
    NotNeeded,
    /// A scan read by OCR: its text and word boxes are OCR's.
    Read,
    /// A scan OCR read and found no words on.
    FoundNothing,
    /// A scan OCR could not read (the reason is in the document's warnings).
    Failed,
    /// A scan left unread: OCR is off or Tesseract is not installed.
    Needed,
}

impl PageOcr {
    /// The catalog's `pages.ocr` value.
    pub(crate) fn as_column(self) -> Option<&'static str> {
        match self {
            PageOcr::NotNeeded => None,
            PageOcr::Read => Some("read"),
            PageOcr::FoundNothing => Some("nothing"),
            PageOcr::Failed => Some("failed"),
            PageOcr::Needed => Some("needed"),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum OcrError {
    #[error("Tesseract ({program}) could not be run: {detail}")]
    Unavailable { program: PathBuf, detail: String },
    #[error("Tesseract ({program}) has no language models installed")]
    NoLanguages { program: PathBuf },
    #[error("Tesseract did not finish the page within {seconds} s")]
    TimedOut { seconds: u64 },
    #[error("Tesseract failed ({detail})")]
    Failed { detail: String },
}

/// Whether a page with this (cleaned) text layer may be a scan: none, or only a few
/// stray characters. Whether it draws anything is found when it is drawn.
pub(crate) fn may_be_scan(text: &str) -> bool {
    text.chars().filter(|c| c.is_alphanumeric()).count() < STRAY_CHARACTERS
}

/// Pages read at once: one Tesseract process a core (each runs on one thread).
pub(crate) fn workers() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// In words, for settings and About: the Tesseract OCR would run and its language
/// models, or why there is none and how to install it.
pub fn describe_engine() -> String {
    let program = Tesseract::program();
    match Tesseract::probe(&program) {
        Ok(tesseract) => format!(
            "Tesseract ({}) with the language models {}",
            program.display(),
            tesseract.languages().join(", ")
        ),
        Err(err) => format!("{err}; to read scanned pages, install Tesseract: {INSTALL_HINT}"),
    }
}

static INSTALL_HINT_GIVEN: AtomicBool = AtomicBool::new(false);

/// True the first time this process is told Tesseract is missing, so that how to
/// install it is said once, not for every scanned document.
pub(crate) fn first_time_missing() -> bool {
    !INSTALL_HINT_GIVEN.swap(true, Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_with_only_stray_characters_may_be_a_scan() {
        assert!(may_be_scan(""));
        assert!(may_be_scan("- 2 -"));
        assert!(may_be_scan("Page 12 of 40"));
        assert!(!may_be_scan(
            "Consolidated Balance Sheets as of December 31"
        ));
    }

    #[test]
    fn install_hint_is_given_once() {
        let first = first_time_missing();
        assert!(!first_time_missing());
        // Another test of this process may have been told first.
        let _ = first;
    }
}
