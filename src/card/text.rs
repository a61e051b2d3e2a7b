//! Text helpers shared by the card rules: pdfium breaks lines and even words where the
//! layout put them, so phrases are matched on flattened text with loose patterns.

use regex::Regex;

/// `text` on one line: every run of whitespace (line breaks included) becomes one space.
pub fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A case-insensitive pattern for `phrase` that also matches it with a stray blank
/// inside a word ("fis cal year") and with words glued or split across lines.
pub(crate) fn loose(phrase: &str) -> String {
    let words: Vec<String> = phrase
        .split_whitespace()
        .map(|word| {
            word.chars()
                .map(|c| regex::escape(&c.to_string()))
                .collect::<Vec<_>>()
                .join(r"\s?")
        })
        .collect();
    format!(r"(?i:{})", words.join(r"\s*"))
}

/// A compiled [`loose`] pattern; the phrases are ours, so they always compile.
pub(crate) fn loose_regex(phrase: &str) -> Regex {
    Regex::new(&loose(phrase)).expect("a loose phrase is a valid regex")
}

/// At most `max` characters of `text` starting at byte `start` (clamped to a character
/// boundary), so that a window never splits a multi-byte character.
pub fn window(text: &str, start: usize, max: usize) -> &str {
    let start = floor_boundary(text, start.min(text.len()));
    let rest = &text[start..];
    let end = rest
        .char_indices()
        .nth(max)
        .map(|(index, _)| index)
        .unwrap_or(rest.len());
    &rest[..end]
}

/// At most `max` characters of `text` ending at byte `end`.
pub(crate) fn window_before(text: &str, end: usize, max: usize) -> &str {
    let end = floor_boundary(text, end.min(text.len()));
    let before = &text[..end];
    let start = before
        .char_indices()
        .rev()
        .nth(max.saturating_sub(1))
        .map(|(index, _)| index)
        .unwrap_or(0);
    &before[start..]
}

fn floor_boundary(text: &str, mut index: usize) -> usize {
    while index > 0 && !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

/// Letters and digits only, lower case: how names are compared.
pub fn squashed(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

pub(crate) fn has_lowercase(text: &str) -> bool {
    text.chars().any(char::is_lowercase)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loose_phrases_survive_broken_words_and_lines() {
        let re = loose_regex("fiscal year ended");
        assert!(re.is_match("For the fis cal year ended"));
        assert!(re.is_match("FOR THE FISCAL\nYEAR ENDED"));
        assert!(re.is_match("fiscalyearended"));
        assert!(!re.is_match("fiscal period ended"));
    }

    #[test]
    fn windows_never_split_characters() {
        let text = "Отчёт за 2023 год";
        assert_eq!(window(text, 1, 4), "Отчё");
        assert_eq!(window_before(text, text.len(), 3), "год");
        assert_eq!(window(text, 999, 4), "");
        assert_eq!(window_before(text, 3, 10), "О");
    }
}
