//! A document's own structure: where its sections begin and what they are called, read
//! from its outline (bookmarks) or, where it has none, from headings told from the page
//! text. The tree follows it (see [`shape`]); a document with neither keeps the grouping
//! of consecutive pages.

pub mod headings;
pub mod outline;
pub mod shape;

use serde::{Deserialize, Serialize};

/// Where a section begins: its first page (from 1), how deep it sits (1 for a chapter,
/// 2 for a section of one) and its title as the document gives it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionStart {
    pub page: u32,
    pub depth: u8,
    pub title: String,
}

/// The longest title kept: outlines and headings longer than this are sentences, not
/// titles, and a title is shown on one line of the tree.
pub const MAX_TITLE_CHARS: usize = 120;

/// `title` on one line, trimmed, cut at a word within [`MAX_TITLE_CHARS`]; none when
/// nothing readable is left.
pub fn clean_title(title: &str) -> Option<String> {
    let line = title.split_whitespace().collect::<Vec<_>>().join(" ");
    let line = line.trim_matches(|c: char| c.is_whitespace() || c == '.' || c == ':');
    if !line.chars().any(char::is_alphabetic) {
        return None;
    }
    if line.chars().count() <= MAX_TITLE_CHARS {
        return Some(line.to_string());
    }
    let mut cut = String::new();
    for word in line.split(' ') {
        if cut.chars().count() + word.chars().count() + 1 > MAX_TITLE_CHARS {
            break;
        }
        if !cut.is_empty() {
            cut.push(' ');
        }
        cut.push_str(word);
    }
    (!cut.is_empty()).then(|| format!("{cut}…"))
}

/// The section starts a document's tree follows: its outline when that names at least
/// two sections within its pages, else the headings read from its pages.
pub fn section_starts(outline: &[SectionStart], pages: &[&str]) -> Vec<SectionStart> {
    let page_count = pages.len() as u32;
    let within: Vec<SectionStart> = outline
        .iter()
        .filter(|start| start.page >= 1 && start.page <= page_count)
        .cloned()
        .collect();
    if distinct_pages(&within) >= 2 {
        return within;
    }
    headings::read(pages)
}

fn distinct_pages(starts: &[SectionStart]) -> usize {
    let mut pages: Vec<u32> = starts.iter().map(|s| s.page).collect();
    pages.sort_unstable();
    pages.dedup();
    pages.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_are_one_line_cut_at_a_word() {
        assert_eq!(
            clean_title("  2.1  Results\n and  discussion. "),
            Some("2.1 Results and discussion".into())
        );
        assert_eq!(clean_title("12"), None);
        let long = "word ".repeat(60);
        let cut = clean_title(&long).expect("a title");
        assert!(cut.ends_with("word…"), "{cut}");
        assert!(cut.chars().count() <= MAX_TITLE_CHARS + 1);
    }

    #[test]
    fn an_outline_of_one_section_gives_way_to_headings() {
        let outline = vec![SectionStart {
            page: 1,
            depth: 1,
            title: "Cover".into(),
        }];
        let prose = "Plain sentences of a report go on at length here. ".repeat(12);
        let pages = [
            format!("1. INTRODUCTION\n{prose}"),
            format!("More text here.\n{prose}"),
            format!("2. METHODS\n{prose}"),
        ];
        let pages: Vec<&str> = pages.iter().map(String::as_str).collect();
        let starts = section_starts(&outline, &pages);
        assert_eq!(
            starts.iter().map(|s| s.page).collect::<Vec<_>>(),
            vec![1, 3]
        );
    }
}
