//! The answer PageTree gives without a language model: the cited pages with their
//! passages most relevant to the question.

use std::collections::HashSet;

use unicode_segmentation::UnicodeSegmentation;

use super::citations::{check, CheckedAnswer};
use super::document_name;
use crate::describe::extractive::terms;
use crate::search::Context;

pub(crate) const NO_MODEL_NOTE: &str =
    "No language model is configured, so here are the most relevant passages of the pages found";

const PASSAGES: usize = 5;
const PASSAGE_WORDS: usize = 60;

/// Picks, from every page of the context, the sentence sharing most terms with the
/// question, and lists the best few with their citations.
pub fn answer(
    question: &str,
    context: &Context,
    page_text: &dyn Fn(i64, u32) -> Option<String>,
) -> CheckedAnswer {
    let wanted: HashSet<String> = terms(question).collect();
    let mut passages: Vec<(usize, String, String, u32)> = Vec::new();
    for page in &context.pages {
        let Some(text) = page_text(page.doc_id, page.page) else {
            continue;
        };
        let best = text
            .split_sentence_bounds()
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|s| !s.is_empty())
            .map(|s| {
                let overlap = terms(&s)
                    .collect::<HashSet<_>>()
                    .intersection(&wanted)
                    .count();
                (overlap, s)
            })
            .max_by_key(|(overlap, s)| (*overlap, std::cmp::Reverse(s.len())));
        if let Some((overlap, sentence)) = best.filter(|(overlap, _)| *overlap > 0) {
            let words: Vec<&str> = sentence.split_whitespace().collect();
            let passage = if words.len() > PASSAGE_WORDS {
                format!("{} …", words[..PASSAGE_WORDS].join(" "))
            } else {
                words.join(" ")
            };
            passages.push((
                overlap,
                passage,
                document_name(&page.file_name).to_string(),
                page.page,
            ));
        }
    }
    passages.sort_by_key(|passage| std::cmp::Reverse(passage.0));
    passages.truncate(PASSAGES);
    let mut text = format!("{NO_MODEL_NOTE}:\n");
    if passages.is_empty() {
        text.push_str("(none of the pages found shares words with the question)\n");
    }
    for (_, passage, document, page) in &passages {
        text.push_str(&format!("- \"{passage}\" [{document} p.{page}]\n"));
    }
    let in_context: HashSet<(String, u32)> = context
        .pages
        .iter()
        .map(|p| (document_name(&p.file_name).to_lowercase(), p.page))
        .collect();
    check(&text, &in_context)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::ContextPage;

    #[test]
    fn quotes_the_most_relevant_sentence_of_each_page_with_its_citation() {
        let context = Context {
            pages: vec![
                ContextPage {
                    doc_id: 1,
                    file_name: "A.pdf".into(),
                    page: 2,
                    tokens: 10,
                },
                ContextPage {
                    doc_id: 1,
                    file_name: "A.pdf".into(),
                    page: 3,
                    tokens: 10,
                },
            ],
            ..Context::default()
        };
        let text = |_: i64, page: u32| {
            Some(match page {
                2 => "Unrelated intro. Capital expenditure was 1,577 million in 2018. Other."
                    .to_string(),
                _ => "Nothing here matches.".to_string(),
            })
        };
        let answer = answer("What was capital expenditure in 2018?", &context, &text);
        assert!(answer.text.starts_with(NO_MODEL_NOTE));
        assert!(
            answer
                .text
                .contains("\"Capital expenditure was 1,577 million in 2018.\" [A p.2]"),
            "{}",
            answer.text
        );
        assert!(!answer.text.contains("p.3"));
        assert!(!answer.uncited);
    }
}
