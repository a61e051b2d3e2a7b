//! Reading a document's scanned pages: pdfium draws them one batch at a time (it
//! allows one caller at once), and as many Tesseract processes as there are cores read
//! them as they come.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};

use super::scan::{draw_for_ocr, draws_anything, Drawn, GrayImage, PageTransform};
use super::{tsv, Tesseract, WordBox};
use crate::pdf::{with_document, PdfError};
use crate::text_clean::{clean_page_text, has_text_layer};

/// What OCR made of one page.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PageReading {
    /// Words were found: the page's text and each word's box.
    Read { text: String, words: Vec<WordBox> },
    /// The page draws nothing: no ink to read.
    Blank,
    /// Tesseract read the page and found no words.
    Nothing,
    /// The page could not be drawn or read; why.
    Failed(String),
}

/// One page drawn and waiting for Tesseract.
struct Drawing {
    number: u32,
    image: GrayImage,
    transform: PageTransform,
}

/// What to read and how.
pub(crate) struct ReadRequest<'a> {
    pub pdfium: &'a Path,
    pub path: &'a Path,
    /// 1-based page numbers.
    pub pages: &'a [u32],
    pub tesseract: &'a Tesseract,
    /// Tesseract's `eng+rus` form.
    pub languages: &'a str,
    /// Pages read at once.
    pub workers: usize,
}

/// Reads `request.pages`, calling `on_page` as each is done (from any thread), and
/// returns every page's reading in page order. Stops drawing new pages once `stop` is
/// set. Fails only when the document cannot be opened again.
pub(crate) fn read_pages(
    request: &ReadRequest<'_>,
    stop: &AtomicBool,
    on_page: &(dyn Fn() + Sync),
) -> Result<Vec<(u32, PageReading)>, PdfError> {
    let workers = request.workers.max(1);
    let results = Mutex::new(Vec::with_capacity(request.pages.len()));
    let record = |number: u32, reading: PageReading| {
        results
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push((number, reading));
        on_page();
    };
    // Room for one drawn page a reader: the next batch is drawn while they read.
    let (send, receive) = mpsc::sync_channel::<Drawing>(workers);
    let receive = Mutex::new(receive);
    let drawn = std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let next = receive
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .recv();
                let Ok(drawing) = next else { break };
                let reading = recognise(request.tesseract, request.languages, &drawing);
                record(drawing.number, reading);
            });
        }
        let drawn = draw_batches(request, workers, stop, &send, &record);
        // The readers stop once the last drawing is taken.
        drop(send);
        drawn
    });
    drawn?;
    let mut results = results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    results.sort_by_key(|(number, _)| *number);
    Ok(results)
}

/// Draws the pages `workers` at a time, each batch in one opening of the document, and
/// hands them to the readers.
fn draw_batches(
    request: &ReadRequest<'_>,
    workers: usize,
    stop: &AtomicBool,
    send: &mpsc::SyncSender<Drawing>,
    record: &(dyn Fn(u32, PageReading) + Sync),
) -> Result<(), PdfError> {
    for batch in request.pages.chunks(workers) {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let drawn = with_document(request.pdfium, request.path, |document, _| {
            let pages = document.pages();
            Ok::<_, PdfError>(
                batch
                    .iter()
                    .map(|&number| {
                        let drawn = i32::try_from(number.saturating_sub(1))
                            .map_err(|err| err.to_string())
                            .and_then(|index| pages.get(index).map_err(|err| err.to_string()))
                            .and_then(|page| draw_for_ocr(&page));
                        (number, drawn)
                    })
                    .collect::<Vec<_>>(),
            )
        })?;
        for (number, drawn) in drawn {
            match drawn {
                Ok(Drawn::Blank) => record(number, PageReading::Blank),
                Err(detail) => record(
                    number,
                    PageReading::Failed(format!("it could not be drawn ({detail})")),
                ),
                Ok(Drawn::Image { image, transform }) => {
                    let drawing = Drawing {
                        number,
                        image,
                        transform,
                    };
                    if send.send(drawing).is_err() {
                        // Every reader is gone, which only a panic does.
                        return Ok(());
                    }
                }
            }
        }
    }
    Ok(())
}

/// Reads one drawn page.
fn recognise(tesseract: &Tesseract, languages: &str, drawing: &Drawing) -> PageReading {
    match tesseract.read(&drawing.image, languages) {
        Ok(words) => reading_of(&words, &drawing.transform),
        Err(err) => {
            tracing::warn!(page = drawing.number, error = %err, "OCR could not read a page");
            PageReading::Failed(err.to_string())
        }
    }
}

fn reading_of(words: &[tsv::PixelWord], transform: &PageTransform) -> PageReading {
    let text = clean_page_text(&tsv::layout_text(words));
    if !has_text_layer(&text) {
        return PageReading::Nothing;
    }
    let words = words
        .iter()
        .map(|word| WordBox {
            text: word.text.clone(),
            rect: transform.rect(word.left, word.top, word.width, word.height),
            confidence: word.confidence,
        })
        .collect();
    PageReading::Read { text, words }
}

/// Which of `numbers` (1-based) have anything on them: without OCR, a document's scans
/// among its pages without text.
pub(crate) fn pages_that_draw(
    pdfium: &Path,
    path: &Path,
    numbers: &[u32],
) -> Result<Vec<u32>, PdfError> {
    with_document(pdfium, path, |document, _| {
        let pages = document.pages();
        Ok(numbers
            .iter()
            .copied()
            .filter(|number| {
                i32::try_from(number.saturating_sub(1))
                    .ok()
                    .and_then(|index| pages.get(index).ok())
                    .is_some_and(|page| draws_anything(&page))
            })
            .collect())
    })
}
