//! Documents ranked by their whole text: a question's words that a document holds
//! anywhere, on one page or spread over many, rank it up: its root at a search's first
//! step, its sections and pages at later ones. A root is embedded from the document's
//! title, opening and headings, and a page from its own text, so a document about the
//! question whose words fall on pages that each match a little was ranked below another
//! document's single close page.

use std::collections::{HashMap, HashSet};

use crate::catalog::{Catalog, CatalogError};
use crate::describe::extractive::is_stop_word;

/// The boost of the document whose text matches the question best, in fused scores;
/// the others get their share of it by their BM25 against that best.
pub const DOCUMENT_WORDS_WEIGHT: f32 = 0.5;
/// Shorter words are mostly articles and prepositions, and cost the index a long list.
const MIN_WORD_CHARS: usize = 3;

/// The question's words as an FTS5 query that any of them matches, each quoted so that
/// none is read as an operator (`OR`, `NOT`, `NEAR`); None for a question without
/// words. Stop words are left out: most documents hold them, so BM25 gives them no
/// weight, and reading their long lists was most of a query's time.
pub fn match_expression(question: &str) -> Option<String> {
    let mut seen = HashSet::new();
    let words: Vec<String> = question
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| word.chars().count() >= MIN_WORD_CHARS)
        .map(str::to_lowercase)
        .filter(|word| !is_stop_word(word))
        .filter(|word| seen.insert(word.clone()))
        .map(|word| format!("\"{word}\""))
        .collect();
    (!words.is_empty()).then(|| words.join(" OR "))
}

/// The boost of each of `searched` whose text holds any of the question's words:
/// [`DOCUMENT_WORDS_WEIGHT`] for the best match, in proportion for the others.
pub async fn document_word_boosts(
    catalog: &Catalog,
    question: &str,
    searched: &[i64],
) -> Result<HashMap<i64, f32>, CatalogError> {
    let Some(expression) = match_expression(question) else {
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
        assert_eq!(
            match_expression("What is the \"CAGR\" of TV, and the cagr of radio?").as_deref(),
            Some(r#""cagr" OR "radio""#)
        );
        assert_eq!(
            match_expression("Какой доход у компании?").as_deref(),
            Some(r#""доход" OR "компании""#)
        );
        assert_eq!(match_expression("What is it?"), None);
    }

    #[test]
    fn the_best_match_gets_the_weight_and_the_others_their_share() {
        let boosts = relative_boosts(&[(1, 4.0), (2, 1.0)], 0.5);
        assert_eq!(boosts[&1], 0.5);
        assert_eq!(boosts[&2], 0.125);
        assert!(relative_boosts(&[], 0.5).is_empty());
    }
}
