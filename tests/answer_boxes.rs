//! The boxes of an extractive answer's quotes, read back from the page through pdfium,
//! say what the quote says: for every FinanceBench dev question, over its gold pages.

mod common;

use std::path::{Path, PathBuf};

use pagetree::assets::Assets;
use pagetree::chat::extractive::{answer, shortlist, PageCandidates, RankedPage};
use pagetree::chat::layout::{read_layouts, text_in_rects, BoxRect};
use pagetree::embed::SparseEmbedder;

/// Letters and digits only: line breaks, hyphens at a line's end and spacing aside.
fn bare(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).collect()
}

fn questions() -> Vec<(String, String, Vec<u32>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/bench/financebench-dev/questions.jsonl");
    let text = std::fs::read_to_string(&path).expect("the benchmark's questions");
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).expect("json");
            let pages = value["evidence"]
                .as_array()
                .expect("evidence")
                .iter()
                .filter_map(|e| e["page_index"].as_u64())
                .map(|index| index as u32 + 1)
                .collect();
            (
                value["question"].as_str().expect("question").to_string(),
                value["doc_name"].as_str().expect("doc").to_string(),
                pages,
            )
        })
        .collect()
}

#[test]
fn every_quote_reads_back_from_its_boxes() {
    let assets = Assets::locate(None, None).expect("assets (scripts/setup.sh)");
    let sparse = SparseEmbedder::new("english").expect("bm25");
    let mut quotes = 0;
    let mut rows = 0;
    for (question, document, pages) in questions() {
        let path: PathBuf = common::filing(&format!("{document}.pdf"));
        let layouts = read_layouts(&assets.pdfium_library, &path, &pages).expect("layouts");
        let built: Vec<PageCandidates> = layouts
            .into_iter()
            .map(|layout| {
                let page = layout.page;
                PageCandidates::build(1, &document, page, Some(layout), None, &sparse)
                    .expect("candidates")
            })
            .collect();
        let ranked: Vec<RankedPage<'_>> = built
            .iter()
            .map(|page| RankedPage { page, rank: 1.0 })
            .collect();
        let answered = answer(&shortlist(&question, &sparse, &ranked), &|_| None);
        if std::env::var_os("SHOW_ANSWERS").is_some() {
            eprintln!("Q: {question}\n{}", answered.checked.text);
        }
        for passage in &answered.passages {
            let Some(boxes) = &passage.boxes else {
                continue;
            };
            // Each box's middle band: a loose box reaches into the descenders of the
            // line above, which are not part of the quote.
            let bands: Vec<BoxRect> = boxes
                .rects
                .iter()
                .map(|r| BoxRect {
                    y: r.y + 0.3 * r.height,
                    height: 0.4 * r.height,
                    ..*r
                })
                .collect();
            let read = text_in_rects(&assets.pdfium_library, &path, passage.page, &bands)
                .expect("read back")
                .join(" ");
            quotes += 1;
            if passage.kind == "sentence" {
                let quote = passage.quote.trim_end_matches(" …");
                assert_eq!(
                    bare(&read),
                    bare(quote),
                    "{document} p.{}: boxes read {read:?} for the quote {quote:?}",
                    passage.page
                );
            } else {
                rows += 1;
                // A row is quoted as "label — header: value; …", a group of columns as
                // "group (header: value; …)": every part is boxed.
                let (label, values) = passage.quote.rsplit_once(" — ").expect("a row");
                let read = bare(&read);
                assert!(read.contains(&bare(label)), "{read} lacks {label}");
                let parts = values.replace(" (", ": ").replace(')', "");
                for part in parts.split("; ").flat_map(|cell| cell.split(": ")) {
                    assert!(
                        read.contains(&bare(part)),
                        "{document} p.{}: {read} lacks {part} of {}",
                        passage.page,
                        passage.quote
                    );
                }
            }
        }
    }
    assert!(quotes >= 60, "only {quotes} quotes were boxed");
    assert!(rows >= 10, "only {rows} table rows were quoted");
}
