//! Section starts from a PDF's outline (its bookmarks): every bookmark that points at a
//! page of the document, with its depth.

use pdfium_render::prelude::{PdfAction, PdfBookmark, PdfDocument};

use super::{clean_title, SectionStart};

/// Outlines can hold a bookmark per note or figure; the tree uses the first levels.
const MAX_DEPTH: u8 = 3;
/// Enough for a book's chapters and sections; beyond it the rest is ignored.
const MAX_ENTRIES: usize = 2_000;

/// The outline's entries in document order, each with the page (from 1) it opens.
/// Bookmarks that point nowhere in the document (a web link, a broken target) are
/// skipped, their children still read.
pub fn read(document: &PdfDocument<'_>) -> Vec<SectionStart> {
    let mut starts = Vec::new();
    if let Some(first) = document.bookmarks().root() {
        walk(first, 1, &mut starts);
    }
    starts
}

fn walk(first: PdfBookmark<'_>, depth: u8, starts: &mut Vec<SectionStart>) {
    // `iter_siblings` leaves out the bookmark it starts from: walk the chain itself.
    let mut next = Some(first);
    while let Some(bookmark) = next.take() {
        if starts.len() >= MAX_ENTRIES {
            return;
        }
        next = bookmark.next_sibling();
        if let (Some(page), Some(title)) = (
            target_page(&bookmark),
            bookmark.title().as_deref().and_then(clean_title),
        ) {
            starts.push(SectionStart { page, depth, title });
        }
        if depth < MAX_DEPTH {
            if let Some(child) = bookmark.first_child() {
                walk(child, depth + 1, starts);
            }
        }
    }
}

/// The page (from 1) a bookmark opens, by its destination or its go-to action.
fn target_page(bookmark: &PdfBookmark<'_>) -> Option<u32> {
    let index = match bookmark.destination() {
        Some(destination) => destination.page_index().ok(),
        None => match bookmark.action()? {
            PdfAction::LocalDestination(action) => action.destination().ok()?.page_index().ok(),
            _ => None,
        },
    }?;
    u32::try_from(index).ok().map(|index| index + 1)
}
