//! The answer PageTree gives without a language model: the two or three passages of
//! the pages found (sentences and table rows) that best answer the question, each with
//! its page and where it is on the page.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use qdrant_edge::SparseVector;
use serde::{Deserialize, Serialize};

use super::citations::{check, CheckedAnswer};
use super::layout::{PageLayout, PassageBoxes};
use super::passages::{self, years_in, Candidate, PassageKind};
use super::ratios::{asked_ratio, work_out, AskedRatio};
use crate::embed::{EmbedError, SparseEmbedder};

pub(crate) const NO_MODEL_NOTE: &str =
    "No language model is configured, so here are the most relevant passages of the pages found";
/// Said when no passage of the pages found seems to answer the question.
pub const NOTHING_ANSWERS: &str = "None of the pages found seems to answer the question";

/// Most quotes an answer gives.
const QUOTES: usize = 3;
/// A passage answers when it holds this share of the question's terms (weighted by
/// how rare they are among the passages) ...
const ANSWERING_COVERAGE: f32 = 0.34;
/// ... or its meaning is this close to the question's (cosine).
const ANSWERING_SIMILARITY: f32 = 0.5;

/// A quoted passage of an answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Passage {
    /// The document's name, as citations write it.
    pub document: String,
    pub doc_id: i64,
    /// 1-based PDF page.
    pub page: u32,
    /// The page's printed label, where the PDF has one.
    pub page_label: Option<String>,
    pub quote: String,
    /// "sentence" or "row".
    pub kind: String,
    pub score: f32,
    /// Where the passage is on its page; None for a page without a text layer.
    pub boxes: Option<PassageBoxes>,
    /// A row's values as printed, left to right (none for a sentence): the viewer marks
    /// them in the page's text with the row's label.
    #[serde(default)]
    pub values: Vec<String>,
    /// A row's label as printed (none for a sentence): the quote cannot be split to
    /// find it, since a label may itself hold " — ".
    #[serde(default)]
    pub label: Option<String>,
}

/// One page's passages, ready to be scored against questions (built once, used by any
/// number of questions).
#[derive(Debug, Clone)]
pub struct PageCandidates {
    pub doc_id: i64,
    pub document: String,
    pub page: u32,
    pub layout: Option<PageLayout>,
    pub candidates: Vec<Candidate>,
    sparse: Vec<SparseVector>,
    /// The words its document's card names the organisation by (lowercase): once the
    /// document is found they tell nothing about which of its passages answers.
    pub organisation_words: Arc<[String]>,
}

impl PageCandidates {
    /// The page's passages from its layout (or its stored text when it has none) with
    /// their BM25 vectors.
    pub fn build(
        doc_id: i64,
        document: &str,
        page: u32,
        layout: Option<PageLayout>,
        text: Option<&str>,
        sparse: &SparseEmbedder,
    ) -> Result<Self, EmbedError> {
        let layout = layout.filter(PageLayout::has_text);
        let candidates = match (&layout, text) {
            (Some(layout), _) => passages::from_layout(layout),
            (None, Some(text)) => passages::from_text(text),
            (None, None) => Vec::new(),
        };
        let sparse_vectors = candidates
            .iter()
            .map(|c| sparse.embed_document(&c.match_text()))
            .collect();
        Ok(Self {
            doc_id,
            document: document.to_string(),
            page,
            layout,
            candidates,
            sparse: sparse_vectors,
            organisation_words: Arc::default(),
        })
    }
}

/// What a question asks for.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Asks {
    pub number: bool,
    pub date: bool,
    pub name: bool,
    /// Years the question names (FY2018, 2018, FY22).
    pub years: Vec<u16>,
}

const NUMBER_CUES: [&str; 38] = [
    "how much",
    "how many",
    "amount",
    "total",
    "number of",
    "ratio",
    "rate",
    "percent",
    "%",
    "margin",
    "usd",
    "$",
    "million",
    "billion",
    "value",
    "price",
    "revenue",
    "sales",
    "income",
    "expense",
    "cost",
    "expenditure",
    "capex",
    "cash",
    "debt",
    "liabilit",
    "asset",
    "payable",
    "receivable",
    "eps",
    "dividend",
    "growth",
    "average",
    "difference",
    "gap",
    "score",
    "size",
    "share",
];

pub(crate) fn asks(question: &str) -> Asks {
    let lower = question.to_lowercase();
    let starts = |word: &str| {
        lower.starts_with(word)
            || lower.contains(&format!(". {word}"))
            || lower.contains(&format!("? {word}"))
    };
    Asks {
        number: NUMBER_CUES.iter().any(|cue| lower.contains(cue)),
        date: starts("when")
            || [
                "what date",
                "which date",
                "what year",
                "which year",
                "what day",
            ]
            .iter()
            .any(|cue| lower.contains(cue)),
        name: starts("who")
            || [
                "whom",
                "whose",
                "which company",
                "what company",
                "name of",
                "which person",
            ]
            .iter()
            .any(|cue| lower.contains(cue)),
        years: years_in(question),
    }
}

/// What analysts call a figure, and the words financial statements label it with.
const STATEMENT_WORDS: [(&str, &str); 8] = [
    (
        "capital expenditure",
        "purchases of property, plant and equipment",
    ),
    ("capex", "purchases of property, plant and equipment"),
    ("ppne", "property, plant and equipment, net"),
    ("pp&e", "property, plant and equipment"),
    ("revenue", "net sales revenues"),
    ("topline", "net sales revenues"),
    ("cogs", "cost of sales"),
    ("d&a", "depreciation and amortization"),
];

/// The question with the statement's words for the figures it names added, so that a
/// row labelled as filings label it matches.
fn with_statement_words(question: &str) -> String {
    let lower = question.to_lowercase();
    let mut text = question.to_string();
    for (asked, labelled) in STATEMENT_WORDS {
        if lower.contains(asked) {
            text.push(' ');
            text.push_str(labelled);
        }
    }
    text
}

/// What passages are matched against: the question's asking part (see
/// [`super::asked`]) without the names of the found documents' organisations, which a
/// filing's every page and a few of its rows ("Total MGM Resorts International
/// stockholders' equity") carry.
pub fn question_for_passages(question: &str, pages: &[RankedPage<'_>]) -> String {
    let asked = super::asked::asked_part(question);
    let names: HashSet<&str> = pages
        .iter()
        .flat_map(|p| p.page.organisation_words.iter().map(String::as_str))
        .collect();
    if names.is_empty() {
        return asked;
    }
    let kept: Vec<&str> = asked
        .split_whitespace()
        .filter(|word| {
            let core = word.trim_matches(|c: char| !c.is_alphanumeric());
            let core = core
                .strip_suffix("'s")
                .or_else(|| core.strip_suffix("’s"))
                .unwrap_or(core);
            // Only a name as names are written: "the company" stays.
            let written_as_name = core
                .chars()
                .next()
                .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit());
            !(written_as_name && names.contains(core.to_lowercase().as_str()))
        })
        .collect();
    if kept.is_empty() {
        asked
    } else {
        kept.join(" ")
    }
}

/// The words of an organisation's name and aliases, lowercase, as
/// [`PageCandidates::organisation_words`] holds them.
pub fn organisation_words(card: &crate::card::DocumentCard) -> Arc<[String]> {
    let mut words: Vec<String> = card
        .organization
        .iter()
        .chain(&card.aliases)
        .flat_map(|name| name.split(|c: char| !c.is_alphanumeric()))
        .filter(|word| word.chars().count() >= 2)
        .map(str::to_lowercase)
        .collect();
    words.sort_unstable();
    words.dedup();
    words.into()
}

/// How well a passage carries the kind of thing asked, 0–1.
fn carries(asks: &Asks, candidate: &Candidate) -> f32 {
    let text = candidate.match_text();
    let mut wanted = 0;
    let mut found = 0;
    let mut found_share = 0.0;
    if asks.number {
        wanted += 1;
        let has_number = text.split_whitespace().any(|w| {
            passages::is_value(w.trim_end_matches([',', '.', ';'])) && years_in(w).is_empty()
        });
        // A figure is read best off its table row; a sentence with a number may
        // give it too.
        found_share += if candidate.kind == PassageKind::Row {
            1.0
        } else if has_number {
            0.5
        } else {
            0.0
        };
    }
    if asks.date {
        wanted += 1;
        let lower = text.to_lowercase();
        found += usize::from(
            !years_in(&text).is_empty()
                || crate::card::dates::MONTHS.iter().any(|m| lower.contains(m)),
        );
    }
    if asks.name {
        wanted += 1;
        let words: Vec<&str> = text.split_whitespace().collect();
        let names = words.windows(2).skip(1).any(|pair| {
            pair.iter()
                .all(|w| w.chars().next().is_some_and(char::is_uppercase))
        });
        found += usize::from(names);
    }
    if wanted == 0 {
        0.5
    } else {
        (found as f32 + found_share) / wanted as f32
    }
}

/// How well a passage's years match the years the question names, 0–1 (0.5 when it
/// names none).
fn year_fit(asks: &Asks, candidate: &Candidate) -> f32 {
    if asks.years.is_empty() {
        return 0.5;
    }
    let years = candidate.years();
    if years.iter().any(|y| asks.years.contains(y)) {
        1.0
    } else if years.is_empty() {
        0.3
    } else {
        0.0
    }
}

/// The extractive answer, its quoted passages, and whether any passage seemed to
/// answer.
#[derive(Debug, Clone)]
pub struct ExtractiveAnswer {
    pub checked: CheckedAnswer,
    pub passages: Vec<Passage>,
    pub answered: bool,
}

/// A page's place among those found: its passages and how the search ranked it (0–1,
/// 1 the best).
pub struct RankedPage<'a> {
    pub page: &'a PageCandidates,
    pub rank: f32,
}

/// Passages scored by meaning as well: the best this many by words and kind.
const SHORTLIST: usize = 40;

/// The passages of the found pages best by the question's words and what it asks for,
/// scored once: [`answer`] compares their meaning with the question's and quotes the best.
pub struct Shortlist<'a> {
    asks: Asks,
    /// A ratio the question asks for that the pages' rows may give.
    ratio: Option<AskedRatio>,
    pages: &'a [RankedPage<'a>],
    scored: Vec<Scored<'a>>,
}

impl Shortlist<'_> {
    /// The texts (see [`Candidate::match_text`]) whose meaning [`answer`] compares with
    /// the question's, best by words first.
    pub fn texts(&self) -> impl Iterator<Item = String> + '_ {
        self.scored
            .iter()
            .map(|s| s.page.page.candidates[s.index].match_text())
    }
}

/// The best [`SHORTLIST`] passages of `pages` by words and kind.
pub fn shortlist<'a>(
    question: &str,
    sparse: &SparseEmbedder,
    pages: &'a [RankedPage<'a>],
) -> Shortlist<'a> {
    let asks = asks(question);
    let scored = lexical_scores(question, &asks, sparse, pages);
    Shortlist {
        asks,
        ratio: asked_ratio(question),
        pages,
        scored,
    }
}

struct Scored<'a> {
    page: &'a RankedPage<'a>,
    index: usize,
    bm25: f32,
    coverage: f32,
    fit: f32,
    /// By words, kind and the page's rank alone.
    lexical: f32,
}

/// Every passage scored by the question's words and what it asks for, best first, the
/// best [`SHORTLIST`] kept.
fn lexical_scores<'a>(
    question: &str,
    asks: &Asks,
    sparse: &SparseEmbedder,
    pages: &'a [RankedPage<'a>],
) -> Vec<Scored<'a>> {
    let question_sparse = sparse.embed_query(&with_statement_words(
        &crate::search::query::expand_for_bm25(&question_for_passages(question, pages)),
    ));
    // Term rarity among the passages found: a term every passage has tells nothing.
    let total: usize = pages.iter().map(|p| p.page.candidates.len()).sum();
    let mut holding: HashMap<u32, usize> = HashMap::new();
    for page in pages {
        for vector in &page.page.sparse {
            for &index in &vector.indices {
                *holding.entry(index).or_default() += 1;
            }
        }
    }
    let idf = |index: u32| {
        let n = *holding.get(&index).unwrap_or(&0) as f32;
        ((total as f32 - n + 0.5) / (n + 0.5) + 1.0).ln()
    };
    let question_terms: Vec<(u32, f32)> = question_sparse
        .indices
        .iter()
        .map(|&index| (index, idf(index)))
        .collect();
    let question_weight: f32 = question_terms.iter().map(|(_, w)| w).sum();
    let mut scored: Vec<Scored<'_>> = Vec::new();
    for page in pages {
        for (index, candidate) in page.page.candidates.iter().enumerate() {
            let vector = &page.page.sparse[index];
            let weights: HashMap<u32, f32> = vector
                .indices
                .iter()
                .copied()
                .zip(vector.values.iter().copied())
                .collect();
            let (mut bm25, mut covered) = (0.0, 0.0);
            for (term, weight) in &question_terms {
                if let Some(tf) = weights.get(term) {
                    bm25 += weight * tf;
                    covered += weight;
                }
            }
            let fit = 0.5 * carries(asks, candidate) + 0.5 * year_fit(asks, candidate);
            scored.push(Scored {
                page,
                index,
                bm25,
                coverage: if question_weight > 0.0 {
                    covered / question_weight
                } else {
                    0.0
                },
                fit,
                lexical: 0.0,
            });
        }
    }
    let max_bm25 = scored.iter().map(|s| s.bm25).fold(0.0, f32::max);
    for s in &mut scored {
        let bm25 = if max_bm25 > 0.0 {
            s.bm25 / max_bm25
        } else {
            0.0
        };
        s.bm25 = bm25;
        s.lexical = 0.4 * bm25 + 0.25 * s.coverage + 0.3 * s.fit + 0.05 * s.page.rank;
    }
    scored.sort_by(|a, b| b.lexical.total_cmp(&a.lexical));
    scored.truncate(SHORTLIST);
    scored
}

/// Scores the [`shortlist`]ed passages against the question (`similarity` gives their
/// similarity of meaning to it, by match text) and quotes the best two or three.
pub fn answer(
    shortlist: &Shortlist<'_>,
    similarity: &dyn Fn(&str) -> Option<f32>,
) -> ExtractiveAnswer {
    let Shortlist {
        asks,
        ratio,
        pages,
        scored,
    } = shortlist;
    let worked_out = ratio.as_ref().and_then(|ratio| work_out(ratio, pages));
    let similarities: Vec<f32> = scored
        .iter()
        .map(|s| similarity(&s.page.page.candidates[s.index].match_text()).unwrap_or(0.0))
        .collect();
    let (min_sim, max_sim) = similarities
        .iter()
        .fold((f32::MAX, f32::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let mut ranked: Vec<(f32, &Scored<'_>, f32)> = scored
        .iter()
        .zip(&similarities)
        .map(|(s, &raw)| {
            let meaning = if max_sim > min_sim {
                (raw - min_sim) / (max_sim - min_sim)
            } else {
                0.0
            };
            let value = 0.35 * meaning
                + 0.25 * s.bm25
                + 0.15 * s.coverage
                + 0.2 * s.fit
                + 0.05 * s.page.rank;
            (value, s, raw)
        })
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    // The rows a ratio was worked out from are quoted first, so that its figure can be
    // checked against them on the page.
    let mut chosen: Vec<(f32, &PageCandidates, usize, String)> = Vec::new();
    if let Some(worked) = &worked_out {
        for &(page, index) in &worked.rows {
            let page = pages[page].page;
            let quote = page.candidates[index].quote(&asks.years);
            chosen.push((1.0, page, index, quote));
        }
    }
    let mut answered = worked_out.is_some();
    for (value, s, raw) in ranked {
        if chosen.len() >= QUOTES {
            break;
        }
        let quote = s.page.page.candidates[s.index].quote(&asks.years);
        if chosen.iter().any(|(_, _, _, q)| *q == quote) {
            continue;
        }
        if chosen.is_empty() {
            answered = s.coverage >= ANSWERING_COVERAGE || raw >= ANSWERING_SIMILARITY;
        }
        chosen.push((value, s.page.page, s.index, quote));
    }
    let passages: Vec<Passage> = chosen
        .into_iter()
        .map(|(value, page, index, quote)| passage(page, index, quote, value))
        .collect();
    let mut text = format!("{NO_MODEL_NOTE}:\n");
    if let Some(worked) = &worked_out {
        let mut cited: Vec<String> = Vec::new();
        for passage in &passages[..worked.rows.len()] {
            let citation = format!("[{} p.{}]", passage.document, passage.page);
            if !cited.contains(&citation) {
                cited.push(citation);
            }
        }
        text.push_str(&format!(
            "- Worked out from the rows quoted below: {} {}\n",
            worked.text,
            cited.join(" ")
        ));
    }
    if passages.is_empty() {
        text.push_str(&format!(
            "{NOTHING_ANSWERS}: they have no passage to quote.\n"
        ));
    } else if !answered {
        text.push_str(&format!("{NOTHING_ANSWERS}; the closest passages are:\n"));
    }
    for passage in &passages {
        text.push_str(&format!(
            "- \"{}\" [{} p.{}]\n",
            passage.quote, passage.document, passage.page
        ));
    }
    let in_context = pages
        .iter()
        .map(|p| (p.page.document.to_lowercase(), p.page.page))
        .collect();
    ExtractiveAnswer {
        checked: check(&text, &in_context),
        passages,
        answered,
    }
}

/// The quote `quote` of `page`'s candidate `index`, with its boxes on the page.
fn passage(page: &PageCandidates, index: usize, quote: String, score: f32) -> Passage {
    let candidate = &page.candidates[index];
    let boxes = page.layout.as_ref().and_then(|layout| {
        let boxes = layout.boxes(
            candidate
                .glyphs
                .iter()
                .chain(&candidate.header_glyphs)
                .copied(),
        );
        (!boxes.rects.is_empty()).then_some(boxes)
    });
    Passage {
        document: page.document.clone(),
        doc_id: page.doc_id,
        page: page.page,
        page_label: page.layout.as_ref().and_then(|l| l.label.clone()),
        quote,
        kind: match candidate.kind {
            PassageKind::Sentence => "sentence",
            PassageKind::Row => "row",
        }
        .to_string(),
        score,
        boxes,
        values: candidate.cells.iter().map(|c| c.value.clone()).collect(),
        label: (candidate.kind == PassageKind::Row).then(|| candidate.text.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(number: u32, text: &str, sparse: &SparseEmbedder) -> PageCandidates {
        PageCandidates::build(1, "A", number, None, Some(text), sparse).expect("builds")
    }

    #[test]
    fn quotes_the_row_that_answers_with_the_named_year_first() {
        let sparse = SparseEmbedder::new("english").expect("bm25");
        let statement = page(
            60,
            "Consolidated Statement of Cash Flows\n(Millions) 2018 2017 2016\nNet income $ 5,363 4,869 5,058\nPurchases of property, plant and equipment (PP&E) (1,577) (1,373) (1,420)\nThe company invests in property, plant and equipment every year.",
            &sparse,
        );
        let other = page(
            3,
            "Unrelated intro about the company and its many products.",
            &sparse,
        );
        let question = "What was the FY2017 purchases of property, plant and equipment?";
        let pages = [
            RankedPage {
                page: &statement,
                rank: 1.0,
            },
            RankedPage {
                page: &other,
                rank: 0.5,
            },
        ];
        let answer = answer(&shortlist(question, &sparse, &pages), &|_| None);
        assert!(answer.answered, "{}", answer.checked.text);
        assert_eq!(
            answer.passages[0].quote,
            "Purchases of property, plant and equipment (PP&E) — 2017: (1,373); 2018: (1,577); 2016: (1,420)"
        );
        assert_eq!(
            answer.passages[0].label.as_deref(),
            Some("Purchases of property, plant and equipment (PP&E)")
        );
        assert!(answer.checked.text.contains("[A p.60]"));
        assert!(answer.passages.len() <= QUOTES);
        assert!(!answer.checked.uncited);
    }

    #[test]
    fn a_ratio_is_worked_out_first_and_its_rows_quoted_next() {
        let sparse = SparseEmbedder::new("english").expect("bm25");
        let income = page(
            65,
            "Consolidated Statements of Income\n(in millions) 2021 2020 2019\nNet sales $ 14,082 $ 11,303 $ 11,503\nCost of sales 9,019 7,772 7,468\nOperating income 2,112 509 1,306\nThe company sells glass.",
            &sparse,
        );
        let pages = [RankedPage {
            page: &income,
            rank: 1.0,
        }];
        let question = "What is the FY2019 - FY2021 3 year average operating margin?";
        let answer = answer(&shortlist(question, &sparse, &pages), &|_| None);
        assert!(answer.answered);
        let lines: Vec<&str> = answer.checked.text.lines().collect();
        assert_eq!(
            lines[1],
            "- Worked out from the rows quoted below: Operating margin (operating income / revenue): 2019: 11.35%; 2020: 4.50%; 2021: 15.00%; average of 2019–2021: 10.28% [A p.65]"
        );
        let labels: Vec<Option<&str>> = answer.passages[..2]
            .iter()
            .map(|p| p.label.as_deref())
            .collect();
        assert_eq!(labels, [Some("Operating income"), Some("Net sales")]);
        assert!(!answer.checked.uncited);
    }

    #[test]
    fn says_plainly_when_nothing_answers() {
        let sparse = SparseEmbedder::new("english").expect("bm25");
        let unrelated = page(
            2,
            "The weather was mild and the harvest was early this year.",
            &sparse,
        );
        let question = "Who is the chief executive officer?";
        let pages = [RankedPage {
            page: &unrelated,
            rank: 1.0,
        }];
        let answer = answer(&shortlist(question, &sparse, &pages), &|_| None);
        assert!(!answer.answered);
        assert!(
            answer.checked.text.contains(NOTHING_ANSWERS),
            "{}",
            answer.checked.text
        );
    }

    #[test]
    fn the_found_documents_organisation_is_not_matched_against_their_passages() {
        let sparse = SparseEmbedder::new("english").expect("bm25");
        let mut balance_sheet = page(
            57,
            "December 31, 2018 2017\nAccounts payable $ 302,578 $ 255,028\nTotal MGM Resorts International stockholders' equity 6,512,283 7,577,061",
            &sparse,
        );
        let card = crate::card::DocumentCard {
            organization: Some("MGM Resorts International".to_string()),
            aliases: vec!["MGM".to_string()],
            ..Default::default()
        };
        balance_sheet.organisation_words = organisation_words(&card);
        let pages = [RankedPage {
            page: &balance_sheet,
            rank: 1.0,
        }];
        let question = "Basing your judgments off of the balance sheet, what is the year end FY2018 amount of accounts payable for MGM Resorts? Answer in USD millions.";
        assert_eq!(
            question_for_passages(question, &pages),
            "what is the year end FY2018 amount of accounts payable for"
        );
        let answer = answer(&shortlist(question, &sparse, &pages), &|_| None);
        assert!(
            answer.passages[0].quote.starts_with("Accounts payable"),
            "{}",
            answer.checked.text
        );
        // A common word the name shares is kept when it is not written as a name.
        assert_eq!(
            question_for_passages("How did the resorts do?", &pages),
            "How did the resorts do?"
        );
    }

    #[test]
    fn what_a_question_asks() {
        let asked = asks("What is the FY2018 capital expenditure amount (in USD millions) for 3M?");
        assert!(asked.number && !asked.date && !asked.name);
        assert_eq!(asked.years, vec![2018]);
        assert!(asks("When was the last serious shock recorded?").date);
        assert!(asks("Who are the primary customers of Boeing?").name);
    }
}
