//! A scanned page's layout from the words OCR read on it, so that its passages are read
//! across columns and boxed on the page as a text page's are.

use super::layout::{BoxRect, Glyph, PageLayout};
use crate::ocr::WordBox;

/// OCR's words below this confidence (0–100) are left out: on charts, logos and photos
/// Tesseract reads shapes as words ("wees", "ae", "mone").
const MIN_CONFIDENCE: f32 = 30.0;

/// Gives `layout` (a scan's: its size and label, no characters) the characters of
/// `words`, in OCR's reading order. A word's box is shared evenly by its characters,
/// and every word of a line takes the line's top and bottom, so that a line reads as
/// one line whatever its letters' heights.
pub fn add_ocr_words(layout: &mut PageLayout, words: &[WordBox]) {
    let boxes: Vec<(&str, BoxRect)> = words
        .iter()
        .filter(|word| word.confidence >= MIN_CONFIDENCE && !word.text.trim().is_empty())
        .map(|word| {
            let rect = BoxRect {
                x: word.rect.left,
                y: layout.height - word.rect.top,
                width: (word.rect.right - word.rect.left).max(0.0),
                height: (word.rect.top - word.rect.bottom).max(0.0),
            };
            (word.text.trim(), rect)
        })
        .collect();
    let mut glyphs = Vec::new();
    for line in lines(&boxes) {
        let top = line.iter().map(|(_, r)| r.y).fold(f32::MAX, f32::min);
        let bottom = line
            .iter()
            .map(|(_, r)| r.bottom())
            .fold(f32::MIN, f32::max);
        for (at, (text, rect)) in line.iter().enumerate() {
            if at > 0 {
                glyphs.push(Glyph {
                    ch: ' ',
                    rect: None,
                });
            }
            let count = text.chars().count().max(1) as f32;
            let width = rect.width / count;
            for (i, ch) in text.chars().enumerate() {
                glyphs.push(Glyph {
                    ch,
                    rect: Some(BoxRect {
                        x: rect.x + width * i as f32,
                        y: top,
                        width,
                        height: bottom - top,
                    }),
                });
            }
        }
        glyphs.push(Glyph {
            ch: '\n',
            rect: None,
        });
    }
    layout.glyphs = glyphs;
}

/// Words in reading order split into lines: a word starts a new line when it goes back
/// to the left or its middle is outside the line's height.
fn lines<'a>(words: &[(&'a str, BoxRect)]) -> Vec<Vec<(&'a str, BoxRect)>> {
    let mut lines: Vec<Vec<(&str, BoxRect)>> = Vec::new();
    for &(text, rect) in words {
        let continues = lines
            .last()
            .and_then(|line| line.last())
            .is_some_and(|(_, last)| {
                let middle = rect.center_y();
                rect.x >= last.x && middle >= last.y && middle <= last.bottom()
            });
        match lines.last_mut() {
            Some(line) if continues => line.push((text, rect)),
            _ => lines.push(vec![(text, rect)]),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ocr::PageRect;

    fn word(text: &str, left: f32, bottom: f32, top: f32, confidence: f32) -> WordBox {
        WordBox {
            text: text.to_string(),
            rect: PageRect {
                left,
                bottom,
                right: left + 8.0 * text.chars().count() as f32,
                top,
            },
            confidence,
        }
    }

    fn scan() -> PageLayout {
        PageLayout {
            page: 3,
            label: None,
            width: 612.0,
            height: 792.0,
            glyphs: Vec::new(),
        }
    }

    #[test]
    fn words_become_lines_of_boxed_characters_and_unsure_words_are_left_out() {
        let words = [
            word("A", 72.0, 700.0, 712.0, 96.0),
            word("glacier", 84.0, 697.0, 714.0, 95.0),
            word("wees", 300.0, 699.0, 711.0, 12.0),
            word("carves", 150.0, 680.0, 692.0, 91.0),
        ];
        let mut layout = scan();
        add_ocr_words(&mut layout, &words);
        let text: String = layout.glyphs.iter().map(|g| g.ch).collect();
        assert_eq!(text, "A glacier\ncarves\n");
        // The line's characters share its top and bottom, in the image's orientation.
        let first = layout.glyphs[0].rect.expect("boxed");
        let g = layout.glyphs[2].rect.expect("boxed");
        assert_eq!((first.y, first.bottom()), (792.0 - 714.0, 792.0 - 697.0));
        assert_eq!((g.y, g.height), (first.y, first.height));
        // "glacier" is 56 pt wide from x 84: seven characters of 8 pt.
        assert_eq!((g.x, g.width), (84.0, 8.0));
        assert!(layout.has_text());
    }
}
