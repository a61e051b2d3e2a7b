//! Tesseract's TSV output: one row per page, block, paragraph, line and word, each
//! with its box in the image's pixels.

/// A word as Tesseract read it, with its box in the image's pixels (origin top-left).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PixelWord {
    pub text: String,
    pub left: u32,
    pub top: u32,
    pub width: u32,
    pub height: u32,
    /// 0–100; how sure Tesseract is of the word.
    pub confidence: f32,
    /// Which block, paragraph and line the word is on, for laying the text out again.
    pub block: u32,
    pub paragraph: u32,
    pub line: u32,
}

/// The level of a TSV row that is one word.
const WORD_LEVEL: &str = "5";
/// level, page_num, block_num, par_num, line_num, word_num, left, top, width, height,
/// conf, text.
const COLUMNS: usize = 12;

/// The words of a TSV page, in reading order; rows that are not words, or that do not
/// parse, are skipped (a word with a tab or a newline in it cannot be told apart).
pub(crate) fn parse_words(tsv: &str) -> Vec<PixelWord> {
    tsv.lines()
        .skip_while(|line| line.starts_with("level\t"))
        .filter_map(parse_word)
        .collect()
}

fn parse_word(line: &str) -> Option<PixelWord> {
    let fields: Vec<&str> = line.splitn(COLUMNS, '\t').collect();
    if fields.len() != COLUMNS || fields[0] != WORD_LEVEL {
        return None;
    }
    let text = fields[11].trim();
    if text.is_empty() {
        return None;
    }
    let number = |index: usize| fields[index].parse::<u32>().ok();
    Some(PixelWord {
        text: text.to_string(),
        block: number(2)?,
        paragraph: number(3)?,
        line: number(4)?,
        left: number(6)?,
        top: number(7)?,
        width: number(8)?,
        height: number(9)?,
        confidence: fields[10].parse::<f32>().ok()?,
    })
}

/// The page's text laid out as Tesseract found it: words of a line joined by spaces,
/// lines by a line break, paragraphs and blocks by a blank line.
pub(crate) fn layout_text(words: &[PixelWord]) -> String {
    let mut text = String::new();
    let mut previous: Option<&PixelWord> = None;
    for word in words {
        if let Some(before) = previous {
            let separator = if (before.block, before.paragraph) != (word.block, word.paragraph) {
                "\n\n"
            } else if before.line != word.line {
                "\n"
            } else {
                " "
            };
            text.push_str(separator);
        }
        text.push_str(&word.text);
        previous = Some(word);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext
1\t1\t0\t0\t0\t0\t0\t0\t2481\t3508\t-1\t
2\t1\t1\t0\t0\t0\t304\t243\t1197\t73\t-1\t
5\t1\t1\t1\t1\t1\t304\t245\t170\t56\t96.46\tHow
5\t1\t1\t1\t1\t2\t503\t260\t39\t41\t96.46\ta
5\t1\t1\t1\t2\t1\t300\t416\t34\t34\t91.0\terup-
5\t1\t1\t1\t3\t1\t300\t476\t94\t34\t90.5\ttion
5\t1\t1\t1\t3\t2\t400\t476\t10\t34\t95.0\t 
5\t1\t2\t1\t1\t1\t300\t900\t120\t40\t88.25\tNext
5\t1\t2\t1\t1\tx\t300\t900\t120\t40\t88.25\tbroken";

    #[test]
    fn reads_the_words_with_their_boxes_and_skips_other_rows() {
        let words = parse_words(SAMPLE);
        let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        // The blank word is skipped; a row with a malformed word number still has
        // every field a word needs.
        assert_eq!(texts, ["How", "a", "erup-", "tion", "Next", "broken"]);
        assert_eq!(
            (words[0].left, words[0].top, words[0].width, words[0].height),
            (304, 245, 170, 56)
        );
        assert!((words[0].confidence - 96.46).abs() < 1e-3);
        assert_eq!(
            (words[4].block, words[4].paragraph, words[4].line),
            (2, 1, 1)
        );
    }

    #[test]
    fn a_row_that_does_not_parse_is_left_out() {
        assert!(parse_words("5\t1\t1\t1\t1\t1\t304\t245\tnot a number\t56\t96\tword").is_empty());
        assert!(parse_words("5\t1\t1").is_empty());
        assert!(parse_words("").is_empty());
    }

    #[test]
    fn lays_out_lines_and_paragraphs() {
        let words = parse_words(SAMPLE);
        assert_eq!(layout_text(&words), "How a\nerup-\ntion\n\nNext broken");
    }
}
