//! Citations in answers: `[BOEING_2022_10K p.34]`, `[BOEING_2022_10K pp.34-35]`, and
//! several in one bracket separated by `;`.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Citation {
    /// The document's name as written (a `.pdf` suffix is dropped).
    pub document: String,
    /// The PDF page, 1-based: what the citation is written with.
    pub page: u32,
    /// The number printed on that page (its PDF page label), when the PDF has labels:
    /// what a reader finds the page by. Filled from the context after the answer.
    #[serde(default)]
    pub page_label: Option<String>,
}

impl Citation {
    /// "p. 47 · PDF page 52" when the page is printed with another number than its
    /// PDF page's, else "p.52" as citations are written.
    pub fn page_in_words(&self) -> String {
        match crate::search::context::label_beside(self.page_label.as_deref(), self.page) {
            Some(label) => format!("p. {label} · PDF page {}", self.page),
            None => format!("p.{}", self.page),
        }
    }
}

/// What validation did to an answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CheckedAnswer {
    /// The answer with citations of pages outside the context removed.
    pub text: String,
    /// Valid citations, in order of first appearance.
    pub citations: Vec<Citation>,
    /// Citations that pointed outside the context, as written.
    pub removed: Vec<String>,
    /// True when the answer cites nothing at all.
    pub uncited: bool,
}

/// Finds every `[NAME p.N]`-style citation: its byte span and the pages it names.
pub(crate) fn find_citations(text: &str) -> Vec<(std::ops::Range<usize>, Vec<Citation>)> {
    let mut found = Vec::new();
    let mut search_from = 0;
    while let Some(open) = text[search_from..].find('[').map(|i| i + search_from) {
        let Some(close) = text[open..].find(']').map(|i| i + open) else {
            break;
        };
        let inner = &text[open + 1..close];
        let citations: Vec<Citation> = inner.split(';').filter_map(parse_one).flatten().collect();
        if !citations.is_empty() && inner.split(';').all(|part| parse_one(part).is_some()) {
            found.push((open..close + 1, citations));
            // Citations do not overlap: a bracket inside this one is part of it.
            search_from = close + 1;
        } else {
            search_from = open + 1;
        }
    }
    found
}

/// `NAME p.N`, `NAME pp.N-M`, `NAME, p. N`, `NAME page N`.
fn parse_one(part: &str) -> Option<Vec<Citation>> {
    let part = part.trim();
    // The page marker is a word of its own ("multipage p.3" has "page" inside a name),
    // and the rightmost one wins: names come first.
    let marker_at = |marker: &str| {
        part.match_indices(marker)
            .filter(|(i, _)| *i > 0 && matches!(part.as_bytes()[i - 1], b' ' | b','))
            .map(|(i, _)| (i, marker.len()))
            .last()
    };
    let (at, length) = ["pp.", "p.", "pages", "page"]
        .iter()
        .filter_map(|marker| marker_at(marker))
        .max_by_key(|(i, length)| (*i, *length))?;
    let (name, pages) = (&part[..at], &part[at + length..]);
    let name = name.trim().trim_end_matches(',').trim();
    let name = name.strip_suffix(".pdf").unwrap_or(name);
    if name.is_empty() || name.contains(char::is_whitespace) && name.split_whitespace().count() > 3
    {
        return None;
    }
    let pages = pages.trim();
    let (start, end) = match pages.split_once(['-', '–']) {
        Some((a, b)) => (a.trim().parse::<u32>().ok()?, b.trim().parse::<u32>().ok()?),
        None => {
            let page = pages.parse::<u32>().ok()?;
            (page, page)
        }
    };
    if start == 0 || end < start || end - start > 50 {
        return None;
    }
    Some(
        (start..=end)
            .map(|page| Citation {
                document: name.to_string(),
                page,
                page_label: None,
            })
            .collect(),
    )
}

/// Keeps citations of pages in `context` (document names compared without case) and
/// removes the others from the text.
pub fn check(answer: &str, context: &HashSet<(String, u32)>) -> CheckedAnswer {
    let known = |c: &Citation| context.contains(&(c.document.to_lowercase(), c.page));
    let mut text = String::with_capacity(answer.len());
    let mut citations: Vec<Citation> = Vec::new();
    let mut removed = Vec::new();
    let mut last = 0;
    for (span, cited) in find_citations(answer) {
        text.push_str(&answer[last..span.start]);
        let (valid, invalid): (Vec<Citation>, Vec<Citation>) = cited.into_iter().partition(known);
        if invalid.is_empty() {
            text.push_str(&answer[span.clone()]);
        } else {
            removed.push(answer[span.clone()].to_string());
            if !valid.is_empty() {
                let kept: Vec<String> = valid
                    .iter()
                    .map(|c| format!("{} p.{}", c.document, c.page))
                    .collect();
                text.push_str(&format!("[{}]", kept.join("; ")));
            } else if text.ends_with(' ') {
                text.pop();
            }
        }
        for citation in valid {
            if !citations.contains(&citation) {
                citations.push(citation);
            }
        }
        last = span.end;
    }
    text.push_str(&answer[last..]);
    CheckedAnswer {
        uncited: citations.is_empty(),
        text,
        citations,
        removed,
    }
}

/// Gives each citation the printed label of its page, from the context's pages (the
/// document compared as citations write it, without case).
pub fn label_citations(citations: &mut [Citation], pages: &[crate::search::ContextPage]) {
    for citation in citations {
        citation.page_label = pages
            .iter()
            .find(|page| {
                page.page == citation.page
                    && super::document_name(&page.file_name)
                        .eq_ignore_ascii_case(&citation.document)
            })
            .and_then(|page| page.page_label.clone());
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn context() -> HashSet<(String, u32)> {
        [
            ("boeing_2022_10k".to_string(), 34),
            ("boeing_2022_10k".to_string(), 35),
            ("3m_2018_10k".to_string(), 60),
        ]
        .into()
    }

    #[test]
    fn parses_the_citation_forms() {
        let found = find_citations(
            "A [BOEING_2022_10K p.34]. B [3M_2018_10K.pdf, p. 60; BOEING_2022_10K pp.34-35] [note] [multipage page 3]",
        );
        assert_eq!(found.len(), 3);
        assert_eq!(
            found[2].1,
            vec![Citation {
                document: "multipage".into(),
                page: 3,
                page_label: None,
            }]
        );
        assert_eq!(
            found[0].1,
            vec![Citation {
                document: "BOEING_2022_10K".into(),
                page: 34,
                page_label: None,
            }]
        );
        assert_eq!(found[1].1.len(), 3);
        assert_eq!(found[1].1[0].document, "3M_2018_10K");
    }

    #[test]
    fn a_quoted_bracket_that_reads_as_a_citation_is_checked_once() {
        // A quote's unclosed bracket runs to the citation's closing one: the two
        // brackets found must not overlap.
        let checked = check("- \"Fees [Ada p.2\" [BOEING_2022_10K p.34]\n", &context());
        assert!(checked.text.starts_with("- \"Fees"), "{}", checked.text);
        assert_eq!(find_citations(&checked.text).len(), checked.citations.len());
    }

    #[test]
    fn citations_outside_the_context_are_removed_and_reported() {
        let checked = check(
            "Revenue rose [BOEING_2022_10K p.34]. Costs fell [BOEING_2022_10K p.99].",
            &context(),
        );
        assert_eq!(
            checked.text,
            "Revenue rose [BOEING_2022_10K p.34]. Costs fell."
        );
        assert_eq!(checked.removed, vec!["[BOEING_2022_10K p.99]"]);
        assert_eq!(checked.citations.len(), 1);
        assert!(!checked.uncited);
    }

    #[test]
    fn a_mixed_bracket_keeps_its_valid_part() {
        let checked = check(
            "X [BOEING_2022_10K p.35; NETFLIX_2015_10K p.3].",
            &context(),
        );
        assert_eq!(checked.text, "X [BOEING_2022_10K p.35].");
        assert_eq!(checked.removed.len(), 1);
    }

    #[test]
    fn an_answer_without_citations_is_flagged() {
        let checked = check("I think revenue rose [citation needed].", &context());
        assert!(checked.uncited);
        assert_eq!(checked.text, "I think revenue rose [citation needed].");
    }

    #[test]
    fn a_citation_shows_the_printed_number_beside_the_pdf_page_when_they_differ() {
        let page = |page: u32, label: Option<&str>| crate::search::ContextPage {
            doc_id: 1,
            file_name: "Report.pdf".into(),
            page,
            page_label: label.map(str::to_string),
            tokens: 10,
        };
        let pages = [page(52, Some("47")), page(3, Some("3")), page(4, None)];
        let mut citations: Vec<Citation> = [52, 3, 4]
            .into_iter()
            .map(|page| Citation {
                document: "report".into(),
                page,
                page_label: None,
            })
            .collect();
        label_citations(&mut citations, &pages);
        let shown: Vec<String> = citations.iter().map(Citation::page_in_words).collect();
        assert_eq!(shown, vec!["p. 47 · PDF page 52", "p.3", "p.4"]);
        assert_eq!(citations[1].page_label.as_deref(), Some("3"));
        assert_eq!(citations[2].page_label, None);
    }

    proptest::proptest! {
        #[test]
        fn any_answer_is_checked_without_panic_into_known_citations(
            answer in answer_like_text()
        ) {
            let found = find_citations(&answer);
            for pair in found.windows(2) {
                proptest::prop_assert!(pair[0].0.end <= pair[1].0.start, "{found:?}");
            }
            let checked = check(&answer, &context());
            for citation in &checked.citations {
                proptest::prop_assert!(
                    context().contains(&(citation.document.to_lowercase(), citation.page)),
                    "{citation:?} kept from {answer:?}"
                );
            }
        }
    }

    /// Text shaped like a model's answer: words, figures, brackets, citations of pages in
    /// and out of a context, page markers and letters of more than one byte, in any order.
    pub(crate) fn answer_like_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::{prop_oneof, Just, Strategy};
        let piece = prop_oneof![
            Just("[".to_string()),
            Just("]".to_string()),
            Just("[BOEING_2022_10K p.34]".to_string()),
            Just("[3M_2018_10K pp.60-61; BOEING_2022_10K p.35]".to_string()),
            Just("[Other p.2]".to_string()),
            Just(" p.".to_string()),
            Just(" page 7".to_string()),
            Just(";".to_string()),
            Just(". ".to_string()),
            Just("\n".to_string()),
            Just("12,345".to_string()),
            Just("$1.5 million".to_string()),
            Just("21.4%".to_string()),
            Just(" [?]".to_string()),
            "[a-zA-Zé€ё0-9 .,%$()-]{0,8}",
        ];
        proptest::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
    }
}
