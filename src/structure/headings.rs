//! Section starts told from the page text, for documents without an outline: a numbered
//! heading ("2.3 Results", "Chapter 4", "Глава 2", "Capítulo 3"), a short line alone in
//! capitals, or a slide's title (the first line of a page of few words). Running headers
//! and footers, repeated on many pages, are never headings.

use std::sync::OnceLock;

use regex::Regex;

use super::{clean_title, SectionStart};
use crate::describe::boilerplate::RunningLines;

/// Only a page's first lines are read for its heading: a section that starts lower on
/// a page also ends on it, and the page belongs to both.
const HEADING_LINES: usize = 6;
/// A heading is short.
const MAX_HEADING_WORDS: usize = 12;
const MAX_HEADING_CHARS: usize = 90;
/// A page of fewer words is a slide (or a cover, a divider): its first line is its title.
const SLIDE_WORDS: usize = 80;

fn numbered() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?xi)^(?:
                (?:chapter|section|part|appendix|annex|глава|раздел|часть|приложение|cap[ií]tulo|secci[oó]n|parte|anexo)\s+(?P<word>[0-9]+|[ivxlc]+|[a-z])\b
              | (?P<number>[0-9]{1,2}(?:\.[0-9]{1,2}){0,2})\.?\s+\p{Lu}
              | (?P<roman>[IVX]{1,5})\.\s+\p{Lu}
            )",
        )
        .expect("a valid heading pattern")
    })
}

/// The section starts of a document's pages (`pages[0]` is page 1), in page order. A
/// run of slides under one title is one section.
pub fn read(pages: &[&str]) -> Vec<SectionStart> {
    let running = RunningLines::from_pages(pages.iter().copied());
    // Slides' titles count only in a deck: most of its pages are of few words.
    let short = pages
        .iter()
        .filter(|text| text.split_whitespace().count() <= SLIDE_WORDS)
        .count();
    let deck = short * 5 >= pages.len() * 3;
    let mut starts: Vec<SectionStart> = Vec::new();
    for (index, text) in pages.iter().enumerate() {
        let Some(start) = heading_of(text, index as u32 + 1, &running, deck) else {
            continue;
        };
        let same_as_last = starts
            .last()
            .is_some_and(|last| last.depth == start.depth && same_title(&last.title, &start.title));
        if !same_as_last {
            starts.push(start);
        }
    }
    starts
}

fn heading_of(text: &str, page: u32, running: &RunningLines, deck: bool) -> Option<SectionStart> {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !running.is_running(line))
        .filter(|line| line.chars().any(char::is_alphabetic))
        .take(HEADING_LINES)
        .collect();
    for line in &lines {
        if !is_short(line) {
            continue;
        }
        if let Some(depth) = numbered_depth(line) {
            return Some(SectionStart {
                page,
                depth,
                title: clean_title(line)?,
            });
        }
        if is_capitals(line) {
            return Some(SectionStart {
                page,
                depth: 1,
                title: clean_title(line)?,
            });
        }
    }
    let words = text.split_whitespace().count();
    let first = lines.first()?;
    (deck && words <= SLIDE_WORDS && is_short(first) && is_wordy(first))
        .then(|| clean_title(first))
        .flatten()
        .map(|title| SectionStart {
            page,
            depth: 1,
            title,
        })
}

fn is_short(line: &str) -> bool {
    line.chars().count() <= MAX_HEADING_CHARS
        && line.split_whitespace().count() <= MAX_HEADING_WORDS
}

/// How deep a numbered heading sits: "3" and "Chapter 3" are 1, "3.2" is 2. A line that
/// reads like a table row or a sentence (figures, a full stop at its end) is not one.
fn numbered_depth(line: &str) -> Option<u8> {
    let found = numbered().captures(line)?;
    if line.ends_with('.') && line.split_whitespace().count() > 6 {
        return None;
    }
    let digits = line.chars().filter(char::is_ascii_digit).count();
    let letters = line.chars().filter(|c| c.is_alphabetic()).count();
    if letters < 3 || digits * 2 > letters {
        return None;
    }
    let depth = found
        .name("number")
        .map(|number| number.as_str().split('.').count() as u8)
        .unwrap_or(1);
    Some(depth)
}

/// At least two words, and more letters than digits (not a row of figures).
fn is_wordy(line: &str) -> bool {
    let digits = line.chars().filter(char::is_ascii_digit).count();
    let letters = line.chars().filter(|c| c.is_alphabetic()).count();
    line.split_whitespace().count() >= 2 && letters > digits * 2
}

/// A line in capitals with at least two words of letters ("RESULTS AND DISCUSSION").
fn is_capitals(line: &str) -> bool {
    let letters: Vec<char> = line.chars().filter(|c| c.is_alphabetic()).collect();
    letters.len() >= 6
        && letters.iter().all(|c| !c.is_lowercase())
        && line
            .split_whitespace()
            .filter(|w| w.chars().any(char::is_alphabetic))
            .count()
            >= 2
}

fn same_title(a: &str, b: &str) -> bool {
    let key = |t: &str| {
        t.to_lowercase()
            .replace("(cont.)", "")
            .replace("(continued)", "")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    key(a) == key(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_headings_capitals_and_slide_titles_start_sections() {
        let prose = "We study things at length and in detail, in sentences. ".repeat(12);
        let pages: Vec<String> = [
            "A Study of Things\nJane Doe",
            "1. Introduction\nThings matter.",
            "Body text that goes on.",
            "2.1 Related work\nOthers studied things.",
            "RESULTS AND DISCUSSION\nWe found things.",
            "Table 3 12.5 13.7 14.2\n2020 2021 2022",
        ]
        .iter()
        .map(|head| format!("{head}\n{prose}"))
        .collect();
        let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
        let starts = read(&pages);
        let found: Vec<(u32, u8, &str)> = starts
            .iter()
            .map(|s| (s.page, s.depth, s.title.as_str()))
            .collect();
        assert_eq!(
            found,
            vec![
                (2, 1, "1. Introduction"),
                (4, 2, "2.1 Related work"),
                (5, 1, "RESULTS AND DISCUSSION")
            ]
        );
    }

    #[test]
    fn a_running_header_is_no_heading_and_slides_under_one_title_are_one_section() {
        let pages = [
            "ANNUAL REPORT 2020\nOur year in review\n• revenue up",
            "ANNUAL REPORT 2020\nOur year in review (cont.)\n• costs down",
            "ANNUAL REPORT 2020\nOutlook for next year\n• more",
            "ANNUAL REPORT 2020\nThank you all\n• bye",
        ];
        let starts = read(&pages);
        let titles: Vec<&str> = starts.iter().map(|s| s.title.as_str()).collect();
        assert_eq!(
            titles,
            vec![
                "Our year in review",
                "Outlook for next year",
                "Thank you all"
            ]
        );
        assert_eq!(
            starts.iter().map(|s| s.page).collect::<Vec<_>>(),
            vec![1, 3, 4]
        );
    }
}
