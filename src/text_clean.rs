//! Normalises the raw text pdfium returns for a page.

/// pdfium marks a soft hyphen at a line break with U+0002 (and some producers with
/// U+FFFE); both mean "this word continues on the next line".
const SOFT_HYPHEN_MARKERS: [char; 3] = ['\u{2}', '\u{fffe}', '\u{ad}'];

/// Cleans a page's text: unifies line breaks, drops control characters, joins words
/// hyphenated across lines, collapses runs of blanks, and trims every line.
pub(crate) fn clean_page_text(raw: &str) -> String {
    let unified = raw.replace("\r\n", "\n").replace('\r', "\n");
    let mut chars: Vec<char> = Vec::with_capacity(unified.len());
    let source: Vec<char> = unified.chars().collect();
    let mut i = 0;
    while i < source.len() {
        let c = source[i];
        if SOFT_HYPHEN_MARKERS.contains(&c) {
            // A soft hyphen joins the word with whatever follows the line break.
            i = skip_line_break(&source, i + 1);
            continue;
        }
        if c == '-' && is_word_char_before(&chars) {
            let after = skip_line_break(&source, i + 1);
            let crossed_break = after > i + 1 && source[i + 1..after].contains(&'\n');
            if crossed_break && after < source.len() && source[after].is_lowercase() {
                i = after;
                continue;
            }
        }
        if c == '\t' || c == '\u{a0}' {
            chars.push(' ');
        } else if c == '\n' || !c.is_control() {
            chars.push(c);
        }
        i += 1;
    }
    let text: String = chars.into_iter().collect();
    let mut out = String::with_capacity(text.len());
    let mut blank_run = 0;
    for line in text.split('\n') {
        let collapsed = line.split_whitespace().collect::<Vec<_>>().join(" ");
        if collapsed.is_empty() {
            blank_run += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank_run > 0 { "\n\n" } else { "\n" });
        }
        blank_run = 0;
        out.push_str(&collapsed);
    }
    out
}

fn is_word_char_before(chars: &[char]) -> bool {
    chars.last().is_some_and(|c| c.is_alphabetic())
}

/// Skips spaces and at most one line break (with the blanks around it) from `start`.
fn skip_line_break(source: &[char], start: usize) -> usize {
    let mut j = start;
    let mut seen_break = false;
    while j < source.len() {
        match source[j] {
            ' ' | '\t' => j += 1,
            '\n' if !seen_break => {
                seen_break = true;
                j += 1;
            }
            _ => break,
        }
    }
    j
}

/// True when a page has enough characters to be called a text layer.
pub(crate) fn has_text_layer(cleaned: &str) -> bool {
    cleaned.chars().filter(|c| c.is_alphanumeric()).count() >= 3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unifies_line_endings_and_trims() {
        assert_eq!(clean_page_text("  a  b \r\nc\rd  "), "a b\nc\nd");
    }

    #[test]
    fn joins_soft_hyphen_marker_across_lines() {
        assert_eq!(clean_page_text("erup\u{2}\r\ntion began"), "eruption began");
        assert_eq!(clean_page_text("erup\u{fffe}\ntion"), "eruption");
    }

    #[test]
    fn joins_hard_hyphen_at_line_end_before_lowercase() {
        assert_eq!(clean_page_text("volcanic erup-\ntion"), "volcanic eruption");
    }

    #[test]
    fn keeps_hyphen_before_capitalised_word_and_inside_lines() {
        assert_eq!(clean_page_text("Rolls-\nRoyce"), "Rolls-\nRoyce");
        assert_eq!(clean_page_text("long-term plan"), "long-term plan");
    }

    #[test]
    fn drops_control_characters_and_collapses_blank_lines() {
        assert_eq!(clean_page_text("a\u{7}b\n\n\n\nc\u{0}"), "ab\n\nc");
    }

    #[test]
    fn keeps_cyrillic() {
        assert_eq!(clean_page_text("Озеро Бай-\nкал"), "Озеро Байкал");
    }

    #[test]
    fn text_layer_detection() {
        assert!(!has_text_layer("  \n - "));
        assert!(has_text_layer("Page 12"));
    }
}
