//! Ingestion's OCR stage: the pages without a usable text layer that draw something are
//! read by Tesseract, page by page, and the rest of the document is left as pdfium read
//! it. OCR off, or Tesseract missing, leaves them unread and says so.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::{abbreviate, read_outcome, IngestFailure, Progress, Stage};
use crate::error::{Error, Result};
use crate::library::Library;
use crate::ocr::read::{read_pages, PageReading, ReadRequest};
use crate::ocr::{self, languages, PageOcr, Tesseract, WordBox};
use crate::pdf::PageText;
use crate::text_clean::has_text_layer;

/// Scans read at once with every candidate model while the language is not known: a
/// few, since each model added slows a read and the next batch may be read with one.
const TELLING_BATCH: usize = 2;

/// What the OCR stage did to a document's pages.
#[derive(Debug, Default)]
pub(super) struct OcrStage {
    /// The words of each page OCR read, for the catalog.
    pub words: Vec<(u32, Vec<WordBox>)>,
    /// Pages given to Tesseract, and the seconds the stage took.
    pub pages: u32,
    pub seconds: f64,
    pub warnings: Vec<String>,
}

impl Library {
    /// Reads the scanned pages of `pages` (the document at `path`) by OCR, in place.
    pub(super) async fn read_scans(
        &self,
        file: &str,
        path: &Path,
        pages: &mut [PageText],
        progress: &dyn Progress,
    ) -> Result<OcrStage> {
        let started = Instant::now();
        let candidates: Vec<u32> = pages
            .iter()
            .filter(|page| ocr::may_be_scan(&page.text))
            .map(|page| page.number)
            .collect();
        if candidates.is_empty() {
            return Ok(OcrStage::default());
        }
        let pdfium = self.assets()?.pdfium_library.clone();
        let scans = pages_that_draw(&pdfium, path, candidates).await?;
        if scans.is_empty() {
            return Ok(OcrStage::default());
        }
        let tesseract = if self.settings().ocr {
            probe()
                .await
                .map_err(|err| Unread::NoTesseract(err.to_string()))
        } else {
            Err(Unread::Off)
        };
        let tesseract = match tesseract {
            Ok(tesseract) => tesseract,
            Err(why) => return Ok(leave_unread(pages, &scans, &why)),
        };
        let languages = self.ocr_languages(pages, &tesseract).await?;
        let Some(languages) = languages else {
            let why = Unread::NoLanguage(tesseract.languages().join(", "));
            return Ok(leave_unread(pages, &scans, &why));
        };
        tracing::info!(pages = scans.len(), %languages, "reading pages without text by OCR");
        let run = OcrRun {
            file,
            pdfium: &pdfium,
            path,
            tesseract: &tesseract,
            progress,
            total: scans.len(),
        };
        let readings = if languages.contains('+') {
            self.read_telling_language(&run, scans, languages).await?
        } else {
            run.read(scans, languages, 0).await?
        };
        let mut stage = apply_readings(pages, readings);
        stage.seconds = started.elapsed().as_secs_f64();
        Ok(stage)
    }

    /// The language models for this document: the language its text layer is in, the
    /// library's when it stems all documents alike, or several when neither is known.
    async fn ocr_languages(
        &self,
        pages: &[PageText],
        tesseract: &Tesseract,
    ) -> Result<Option<String>> {
        let settings = self.settings();
        let of_text = crate::language::detect_document(
            pages
                .iter()
                .filter(|page| !ocr::may_be_scan(&page.text))
                .map(|page| page.text.as_str()),
        );
        let of_library = (!settings.detect_language).then_some(settings.bm25_language.as_str());
        let library_languages = self.catalog().search_scope().await?.languages;
        let mut candidates: Vec<&str> = languages::DEFAULT_LANGUAGES.to_vec();
        candidates.extend(
            library_languages
                .iter()
                .filter_map(|language| languages::tesseract_code(language)),
        );
        Ok(languages::choose(
            &[of_text, of_library],
            &candidates,
            tesseract.languages(),
        ))
    }

    /// Reads a document whose language is not known: its first scans with every
    /// candidate model, [`TELLING_BATCH`] at a time, until their text tells the language;
    /// then the rest with that model alone, which reads faster and mistakes fewer
    /// letters for another script's (`y` for Cyrillic `у`, `ñ` for `n`). A deck's
    /// first scan is often a title of a few words, too few to tell a language by.
    async fn read_telling_language(
        &self,
        run: &OcrRun<'_>,
        scans: Vec<u32>,
        languages: String,
    ) -> Result<Vec<(u32, PageReading)>> {
        let batch = ocr::workers().clamp(1, TELLING_BATCH);
        let mut readings: Vec<(u32, PageReading)> = Vec::new();
        let mut rest = scans.as_slice();
        while !rest.is_empty() {
            let (read_now, after) = rest.split_at(batch.min(rest.len()));
            rest = after;
            let done = readings.len();
            readings.extend(run.read(read_now.to_vec(), languages.clone(), done).await?);
            let Some(code) = told_language(&readings, run.tesseract) else {
                continue;
            };
            tracing::info!(
                language = code,
                scans_read = readings.len(),
                "the scans' language told by their first pages"
            );
            if !rest.is_empty() {
                let done = readings.len();
                readings.extend(run.read(rest.to_vec(), code.to_string(), done).await?);
            }
            break;
        }
        Ok(readings)
    }

    /// The words OCR read on page `page` of document `doc_id`, with their boxes in PDF
    /// points; none for a page whose text is its own text layer.
    pub async fn page_word_boxes(&self, doc_id: i64, page: u32) -> Result<Vec<WordBox>> {
        Ok(self.catalog().page_word_boxes(doc_id, page).await?)
    }
}

/// One document's OCR: where it is and whom to tell.
struct OcrRun<'a> {
    file: &'a str,
    pdfium: &'a Path,
    path: &'a Path,
    tesseract: &'a Tesseract,
    progress: &'a dyn Progress,
    /// Scans of the document, for progress.
    total: usize,
}

impl OcrRun<'_> {
    /// Reads `numbers` with `languages`, counting them in the stage's progress after
    /// `done_before` pages.
    async fn read(
        &self,
        numbers: Vec<u32>,
        languages: String,
        done_before: usize,
    ) -> Result<Vec<(u32, PageReading)>> {
        let (file, progress, total) = (self.file, self.progress, self.total);
        progress.stage(file, Stage::Ocr, done_before, total);
        let stop = Arc::new(AtomicBool::new(false));
        let (tick, mut ticks) = tokio::sync::mpsc::unbounded_channel::<()>();
        let (pdfium, path) = (self.pdfium.to_path_buf(), self.path.to_path_buf());
        let tesseract = self.tesseract.clone();
        let reading = {
            let stop = Arc::clone(&stop);
            tokio::task::spawn_blocking(move || {
                let request = ReadRequest {
                    pdfium: &pdfium,
                    path: &path,
                    pages: &numbers,
                    tesseract: &tesseract,
                    languages: &languages,
                    workers: ocr::workers(),
                };
                read_pages(&request, &stop, &|| {
                    let _ = tick.send(());
                })
            })
        };
        let mut done = done_before;
        while ticks.recv().await.is_some() {
            done += 1;
            progress.stage(file, Stage::Ocr, done.min(total), total);
            if progress.cancelled() {
                stop.store(true, Ordering::Relaxed);
            }
        }
        let readings = read_outcome(file, "the OCR", reading.await)?;
        if stop.load(Ordering::Relaxed) {
            return Err(Error::Ingest(IngestFailure::Cancelled {
                file: file.to_string(),
            }));
        }
        Ok(readings)
    }
}

/// The language of the text OCR read so far, when it is reliable and Tesseract has a
/// model for it.
fn told_language(readings: &[(u32, PageReading)], tesseract: &Tesseract) -> Option<&'static str> {
    let texts = readings.iter().filter_map(|(_, reading)| match reading {
        PageReading::Read { text, .. } => Some(text.as_str()),
        _ => None,
    });
    crate::language::detect_document(texts)
        .and_then(languages::tesseract_code)
        .filter(|code| tesseract.has_language(code))
}

/// Tesseract as `PAGETREE_TESSERACT` or the PATH names it, if it answers.
async fn probe() -> std::result::Result<Tesseract, ocr::OcrError> {
    let program = Tesseract::program();
    tokio::task::spawn_blocking(move || Tesseract::probe(&program))
        .await
        .unwrap_or_else(|err| {
            Err(ocr::OcrError::Failed {
                detail: err.to_string(),
            })
        })
}

/// Which of `numbers` draw anything: without OCR, the scans among them.
async fn pages_that_draw(pdfium: &Path, path: &Path, numbers: Vec<u32>) -> Result<Vec<u32>> {
    let (pdfium, path): (PathBuf, PathBuf) = (pdfium.to_path_buf(), path.to_path_buf());
    let read =
        tokio::task::spawn_blocking(move || ocr::read::pages_that_draw(&pdfium, &path, &numbers));
    read_outcome("", "the reader", read.await)
}

/// Why scans were left unread.
enum Unread {
    Off,
    NoTesseract(String),
    NoLanguage(String),
}

fn leave_unread(pages: &mut [PageText], scans: &[u32], why: &Unread) -> OcrStage {
    for page in pages.iter_mut() {
        if scans.contains(&page.number) {
            page.ocr = PageOcr::Needed;
        }
    }
    if scans.is_empty() {
        return OcrStage::default();
    }
    let listed = numbers(scans);
    let count = scans.len();
    let warning = match why {
        Unread::Off => format!(
            "{count} scanned page(s) were not read because OCR is off for this library: {listed}"
        ),
        Unread::NoTesseract(problem) => {
            let mut warning = format!(
                "{count} scanned page(s) need OCR and were not read, because Tesseract is not available ({problem}): {listed}"
            );
            if ocr::first_time_missing() {
                warning.push_str(&format!(
                    "; to read scanned pages, install Tesseract: {}",
                    ocr::INSTALL_HINT
                ));
            }
            warning
        }
        Unread::NoLanguage(installed) => format!(
            "{count} scanned page(s) were not read: Tesseract has no model for this document's language (it has {installed}): {listed}"
        ),
    };
    OcrStage {
        warnings: vec![warning],
        ..OcrStage::default()
    }
}

/// Puts OCR's text in place of the pages' (stray or missing) text layers.
fn apply_readings(pages: &mut [PageText], readings: Vec<(u32, PageReading)>) -> OcrStage {
    let mut stage = OcrStage::default();
    let mut nothing = Vec::new();
    let mut failed = Vec::new();
    for (number, reading) in readings {
        let Some(page) = pages.iter_mut().find(|page| page.number == number) else {
            continue;
        };
        if reading != PageReading::Blank {
            stage.pages += 1;
        }
        match reading {
            PageReading::Blank => {}
            PageReading::Read { text, words } => {
                page.ocr = PageOcr::Read;
                page.has_text = true;
                // A stray text layer is drawn on the page, so OCR reads it too.
                page.text = text;
                stage.words.push((number, words));
            }
            PageReading::Nothing => {
                page.ocr = PageOcr::FoundNothing;
                page.has_text = has_text_layer(&page.text);
                nothing.push(number);
            }
            PageReading::Failed(reason) => {
                page.ocr = PageOcr::Failed;
                failed.push((number, reason));
            }
        }
    }
    if !nothing.is_empty() {
        stage.warnings.push(format!(
            "OCR found no words on {} page(s) without a text layer: {}",
            nothing.len(),
            numbers(&nothing)
        ));
    }
    if let Some((_, reason)) = failed.first() {
        let listed: Vec<u32> = failed.iter().map(|(number, _)| *number).collect();
        stage.warnings.push(format!(
            "OCR could not read {} page(s) without a text layer ({reason}): {}",
            failed.len(),
            numbers(&listed)
        ));
    }
    stage
}

fn numbers(pages: &[u32]) -> String {
    let listed: Vec<String> = pages.iter().map(u32::to_string).collect();
    abbreviate(&listed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ocr::PageRect;

    fn page(number: u32, text: &str) -> PageText {
        PageText {
            number,
            text: text.to_string(),
            has_text: has_text_layer(text),
            ocr: PageOcr::NotNeeded,
            label: None,
        }
    }

    #[test]
    fn readings_replace_scans_and_say_what_was_not_read() {
        let mut pages = vec![
            page(1, "A page with a text layer of its own, long enough."),
            page(2, "- 2 -"),
            page(3, ""),
            page(4, ""),
            page(5, ""),
        ];
        let word = WordBox {
            text: "Origami".into(),
            rect: PageRect {
                left: 72.0,
                bottom: 700.0,
                right: 140.0,
                top: 716.0,
            },
            confidence: 96.0,
        };
        let stage = apply_readings(
            &mut pages,
            vec![
                (
                    2,
                    PageReading::Read {
                        text: "The Art of Origami".into(),
                        words: vec![word.clone()],
                    },
                ),
                (3, PageReading::Blank),
                (4, PageReading::Nothing),
                (5, PageReading::Failed("Tesseract failed (signal 9)".into())),
            ],
        );
        assert_eq!(pages[1].text, "The Art of Origami");
        assert_eq!((pages[1].ocr, pages[1].has_text), (PageOcr::Read, true));
        assert_eq!(pages[2].ocr, PageOcr::NotNeeded, "a blank page is no scan");
        assert_eq!(
            (pages[3].ocr, pages[3].has_text),
            (PageOcr::FoundNothing, false)
        );
        assert_eq!(pages[4].ocr, PageOcr::Failed);
        assert_eq!(stage.words, vec![(2, vec![word])]);
        assert_eq!(stage.pages, 3);
        assert_eq!(stage.warnings.len(), 2, "{:?}", stage.warnings);
        assert!(stage.warnings[0].contains("no words on 1 page(s) without a text layer: 4"));
        assert!(stage.warnings[1].contains("(Tesseract failed (signal 9)): 5"));
    }

    #[test]
    fn unread_scans_are_marked_and_named() {
        let mut pages = vec![page(1, ""), page(2, ""), page(3, "Text of its own here")];
        let stage = leave_unread(&mut pages, &[2], &Unread::Off);
        assert_eq!(pages[0].ocr, PageOcr::NotNeeded);
        assert_eq!(pages[1].ocr, PageOcr::Needed);
        assert_eq!(stage.warnings.len(), 1);
        assert!(
            stage.warnings[0].contains("OCR is off"),
            "{:?}",
            stage.warnings
        );
        assert!(stage.warnings[0].ends_with(": 2"), "{:?}", stage.warnings);
        assert!(leave_unread(&mut pages, &[], &Unread::Off)
            .warnings
            .is_empty());
    }
}
