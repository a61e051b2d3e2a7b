//! Scanned PDFs: pages without a text layer are read by OCR (Tesseract), in English,
//! Russian and Spanish, page by page in a mixed document; their words keep boxes that
//! lie where the fixture drew them. Without Tesseract, or with OCR off, text PDFs
//! ingest as before and the scans are reported as needing OCR.
//!
//! The fixtures and what was drawn where (tests/fixtures/scanned.json) come from
//! scripts/make-fixtures.py.

mod common;

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

use common::{added, fixture, ingest_fixture, open_library, page_text, temp_library, text};
use pagetree::catalog::DocumentRecord;
use pagetree::ocr::{PageRect, WordBox, INSTALL_HINT};
use pagetree::search::{SearchSettings, Strategy};
use pagetree::settings::LibrarySettings;
use pagetree::Library;
use serde::Deserialize;

/// What the fixture script drew on a scanned page.
#[derive(Debug, Deserialize)]
struct DrawnPage {
    page: u32,
    term: String,
    phrase: String,
    /// Every word drawn, in reading order.
    words: Vec<String>,
    /// The phrase's words' boxes, in PDF points: left, bottom, right, top.
    phrase_boxes: Vec<[f32; 4]>,
}

fn drawn() -> HashMap<String, Vec<DrawnPage>> {
    let json = std::fs::read_to_string(fixture("scanned.json")).expect("scanned.json");
    serde_json::from_str(&json).expect("scanned.json parses")
}

const SCANNED: [(&str, u32); 4] = [
    ("scanned-english.pdf", 2),
    ("scanned-russian.pdf", 2),
    ("scanned-spanish.pdf", 2),
    ("mixed.pdf", 1),
];

/// A word as the fixture script compares words: lower case, without the punctuation
/// around it.
fn normal(word: &str) -> String {
    word.trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(normal)
        .filter(|word| !word.is_empty())
        .collect()
}

/// Longest common subsequence of two word lists: the words OCR got right, in order.
fn common_words(truth: &[String], read: &[String]) -> usize {
    let mut row = vec![0usize; read.len() + 1];
    for word in truth {
        let mut diagonal = 0;
        for (j, other) in read.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if word == other {
                diagonal + 1
            } else {
                row[j + 1].max(row[j])
            };
            diagonal = above;
        }
    }
    row[read.len()]
}

/// How many of the phrase's words the page's text holds.
fn phrase_words_found(phrase: &str, page: &str) -> (usize, usize) {
    let page = words(page);
    let phrase = words(phrase);
    let found = phrase.iter().filter(|word| page.contains(word)).count();
    (found, phrase.len())
}

/// Whether OCR's box lies over the box the fixture drew the word in: its middle inside
/// it, and most of it within it.
fn lies_over(read: &PageRect, drawn: &[f32; 4]) -> bool {
    let [left, bottom, right, top] = *drawn;
    let (x, y) = (
        (read.left + read.right) / 2.0,
        (read.bottom + read.top) / 2.0,
    );
    let middle_inside = (left..=right).contains(&x) && (bottom..=top).contains(&y);
    let overlap_w = read.right.min(right) - read.left.max(left);
    let overlap_h = read.top.min(top) - read.bottom.max(bottom);
    let area = (read.right - read.left) * (read.top - read.bottom);
    middle_inside && area > 0.0 && overlap_w.max(0.0) * overlap_h.max(0.0) >= 0.8 * area
}

/// The phrase's words whose OCR box lies over where they were drawn.
fn boxed_phrase_words(drawn: &DrawnPage, boxes: &[WordBox]) -> usize {
    words(&drawn.phrase)
        .iter()
        .zip(&drawn.phrase_boxes)
        .filter(|(word, place)| {
            boxes
                .iter()
                .any(|found| &normal(&found.text) == *word && lies_over(&found.rect, place))
        })
        .count()
}

async fn document(library: &Library, file: &str) -> DocumentRecord {
    let name = file.trim_end_matches(".pdf");
    library.catalog().resolve(name).await.expect("ingested")
}

#[tokio::test]
async fn scanned_pages_are_read_found_and_boxed_in_three_languages() {
    let (_dir, library) = temp_library().await;
    let drawn = drawn();
    let mut accuracy = Vec::new();
    for (file, scanned) in SCANNED {
        let (record, warnings, seconds) = added(ingest_fixture(&library, file).await);
        assert_eq!(
            record.pages_read_by_ocr,
            Some(scanned),
            "{file}: {warnings:?}"
        );
        assert_eq!(record.pages_needing_ocr, Some(0), "{file}");
        assert_eq!(record.pages_without_text, Some(0), "{file}");
        // (A Russian or Spanish document warns that MiniLM reads English only.)
        assert!(
            !warnings
                .iter()
                .any(|w| w.contains("OCR") || w.contains("text layer")),
            "{file}: {warnings:?}"
        );
        assert_eq!(seconds.ocr_pages, scanned, "{file}");
        assert!(seconds.ocr > 0.0, "{file}: OCR was timed");

        for page in &drawn[file] {
            let stored = page_text(&library, &record.name, page.page).await;
            let (found, of) = phrase_words_found(&page.phrase, &stored);
            assert!(
                found * 4 >= of * 3,
                "{file} p.{}: {found} of {of} words of {:?} in {stored:?}",
                page.page,
                page.phrase
            );
            assert!(
                words(&stored).contains(&normal(&page.term)),
                "{file} p.{}: {:?} in {stored:?}",
                page.page,
                page.term
            );
            let truth: Vec<String> = page.words.iter().map(|w| normal(w)).collect();
            let truth: Vec<String> = truth.into_iter().filter(|w| !w.is_empty()).collect();
            let right = common_words(&truth, &words(&stored));
            accuracy.push((file, page.page, right, truth.len()));

            let boxes = library
                .page_word_boxes(record.id, page.page)
                .await
                .expect("word boxes");
            assert!(
                boxes.len() * 10 >= truth.len() * 9,
                "{file} p.{}",
                page.page
            );
            let boxed = boxed_phrase_words(page, &boxes);
            let of = page.phrase_boxes.len();
            assert!(
                boxed * 4 >= of * 3,
                "{file} p.{}: {boxed} of {of} phrase words lie where they were drawn",
                page.page
            );
        }
    }
    let (right, total) = accuracy
        .iter()
        .fold((0, 0), |(r, t), (_, _, right, of)| (r + right, t + of));
    for (file, page, right, of) in &accuracy {
        println!(
            "word accuracy {file} p.{page}: {right}/{of} = {:.3}",
            *right as f64 / *of as f64
        );
    }
    println!(
        "word accuracy, all scanned fixture pages: {right}/{total} = {:.3}",
        right as f64 / total as f64
    );
    assert!(right * 100 >= total * 90, "{accuracy:?}");

    // A question about a phrase that only the image holds finds its page.
    for (file, _) in SCANNED {
        for page in &drawn[file] {
            let result = library
                .search(
                    &page.phrase,
                    &Strategy::Flat { k: 1 },
                    &SearchSettings::default(),
                )
                .await
                .expect("searches");
            let first = result.context.pages.first().expect("a page");
            assert_eq!(
                (first.file_name.as_str(), first.page),
                (file, page.page),
                "{:?}",
                page.phrase
            );
            // Its answer quotes the phrase's sentence, boxed where the scan shows it.
            let answer = library
                .extractive_answer(&page.phrase, &result)
                .await
                .expect("answers");
            let quote = answer
                .passages
                .first()
                .unwrap_or_else(|| panic!("{file} p.{}: {}", page.page, answer.checked.text));
            let (found, of) = phrase_words_found(&page.phrase, &quote.quote);
            assert!(
                found * 4 >= of * 3,
                "{file} p.{}: {:?} quotes {found} of {of} words of {:?}",
                page.page,
                quote.quote,
                page.phrase
            );
            let boxes = quote.boxes.as_ref().expect("a scan's quote is boxed");
            let boxed = page
                .phrase_boxes
                .iter()
                .filter(|[left, bottom, right, top]| {
                    let (x, y) = (
                        (left + right) / 2.0,
                        boxes.page_height - (bottom + top) / 2.0,
                    );
                    boxes.rects.iter().any(|r| {
                        (r.x - 2.0..=r.right() + 2.0).contains(&x)
                            && (r.y - 2.0..=r.bottom() + 2.0).contains(&y)
                    })
                })
                .count();
            assert!(
                boxed * 4 >= page.phrase_boxes.len() * 3,
                "{file} p.{}: {boxed} of {} phrase words inside {:?}",
                page.page,
                page.phrase_boxes.len(),
                boxes.rects
            );
        }
    }

    // In the mixed document only the scan was read by OCR: the text pages keep their
    // own text and have no OCR words.
    let mixed = document(&library, "mixed.pdf").await;
    assert!(page_text(&library, "mixed", 1).await.contains("windmill"));
    assert!(page_text(&library, "mixed", 3).await.contains("sundial"));
    for page in [1, 3] {
        let boxes = library
            .page_word_boxes(mixed.id, page)
            .await
            .expect("word boxes");
        assert!(boxes.is_empty(), "p.{page} is no scan");
    }
}

#[tokio::test]
async fn with_ocr_off_the_scans_are_left_unread_and_named() {
    let (_dir, mut library) = temp_library().await;
    let settings = LibrarySettings {
        ocr: false,
        ..library.settings().clone()
    };
    library.update_settings(settings).await.expect("settings");
    let (record, warnings, seconds) = added(ingest_fixture(&library, "mixed.pdf").await);
    assert_eq!(record.pages_read_by_ocr, Some(0));
    assert_eq!(record.pages_needing_ocr, Some(1));
    assert_eq!(seconds.ocr_pages, 0);
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("OCR is off") && w.ends_with(": 2")),
        "{warnings:?}"
    );
    // The stray page number is all page 2 has.
    assert_eq!(page_text(&library, "mixed", 2).await, "- 2 -");
    assert!(page_text(&library, "mixed", 1).await.contains("windmill"));
    assert!(library
        .page_word_boxes(record.id, 2)
        .await
        .expect("boxes")
        .is_empty());
}

/// `pagetree` with Tesseract named as a program that does not exist.
fn cli_without_tesseract(library: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pagetree"))
        .arg("--library")
        .arg(library)
        .args(args)
        .env_remove("PAGETREE_LLM_URL")
        .env(pagetree::ocr::PROGRAM_VARIABLE, "/nonexistent/tesseract")
        .output()
        .expect("the pagetree binary runs")
}

#[tokio::test]
async fn without_tesseract_text_pdfs_ingest_unchanged_and_scans_need_ocr() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("library");
    let files = ["multipage.pdf", "scanned-english.pdf", "mixed.pdf"];
    let paths: Vec<String> = files
        .iter()
        .map(|file| fixture(file).display().to_string())
        .collect();
    let mut args = vec!["ingest"];
    args.extend(paths.iter().map(String::as_str));
    let ingested = cli_without_tesseract(&root, &args);
    let said = text(&ingested.stderr);
    assert!(ingested.status.success(), "{said}");
    // How to install Tesseract is said once, not once a scanned document.
    assert_eq!(said.matches(INSTALL_HINT).count(), 1, "{said}");
    assert!(said.contains("need OCR"), "{said}");

    let listed = cli_without_tesseract(&root, &["docs", "--json"]);
    let rows: serde_json::Value = serde_json::from_slice(&listed.stdout).expect("json");
    let needing: HashMap<String, (u64, u64)> = rows
        .as_array()
        .expect("a list")
        .iter()
        .map(|row| {
            (
                row["file_name"].as_str().expect("name").to_string(),
                (
                    row["pages_needing_ocr"].as_u64().expect("count"),
                    row["pages_read_by_ocr"].as_u64().expect("count"),
                ),
            )
        })
        .collect();
    assert_eq!(needing["multipage.pdf"], (0, 0));
    assert_eq!(needing["scanned-english.pdf"], (2, 0));
    assert_eq!(needing["mixed.pdf"], (1, 0));
    let table = text(&cli_without_tesseract(&root, &["docs"]).stdout);
    assert!(table.contains("2 scanned page(s) need OCR"), "{table}");

    // The text PDF reads exactly as it does in a library with OCR.
    let library = open_library(&root).await;
    let (_other_dir, with_ocr) = temp_library().await;
    ingest_fixture(&with_ocr, "multipage.pdf").await;
    for page in 1..=6 {
        assert_eq!(
            page_text(&library, "multipage", page).await,
            page_text(&with_ocr, "multipage", page).await,
            "page {page}"
        );
    }
    let multipage = document(&library, "multipage.pdf").await;
    assert_eq!(multipage.warnings, None);
    assert!(page_text(&library, "mixed", 1).await.contains("windmill"));
}

/// A stand-in for Tesseract: a shell script that lists the three models and then reads
/// every page as `page` says (`fail`: an error; `nothing`: a TSV with no words).
fn fake_tesseract(dir: &Path, page: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join(format!("tesseract-{page}"));
    let reading = match page {
        "fail" => "cat >/dev/null; echo 'Error in pixReadMem: Unknown format' >&2; exit 1",
        _ => "cat >/dev/null; printf 'level\\tpage_num\\tblock_num\\tpar_num\\tline_num\\tword_num\\tleft\\ttop\\twidth\\theight\\tconf\\ttext\\n'",
    };
    let body = format!(
        "#!/bin/sh\nif [ \"$1\" = --list-langs ]; then printf 'List of available languages (3):\\neng\\nrus\\nspa\\n'; exit 0; fi\n{reading}\n"
    );
    std::fs::write(&script, body).expect("script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("mode");
    script
}

#[test]
fn a_page_ocr_cannot_read_or_finds_nothing_on_is_named_and_the_document_added() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (page, said) in [
        ("fail", "OCR could not read 1 page(s) without a text layer"),
        (
            "nothing",
            "OCR found no words on 1 page(s) without a text layer: 2",
        ),
    ] {
        let root = dir.path().join(format!("library-{page}"));
        let ingested = Command::new(env!("CARGO_BIN_EXE_pagetree"))
            .arg("--library")
            .arg(&root)
            .args(["ingest", "--model", "minilm"])
            .arg(fixture("mixed.pdf"))
            .env_remove("PAGETREE_LLM_URL")
            .env(
                pagetree::ocr::PROGRAM_VARIABLE,
                fake_tesseract(dir.path(), page),
            )
            .output()
            .expect("the pagetree binary runs");
        let stderr = text(&ingested.stderr);
        assert!(ingested.status.success(), "{stderr}");
        assert!(stderr.contains("added mixed (3 pages"), "{stderr}");
        assert!(stderr.contains(said), "{stderr}");
        if page == "fail" {
            assert!(stderr.contains("Unknown format"), "{stderr}");
        }
    }
}

/// A stand-in that writes the language models of each page it is asked to read to
/// `log`, then runs the real Tesseract.
fn logging_tesseract(dir: &Path, log: &Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let script = dir.join("tesseract-logging");
    let body = format!(
        "#!/bin/sh\nif [ \"$1\" != --list-langs ]; then echo \"$4\" >> '{}'; fi\nexec tesseract \"$@\"\n",
        log.display()
    );
    std::fs::write(&script, body).expect("script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("mode");
    script
}

#[test]
fn a_deck_whose_title_scan_cannot_tell_its_language_is_read_in_the_language_its_next_scans_tell() {
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("languages.log");
    let ingested = Command::new(env!("CARGO_BIN_EXE_pagetree"))
        .arg("--library")
        .arg(dir.path().join("library"))
        .args(["ingest", "--model", "minilm"])
        .arg(fixture("scanned-deck.pdf"))
        .env_remove("PAGETREE_LLM_URL")
        .env(
            pagetree::ocr::PROGRAM_VARIABLE,
            logging_tesseract(dir.path(), &log),
        )
        .output()
        .expect("the pagetree binary runs");
    let stderr = text(&ingested.stderr);
    assert!(ingested.status.success(), "{stderr}");
    assert!(stderr.contains("added scanned-deck (4 pages"), "{stderr}");
    let logged = std::fs::read_to_string(&log).expect("Tesseract was run");
    let reads: Vec<&str> = logged.lines().collect();
    assert_eq!(reads.len(), 4, "each page read once: {reads:?}");
    let with_every_model = reads.iter().filter(|l| l.contains('+')).count();
    // The title page, and the page read beside it, with every model; the rest in
    // English alone, as the second page told.
    assert!((1..=2).contains(&with_every_model), "{reads:?}");
    assert_eq!(
        reads.iter().filter(|l| **l == "eng").count(),
        4 - with_every_model,
        "{reads:?}"
    );
}
