//! Numbers checked: every figure of a written answer is looked for on the pages its
//! sentence cites (or, in a sentence citing none, on every page the answer cites),
//! written in any of the ways filings write it (thousands separators, %, $, in
//! millions or billions). One found on none of them is marked `[?]` in the answer.

use std::collections::HashMap;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::citations::{find_citations, Citation};

/// The mark put after a figure that is on none of the pages cited for it.
pub const UNCHECKED_MARK: &str = " [?]";

/// What checking an answer's figures found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct NumberCheck {
    /// Figures looked for.
    pub checked: usize,
    /// Figures on none of the pages cited for them, as written.
    pub missing: Vec<String>,
}

/// A figure written in text: where, its value and how many decimals it was given with.
#[derive(Debug, Clone, PartialEq)]
struct Figure {
    span: Range<usize>,
    /// With its scale word applied.
    value: f64,
    decimals: usize,
    /// The scale word's multiplier (1 without one).
    scale: f64,
}

/// Multipliers a following word gives a figure.
const SCALES: [(&str, f64); 6] = [
    ("thousand", 1e3),
    ("million", 1e6),
    ("mn", 1e6),
    ("billion", 1e9),
    ("bn", 1e9),
    ("trillion", 1e12),
];

/// Every figure of `text`: digits with separators and decimals, with the scale word
/// after it applied ("1.6 billion" is 1.6e9).
fn figures(text: &str) -> Vec<Figure> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        if !bytes[at].is_ascii_digit() || (at > 0 && (bytes[at - 1].is_ascii_alphanumeric())) {
            at += 1;
            continue;
        }
        let start = at;
        let mut end = at;
        while end < bytes.len()
            && (bytes[end].is_ascii_digit()
                || (matches!(bytes[end], b',' | b'.')
                    && end + 1 < bytes.len()
                    && bytes[end + 1].is_ascii_digit()))
        {
            end += 1;
        }
        at = end;
        if end < bytes.len() && bytes[end].is_ascii_alphabetic() {
            // Part of a word or code (3M, Q2, 10K).
            continue;
        }
        let written = &text[start..end];
        let plain = written.replace(',', "");
        let Ok(mut value) = plain.parse::<f64>() else {
            continue;
        };
        let decimals = plain.split_once('.').map(|(_, d)| d.len()).unwrap_or(0);
        let rest = text[end..].trim_start().to_lowercase();
        let scale = SCALES
            .iter()
            .find(|(word, _)| {
                rest.starts_with(word)
                    && !rest[word.len()..]
                        .chars()
                        .next()
                        .is_some_and(char::is_alphabetic)
            })
            .map_or(1.0, |(_, scale)| *scale);
        value *= scale;
        found.push(Figure {
            span: start..end,
            value,
            decimals,
            scale,
        });
    }
    found
}

/// True when a figure is worth checking: not a list's number, not a lone small count.
fn worth_checking(text: &str, figure: &Figure) -> bool {
    let line_start = text[..figure.span.start].rfind('\n').map_or(0, |i| i + 1);
    let before = text[line_start..figure.span.start].trim();
    let after = text[figure.span.end..].chars().next();
    let list_number = before.is_empty() && matches!(after, Some('.' | ')'));
    let small_count = figure.decimals == 0 && figure.value < 10.0;
    !(list_number || small_count)
}

/// Whether `figure` is on a page whose figures are `page`: equal at the precision the
/// answer wrote it with, the page's number read as it is or in thousands, millions or
/// billions (tables give their unit once, in a heading).
fn on_page(figure: &Figure, page: &[Figure]) -> bool {
    let tolerance = 0.5 * 10f64.powi(-(figure.decimals as i32)) * figure.scale + 1e-9;
    page.iter().any(|p| {
        [1.0, 1e3, 1e6, 1e9]
            .iter()
            .any(|unit| (p.value * unit - figure.value).abs() <= tolerance)
    })
}

/// Checks every figure of `answer` against the pages cited for it; `page_text` gives a
/// cited page's text (None when it is not known). Returns the answer with `[?]` after
/// each figure found on none of its pages, and what was found.
pub fn check_numbers(
    answer: &str,
    page_text: &dyn Fn(&Citation) -> Option<String>,
) -> (String, NumberCheck) {
    let spans = find_citations(answer);
    let all_cited: Vec<Citation> = spans.iter().flat_map(|(_, c)| c.clone()).collect();
    let mut page_figures: HashMap<(String, u32), Vec<Figure>> = HashMap::new();
    for citation in &all_cited {
        let key = (citation.document.to_lowercase(), citation.page);
        page_figures
            .entry(key)
            .or_insert_with(|| figures(&page_text(citation).unwrap_or_default()));
    }
    // The citations a figure answers to: those of the first citation bracket after it
    // in its sentence (up to the next sentence end), else every page the answer cites.
    let cited_for = |at: usize| -> Vec<&Citation> {
        let sentence_end = answer[at..]
            .find(". ")
            .or_else(|| answer[at..].find('\n'))
            .map_or(answer.len(), |i| at + i + 1);
        let own: Vec<&Citation> = spans
            .iter()
            .filter(|(span, _)| span.start >= at && span.start <= sentence_end)
            .take(1)
            .flat_map(|(_, c)| c.iter())
            .collect();
        if own.is_empty() {
            all_cited.iter().collect()
        } else {
            own
        }
    };
    let inside_citation = |at: usize| spans.iter().any(|(span, _)| span.contains(&at));
    let mut check = NumberCheck::default();
    let mut marked = String::with_capacity(answer.len() + 16);
    let mut last = 0;
    for figure in figures(answer) {
        if inside_citation(figure.span.start) || !worth_checking(answer, &figure) {
            continue;
        }
        let cited = cited_for(figure.span.end);
        if cited.is_empty() {
            continue;
        }
        check.checked += 1;
        let found = cited.iter().any(|c| {
            page_figures
                .get(&(c.document.to_lowercase(), c.page))
                .is_some_and(|page| on_page(&figure, page))
        });
        if !found {
            // The mark goes after the figure's unit (%, million …) when it has one.
            let rest = &answer[figure.span.end..];
            let unit = rest
                .char_indices()
                .take_while(|(i, c)| *i == 0 && *c == '%')
                .count();
            let end = figure.span.end + unit;
            marked.push_str(&answer[last..end]);
            marked.push_str(UNCHECKED_MARK);
            last = end;
            check.missing.push(answer[figure.span.clone()].to_string());
        }
    }
    marked.push_str(&answer[last..]);
    (marked, check)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pages(citation: &Citation) -> Option<String> {
        match (citation.document.as_str(), citation.page) {
            ("3M", 60) => Some("(Millions) 2018 2017\nPurchases of property, plant and equipment (1,577) (1,373)\nNet income $ 5,363 and margin 21.4%".into()),
            ("3M", 61) => Some("Total assets 36,500".into()),
            _ => None,
        }
    }

    #[test]
    fn figures_on_the_cited_page_pass_in_any_dress_and_others_are_marked() {
        let answer = "Capex was $1,577 million in 2018 [3M p.60]. Net income was $5.363 billion and the margin 21.4% [3M p.60]. Assets were 99,999 [3M p.61].";
        let (marked, check) = check_numbers(answer, &pages);
        assert_eq!(check.missing, vec!["99,999"], "{marked}");
        assert_eq!(check.checked, 5, "1,577, 2018, 5.363, 21.4, 99,999");
        assert!(
            marked.contains("Assets were 99,999 [?] [3M p.61]"),
            "{marked}"
        );
        assert!(
            marked.contains("$1,577 million in 2018 [3M p.60]"),
            "{marked}"
        );
    }

    #[test]
    fn a_figure_is_checked_against_its_own_sentence_citation_only() {
        let answer = "Total assets were 36,500 [3M p.60]. Capex was 1,577 [3M p.61].";
        let (marked, check) = check_numbers(answer, &pages);
        assert_eq!(check.missing, vec!["36,500", "1,577"], "{marked}");
    }

    #[test]
    fn list_numbers_small_counts_and_citation_pages_are_not_figures() {
        let answer = "1. Two segments grew [3M p.60].\n2. Margin 21.4% [3M p.60].";
        let (_, check) = check_numbers(answer, &pages);
        assert_eq!(check.checked, 1);
        assert!(check.missing.is_empty());
    }

    #[test]
    fn figures_read_scale_words() {
        let found = figures("about 1.6 billion, 3M and 250 mn");
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].value, 1.6e9);
        assert_eq!(found[1].value, 250e6);
    }

    proptest::proptest! {
        #[test]
        fn any_answer_is_marked_without_panic_and_only_by_what_it_reports(
            answer in crate::chat::citations::tests::answer_like_text(),
            page in crate::chat::citations::tests::answer_like_text(),
        ) {
            let (marked, check) = check_numbers(&answer, &|_| Some(page.clone()));
            proptest::prop_assert!(check.missing.len() <= check.checked);
            proptest::prop_assert_eq!(
                marked.matches(UNCHECKED_MARK).count(),
                answer.matches(UNCHECKED_MARK).count() + check.missing.len()
            );
        }
    }
}
