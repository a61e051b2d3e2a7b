//! The offline describer: a page's most informative sentences and its most distinctive
//! terms against the rest of its document (TF-IDF over the document's pages).

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use unicode_segmentation::UnicodeSegmentation;

use super::boilerplate::{strip, RunningLines};
use super::Description;

/// About 180 words fit the 256-token window of the default embedding model.
pub(crate) const DEFAULT_WORD_BUDGET: usize = 180;
pub(crate) const KEYWORDS_PER_PAGE: usize = 10;
/// Table rows in filings run for hundreds of words without a full stop; a "sentence"
/// longer than this is cut so that one row cannot take the whole budget.
const MAX_SENTENCE_WORDS: usize = 60;

/// Inverse document frequencies of the terms of one document, its pages being the
/// "documents" of the formula: a term on every page says nothing about any of them.
/// Also knows the document's running headers and footers, which no description keeps.
#[derive(Debug, Clone, Default)]
pub struct TermStats {
    idf: HashMap<String, f32>,
    running: RunningLines,
}

impl TermStats {
    pub(crate) fn from_pages<'a>(pages: impl IntoIterator<Item = &'a str>) -> Self {
        let pages: Vec<&str> = pages.into_iter().collect();
        let running = RunningLines::from_pages(pages.iter().copied());
        let mut document_frequency: HashMap<String, u32> = HashMap::new();
        let mut page_count = 0u32;
        for page in pages {
            page_count += 1;
            let unique: HashSet<String> = terms(page).collect();
            for term in unique {
                *document_frequency.entry(term).or_default() += 1;
            }
        }
        let n = page_count as f32;
        let idf = document_frequency
            .into_iter()
            .map(|(term, df)| {
                // A one-page document has nothing to contrast with: every term counts.
                let weight = if page_count <= 1 {
                    1.0
                } else {
                    (n / df as f32).ln()
                };
                (term, weight)
            })
            .collect();
        Self { idf, running }
    }

    fn idf(&self, term: &str) -> f32 {
        // A term never seen in the document (a parent summarising words from its
        // children is the only way to get here) counts as rare.
        self.idf.get(term).copied().unwrap_or(1.0)
    }
}

/// Lower-cased word terms worth weighing: three or more characters with a letter.
pub(crate) fn terms(text: &str) -> impl Iterator<Item = String> + '_ {
    text.unicode_words().filter_map(|word| {
        let length = word.chars().count();
        if !(3..=30).contains(&length) || !word.chars().any(char::is_alphabetic) {
            return None;
        }
        Some(word.to_lowercase())
    })
}

/// Describes one page: its best sentences within `word_budget`, in page order, and its
/// most distinctive terms, neither taken from its running headers and footers or from
/// the form of a cover page (see [`boilerplate`](super::boilerplate)).
pub fn describe_page(text: &str, stats: &TermStats, word_budget: usize) -> Description {
    let text = strip(text, &stats.running);
    let sentences = split_sentences(&text);
    let description = pick_sentences(&sentences, stats, word_budget, &HashMap::new());
    Description {
        description,
        keywords: distinctive_terms(&text, stats, KEYWORDS_PER_PAGE),
    }
}

/// Summarises children's descriptions into one: the sentences that carry the terms the
/// children share, with the best sentence of each child first so no child is lost.
pub fn summarise(children: &[&str], stats: &TermStats, word_budget: usize) -> String {
    let mut shared: HashMap<String, f32> = HashMap::new();
    for child in children {
        let unique: HashSet<String> = terms(child).collect();
        for term in unique {
            *shared.entry(term).or_default() += 1.0;
        }
    }
    let per_child: Vec<Vec<String>> = children.iter().map(|c| split_sentences(c)).collect();
    let share = (word_budget / children.len().max(1)).max(12);
    let mut parts = Vec::new();
    for sentences in &per_child {
        let part = pick_sentences(sentences, stats, share, &shared);
        if !part.is_empty() {
            parts.push(part);
        }
    }
    truncate_words(&parts.join(" "), word_budget)
}

/// The languages our users write in; a page's language is not known when it is
/// described, and a word that is a stop word in any of them is a poor keyword in all.
const STOP_WORD_LANGUAGES: [&str; 3] = ["en", "ru", "es"];

/// Whether `term` (lower-cased) is a stop word of English, Russian or Spanish.
pub fn is_stop_word(term: &str) -> bool {
    static WORDS: OnceLock<HashSet<&'static str>> = OnceLock::new();
    WORDS
        .get_or_init(|| {
            STOP_WORD_LANGUAGES
                .iter()
                .filter_map(|code| stop_words::lookup(code))
                .flatten()
                .copied()
                .collect()
        })
        .contains(term)
}

/// A pair of neighbouring words that comes back this often on a page is a keyphrase.
const PHRASE_REPEATS: f32 = 2.0;

/// Whether `word` can end a keyphrase. A phrase names a thing ("audit committee", "net
/// sales"); one ending in a verb is a clause cut in two: "votes set (forth)", "votes
/// cast", "shareholders held". Stop-word lists keep these verbs, so they are named here.
fn ends_a_phrase(word: &str) -> bool {
    const VERBS: [&str; 10] = [
        "set",
        "forth",
        "cast",
        "made",
        "held",
        "taken",
        "given",
        "based",
        "paid",
        "including",
    ];
    let past_participle = word.ends_with("ed") && word.chars().count() > 4;
    !(VERBS.contains(&word) || past_participle)
}

/// The page's most distinctive terms (TF-IDF against its document), stop words left out:
/// "were", "that" or "forth" may be rare on a page and still say nothing about it. Two
/// words that stand together on the page more than once ("audit committee", "net
/// sales") are one keyphrase, scored as the better of its words, and then neither word
/// is listed on its own: a reader learns more from the phrase.
fn distinctive_terms(text: &str, stats: &TermStats, limit: usize) -> Vec<String> {
    let words: Vec<String> = terms(text).collect();
    let mut frequency: HashMap<String, f32> = HashMap::new();
    for term in words.iter().filter(|term| !is_stop_word(term)) {
        *frequency.entry(term.clone()).or_default() += 1.0;
    }
    let mut pairs: HashMap<(&str, &str), f32> = HashMap::new();
    for pair in words.windows(2) {
        if let [first, second] = pair {
            if first != second
                && !is_stop_word(first)
                && !is_stop_word(second)
                && ends_a_phrase(second)
            {
                *pairs.entry((first, second)).or_default() += 1.0;
            }
        }
    }
    let score = |tf: f32, idf: f32| (1.0 + tf.ln()) * idf;
    let mut scored: Vec<(String, f32)> = pairs
        .into_iter()
        .filter(|&(_, tf)| tf >= PHRASE_REPEATS)
        .map(|((first, second), tf)| {
            let idf = stats.idf(first).max(stats.idf(second));
            (format!("{first} {second}"), score(tf, idf))
        })
        .chain(
            frequency
                .into_iter()
                .map(|(term, tf)| (term.clone(), score(tf, stats.idf(&term)))),
        )
        .filter(|(_, score)| *score > 0.0)
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut chosen: Vec<String> = Vec::new();
    let mut in_phrases: HashSet<String> = HashSet::new();
    for (term, _) in scored {
        let Some((first, second)) = term.split_once(' ') else {
            if chosen.len() < limit && !in_phrases.contains(&term) {
                chosen.push(term);
            }
            continue;
        };
        // A phrase scores no higher than its better word, which is listed by then: the
        // phrase takes that word's place (and drops the other word, if listed).
        let slots: Vec<usize> = chosen
            .iter()
            .enumerate()
            .filter(|(_, c)| *c == first || *c == second)
            .map(|(index, _)| index)
            .collect();
        if slots.is_empty() && chosen.len() == limit {
            continue;
        }
        in_phrases.insert(first.to_string());
        in_phrases.insert(second.to_string());
        match slots.as_slice() {
            [] => chosen.push(term),
            [slot, rest @ ..] => {
                chosen[*slot] = term.clone();
                for &other in rest.iter().rev() {
                    chosen.remove(other);
                }
            }
        }
    }
    chosen
}

fn split_sentences(text: &str) -> Vec<String> {
    text.split_sentence_bounds()
        .flat_map(|sentence| sentence.split("\n\n"))
        .map(|sentence| sentence.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|sentence| sentence.chars().any(char::is_alphabetic))
        .map(|sentence| truncate_words(&sentence, MAX_SENTENCE_WORDS))
        .collect()
}

/// Scores sentences by the information their terms carry (with `boost` for terms many
/// children share), then keeps the best ones that fit `word_budget`, in text order.
fn pick_sentences(
    sentences: &[String],
    stats: &TermStats,
    word_budget: usize,
    boost: &HashMap<String, f32>,
) -> String {
    let mut ranked: Vec<(usize, f32, usize)> = sentences
        .iter()
        .enumerate()
        .map(|(index, sentence)| {
            let unique: HashSet<String> = terms(sentence).collect();
            let weight: f32 = unique
                .iter()
                .map(|term| stats.idf(term) * boost.get(term).copied().unwrap_or(1.0))
                .sum();
            let words = sentence.split_whitespace().count().max(1);
            (index, weight / (words as f32).sqrt(), words)
        })
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut chosen = Vec::new();
    let mut used = 0;
    for (index, _, words) in ranked {
        if used + words > word_budget {
            if chosen.is_empty() {
                chosen.push(index);
                break;
            }
            continue;
        }
        used += words;
        chosen.push(index);
    }
    chosen.sort_unstable();
    let joined = chosen
        .into_iter()
        .map(|index| sentences[index].as_str())
        .collect::<Vec<_>>()
        .join(" ");
    truncate_words(&joined, word_budget)
}

fn truncate_words(text: &str, limit: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.len() <= limit {
        return words.join(" ");
    }
    format!("{} …", words[..limit].join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGES: [&str; 3] = [
        "Annual report. The volcano erupted with magma. Magma flows cooled slowly.",
        "Annual report. Revenue grew in the second quarter. Revenue was strong.",
        "Annual report. The castle had a portcullis. The portcullis was iron.",
    ];

    #[test]
    fn words_that_stand_together_more_than_once_are_one_keyphrase() {
        let pages = [
            "The audit committee met. The audit committee chose the auditor. Revenue grew.",
            "Revenue grew in the quarter. Costs fell.",
            "Revenue grew again. Margins held.",
        ];
        let stats = TermStats::from_pages(pages);
        let keywords = describe_page(pages[0], &stats, 50).keywords;
        assert!(
            keywords.contains(&"audit committee".to_string()),
            "{keywords:?}"
        );
        assert!(!keywords.contains(&"audit".to_string()), "{keywords:?}");
        assert!(!keywords.contains(&"committee".to_string()), "{keywords:?}");
        // "committee chose" stands together once only.
        assert!(
            !keywords.iter().any(|k| k == "committee chose"),
            "{keywords:?}"
        );
        // A verb does not end a phrase, however often the pair comes back.
        let pages = ["The votes set forth below. The votes set forth above. Votes cast."; 1];
        let keywords = describe_page(pages[0], &TermStats::from_pages(pages), 50).keywords;
        assert!(!keywords.iter().any(|k| k.contains(' ')), "{keywords:?}");
    }

    #[test]
    fn keywords_are_the_terms_distinctive_to_the_page() {
        let stats = TermStats::from_pages(PAGES);
        let description = describe_page(PAGES[0], &stats, 50);
        assert_eq!(
            description.keywords.first().map(String::as_str),
            Some("magma")
        );
        assert!(!description.keywords.contains(&"annual".to_string()));
    }

    #[test]
    fn keywords_leave_out_stop_words_of_english_russian_and_spanish() {
        let pages = [
            "Were the nominees set forth above elected? Her votes were counted.",
            "Дивиденды были выплачены, потому что прибыль выросла.",
            "Los ingresos fueron mayores porque las ventas crecieron.",
        ];
        let stats = TermStats::from_pages(pages);
        for page in pages {
            let keywords = describe_page(page, &stats, 50).keywords;
            assert!(!keywords.is_empty(), "{page}");
            let stop: Vec<&String> = keywords.iter().filter(|k| is_stop_word(k)).collect();
            assert!(stop.is_empty(), "{stop:?} in {keywords:?}");
        }
        for word in ["were", "that", "her", "above", "forth", "потому", "porque"] {
            assert!(is_stop_word(word), "{word}");
        }
        assert!(!is_stop_word("dividends") && !is_stop_word("дивиденды"));
    }

    #[test]
    fn description_keeps_informative_sentences_in_page_order_within_budget() {
        let stats = TermStats::from_pages(PAGES);
        let description = describe_page(PAGES[2], &stats, 10);
        assert!(description.description.contains("portcullis"));
        assert!(!description.description.contains("Annual report"));
        assert!(description.description.split_whitespace().count() <= 10);
    }

    #[test]
    fn a_long_sentence_is_truncated_rather_than_dropped() {
        let long = "word ".repeat(500);
        let stats = TermStats::from_pages([long.as_str()]);
        let description = describe_page(&long, &stats, 20);
        assert!(description.description.split_whitespace().count() <= 21);
        assert!(!description.description.is_empty());
    }

    #[test]
    fn summary_takes_something_from_every_child() {
        let stats = TermStats::from_pages(PAGES);
        let children = [
            "Magma flows cooled slowly.",
            "Revenue was strong.",
            "The portcullis was iron.",
        ];
        let summary = summarise(&children, &stats, 60);
        for needle in ["Magma", "Revenue", "portcullis"] {
            assert!(summary.contains(needle), "{summary}");
        }
    }

    #[test]
    fn cyrillic_terms_are_extracted() {
        let pages = ["Озеро Байкал глубокое.", "Метрополитен Москвы большой."];
        let stats = TermStats::from_pages(pages);
        let description = describe_page(pages[0], &stats, 20);
        assert!(description.keywords.contains(&"байкал".to_string()));
    }
}
