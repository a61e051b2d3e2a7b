//! Documents ranked by their whole text: a question's words that a document holds
//! anywhere, on one page or spread over many, rank it up: its root at a search's first
//! step, its sections and pages at later ones. A root is embedded from the document's
//! title, opening and headings, and a page from its own text, so a document about the
//! question whose words fall on pages that each match a little was ranked below another
//! document's single close page.

use std::collections::{HashMap, HashSet};

use tokio::task::JoinHandle;

use crate::catalog::{Catalog, CatalogError};
use crate::describe::extractive::is_stop_word;
use crate::tree::root_node_id;

/// The boost of the document whose text matches the question best, in fused scores;
/// the others get their share of it by their BM25 against that best.
pub const DOCUMENT_WORDS_WEIGHT: f32 = 0.5;
/// Shorter words are mostly articles and prepositions, and cost the index a long list.
const MIN_WORD_CHARS: usize = 3;

/// The question's words that can rank documents, lowercase, each once: three letters
/// or more and not stop words. Stop words are left out: most documents hold them, so
/// BM25 gives them no weight, and reading their long lists was most of a query's time.
pub fn question_words(question: &str) -> Vec<String> {
    let mut seen = HashSet::new();
    question
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| word.chars().count() >= MIN_WORD_CHARS)
        .map(str::to_lowercase)
        .filter(|word| !is_stop_word(word))
        .filter(|word| seen.insert(word.clone()))
        .collect()
}

/// The words worth asking the index for: those that fewer than half of the library's
/// `documents` hold. FTS5's BM25 gives a word held by more no weight (its IDF is
/// clamped to a millionth), yet a query reads its entry for every document; a word
/// the counts do not know (the index keeps words without their accents) is asked.
pub fn words_that_tell_documents_apart(
    words: Vec<String>,
    counts: &HashMap<String, usize>,
    documents: usize,
) -> Vec<String> {
    words
        .into_iter()
        .filter(|word| counts.get(word).is_none_or(|&held| 2 * held < documents))
        .collect()
}

/// `words` as an FTS5 query that any of them matches, each quoted so that none is read
/// as an operator (`OR`, `NOT`, `NEAR`); None without words.
pub fn match_expression(words: &[String]) -> Option<String> {
    (!words.is_empty()).then(|| {
        words
            .iter()
            .map(|word| format!("\"{word}\""))
            .collect::<Vec<_>>()
            .join(" OR ")
    })
}

/// The boost of each of `searched` whose text holds any of the question's words:
/// [`DOCUMENT_WORDS_WEIGHT`] for the best match, in proportion for the others. The
/// library holds `documents` documents in all (searched or not).
async fn document_word_boosts(
    catalog: &Catalog,
    question: &str,
    searched: &[i64],
    documents: usize,
) -> Result<HashMap<i64, f32>, CatalogError> {
    let words = question_words(question);
    if words.is_empty() {
        return Ok(HashMap::new());
    }
    let counts = catalog.document_word_counts(&words).await?;
    let words = words_that_tell_documents_apart(words, &counts, documents);
    let Some(expression) = match_expression(&words) else {
        return Ok(HashMap::new());
    };
    let searched: HashSet<i64> = searched.iter().copied().collect();
    let scores: Vec<(i64, f32)> = catalog
        .document_word_scores(&expression)
        .await?
        .into_iter()
        .filter(|(doc, score)| searched.contains(doc) && *score > 0.0)
        .collect();
    Ok(relative_boosts(&scores, DOCUMENT_WORDS_WEIGHT))
}

/// A search's whole-text boosts, looked up on a task of their own: they need only the
/// question's words, so the search's first store call runs meanwhile.
pub struct WordLookup(JoinHandle<Result<HashMap<u64, f32>, CatalogError>>);

impl WordLookup {
    /// Starts looking up the boosts of `searched` (document id, node count), keyed by
    /// their roots' ids; the library holds `documents` documents in all.
    pub fn start(
        catalog: &Catalog,
        question: &str,
        searched: &[(i64, u32)],
        documents: usize,
    ) -> Self {
        let catalog = catalog.clone();
        let question = question.to_string();
        let searched = searched.to_vec();
        Self(tokio::spawn(async move {
            let ids: Vec<i64> = searched.iter().map(|&(id, _)| id).collect();
            let boosts = document_word_boosts(&catalog, &question, &ids, documents).await?;
            Ok(boosts_by_root(boosts, &searched))
        }))
    }

    /// The boosts by root id, once looked up.
    pub async fn boosts(self) -> Result<HashMap<u64, f32>, CatalogError> {
        match self.0.await {
            Ok(boosts) => boosts,
            // The task is never aborted, so it ends only by finishing or panicking, and
            // a panic carries on here as it would have had the lookup run in place.
            Err(stopped) => std::panic::resume_unwind(stopped.into_panic()),
        }
    }
}

/// Boosts by document as their roots' (`searched`: document id, node count); documents
/// not searched are left out.
pub fn boosts_by_root(
    boosts: impl IntoIterator<Item = (i64, f32)>,
    searched: &[(i64, u32)],
) -> HashMap<u64, f32> {
    let nodes: HashMap<i64, u32> = searched.iter().copied().collect();
    boosts
        .into_iter()
        .filter_map(|(doc, boost)| {
            nodes
                .get(&doc)
                .map(|&count| (root_node_id(doc, count), boost))
        })
        .collect()
}

/// `weight` times each score's share of the best one.
fn relative_boosts(scores: &[(i64, f32)], weight: f32) -> HashMap<i64, f32> {
    let best = scores.iter().map(|&(_, s)| s).fold(0.0f32, f32::max);
    if best <= 0.0 {
        return HashMap::new();
    }
    scores
        .iter()
        .map(|&(doc, score)| (doc, weight * score / best))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_of_three_letters_or_more_but_stop_words_is_asked_once_and_quoted() {
        let expression = |question: &str| match_expression(&question_words(question));
        assert_eq!(
            expression("What is the \"CAGR\" of TV, and the cagr of radio?").as_deref(),
            Some(r#""cagr" OR "radio""#)
        );
        assert_eq!(
            expression("Какой доход у компании?").as_deref(),
            Some(r#""доход" OR "компании""#)
        );
        assert_eq!(expression("What is it?"), None);
    }

    #[test]
    fn words_that_half_of_the_documents_hold_are_not_asked() {
        let words = |list: &[&str]| list.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        let counts: HashMap<String, usize> = [("revenue", 6), ("glacier", 1), ("company", 5)]
            .into_iter()
            .map(|(word, held)| (word.to_string(), held))
            .collect();
        assert_eq!(
            words_that_tell_documents_apart(
                words(&["revenue", "glacier", "año", "company"]),
                &counts,
                10
            ),
            words(&["glacier", "año"]),
            "half of the documents is already too many; an unknown word is asked"
        );
        assert!(
            words_that_tell_documents_apart(words(&["revenue", "company"]), &counts, 10).is_empty()
        );
    }

    #[test]
    fn the_best_match_gets_the_weight_and_the_others_their_share() {
        let boosts = relative_boosts(&[(1, 4.0), (2, 1.0)], 0.5);
        assert_eq!(boosts[&1], 0.5);
        assert_eq!(boosts[&2], 0.125);
        assert!(relative_boosts(&[], 0.5).is_empty());
    }
}
