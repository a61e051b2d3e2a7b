//! Where a page's characters are: pdfium's character boxes, read when an answer is
//! made (not at ingestion), so that a quote can be boxed on the page and a table row
//! can be read across its columns.

use std::path::Path;

use pdfium_render::prelude::{PdfPage, PdfRect};
use serde::{Deserialize, Serialize};

use crate::pdf::{with_document, PdfError};

/// A rectangle on a page in PDF points, measured from the page's top-left corner with
/// y growing downwards, as on the page's image.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BoxRect {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
}

impl BoxRect {
    pub fn right(&self) -> f32 {
        self.x + self.width
    }

    pub fn bottom(&self) -> f32 {
        self.y + self.height
    }

    pub fn center_y(&self) -> f32 {
        self.y + self.height / 2.0
    }

    pub fn center_x(&self) -> f32 {
        self.x + self.width / 2.0
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, other: &BoxRect) -> BoxRect {
        let x = self.x.min(other.x);
        let y = self.y.min(other.y);
        BoxRect {
            x,
            y,
            width: self.right().max(other.right()) - x,
            height: self.bottom().max(other.bottom()) - y,
        }
    }
}

/// Where a passage is on its page: rectangles in points (see [`BoxRect`]) and the
/// page's size in points, so that a viewer can scale them to any image of the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PassageBoxes {
    pub page_width: f32,
    pub page_height: f32,
    pub rects: Vec<BoxRect>,
}

/// One character of a page in reading order; `rect` is None for the spaces and line
/// breaks pdfium adds itself, which have no place on the page.
#[derive(Debug, Clone, PartialEq)]
pub struct Glyph {
    pub ch: char,
    pub rect: Option<BoxRect>,
}

/// A page's characters and size.
#[derive(Debug, Clone, PartialEq)]
pub struct PageLayout {
    /// 1-based.
    pub page: u32,
    /// The page's label (its printed number), where the PDF gives one.
    pub label: Option<String>,
    pub width: f32,
    pub height: f32,
    pub glyphs: Vec<Glyph>,
}

impl PageLayout {
    /// True when the page has characters with boxes (not a scan).
    pub fn has_text(&self) -> bool {
        self.glyphs.iter().any(|g| g.rect.is_some())
    }

    /// The boxes of glyphs `indices`, one rectangle per run of neighbouring glyphs on
    /// one line.
    pub fn boxes(&self, indices: impl IntoIterator<Item = usize>) -> PassageBoxes {
        let mut rects: Vec<BoxRect> = Vec::new();
        let mut previous: Option<usize> = None;
        for index in indices {
            let Some(rect) = self.glyphs.get(index).and_then(|g| g.rect) else {
                continue;
            };
            let joins = match (rects.last(), previous) {
                (Some(last), Some(before)) => {
                    let same_line = (last.center_y() - rect.center_y()).abs()
                        < 0.5 * last.height.min(rect.height).max(1.0);
                    let near = rect.x - last.right() < 2.0 * rect.height.max(1.0)
                        && rect.x >= last.x - 1.0;
                    index <= before + 2 && same_line && near
                }
                _ => false,
            };
            if joins {
                if let Some(last) = rects.last_mut() {
                    *last = last.union(&rect);
                }
            } else {
                rects.push(rect);
            }
            previous = Some(index);
        }
        PassageBoxes {
            page_width: self.width,
            page_height: self.height,
            rects,
        }
    }
}

/// Reads the layouts of `pages` (1-based) of the PDF at `path`; a page number past the
/// end is left out.
pub fn read_layouts(
    pdfium_library: &Path,
    path: &Path,
    pages: &[u32],
) -> Result<Vec<PageLayout>, PdfError> {
    with_document(pdfium_library, path, |document, _| {
        let all = document.pages();
        let mut layouts = Vec::with_capacity(pages.len());
        for &number in pages {
            let Some(index) = number.checked_sub(1).and_then(|i| i32::try_from(i).ok()) else {
                continue;
            };
            let Ok(page) = all.get(index) else {
                continue;
            };
            layouts.push(page_layout(&page, number));
        }
        Ok::<_, PdfError>(layouts)
    })
}

/// The labels of every page (None where the PDF gives none), in page order.
pub fn read_labels(pdfium_library: &Path, path: &Path) -> Result<Vec<Option<String>>, PdfError> {
    with_document(pdfium_library, path, |document, _| {
        Ok::<_, PdfError>(
            document
                .pages()
                .iter()
                .map(|page| page.label().map(str::to_string))
                .collect(),
        )
    })
}

/// The text pdfium finds inside each of `rects` on page `page` (1-based), one string a
/// rectangle: what a box on the page shows, read back.
pub fn text_in_rects(
    pdfium_library: &Path,
    path: &Path,
    page: u32,
    rects: &[BoxRect],
) -> Result<Vec<String>, PdfError> {
    with_document(pdfium_library, path, |document, file| {
        let index = page
            .checked_sub(1)
            .and_then(|i| i32::try_from(i).ok())
            .unwrap_or(i32::MAX);
        let corrupt = |detail: String| PdfError::Corrupt {
            file: file.to_string(),
            detail,
        };
        let page = document
            .pages()
            .get(index)
            .map_err(|err| corrupt(format!("page {page}: {err}")))?;
        let height = page.height().value;
        let text = page
            .text()
            .map_err(|err| corrupt(format!("page text: {err}")))?;
        Ok::<_, PdfError>(
            rects
                .iter()
                .map(|r| {
                    text.inside_rect(PdfRect::new_from_values(
                        height - r.bottom(),
                        r.x,
                        height - r.y,
                        r.right(),
                    ))
                })
                .collect(),
        )
    })
}

fn page_layout(page: &PdfPage<'_>, number: u32) -> PageLayout {
    let height = page.height().value;
    let to_box = |rect: PdfRect| BoxRect {
        x: rect.left().value,
        y: height - rect.top().value,
        width: (rect.right().value - rect.left().value).max(0.0),
        height: (rect.top().value - rect.bottom().value).max(0.0),
    };
    let mut glyphs = Vec::new();
    if let Ok(text) = page.text() {
        for glyph in text.chars().iter() {
            let Some(ch) = glyph.unicode_char() else {
                continue;
            };
            // A soft hyphen at a line's end means the word goes on on the next line.
            let ch = if matches!(ch, '\u{2}' | '\u{fffe}') {
                '\u{ad}'
            } else {
                ch
            };
            if ch == '\r' || (ch.is_control() && ch != '\n') {
                continue;
            }
            let generated = glyph.is_generated().unwrap_or(false);
            let rect = if generated || ch.is_whitespace() {
                None
            } else {
                glyph
                    .loose_bounds()
                    .ok()
                    .map(to_box)
                    .filter(|r| r.width > 0.0 || r.height > 0.0)
            };
            glyphs.push(Glyph { ch, rect });
        }
    }
    PageLayout {
        page: number,
        label: page.label().map(str::to_string),
        width: page.width().value,
        height,
        glyphs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glyph(ch: char, x: f32, y: f32) -> Glyph {
        Glyph {
            ch,
            rect: Some(BoxRect {
                x,
                y,
                width: 5.0,
                height: 10.0,
            }),
        }
    }

    #[test]
    fn boxes_join_neighbours_on_a_line_and_split_lines() {
        let layout = PageLayout {
            page: 1,
            label: None,
            width: 600.0,
            height: 800.0,
            glyphs: vec![
                glyph('a', 10.0, 100.0),
                glyph('b', 15.0, 100.0),
                Glyph {
                    ch: '\n',
                    rect: None,
                },
                glyph('c', 10.0, 112.0),
                glyph('d', 300.0, 112.0),
            ],
        };
        let boxes = layout.boxes(0..5);
        assert_eq!(boxes.rects.len(), 3, "{:?}", boxes.rects);
        assert_eq!(boxes.rects[0].width, 10.0);
        assert_eq!(boxes.page_height, 800.0);
    }
}
