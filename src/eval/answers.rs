//! `bench --answers`: does the answer hold the gold answer? For every strategy, the
//! share of questions whose extractive answer (no model) contains it.
//!
//! What "contains" means, by the gold answer's form:
//! - a number (`$1577.00`, `18.29%`, `17.5`): a number of the answer equal to it at the
//!   gold's precision, signs, currency, %, parentheses and thousands separators aside;
//! - a list (`['White', '10%']`): every item, each by these rules;
//! - a short text (up to eight words): the text, case and spacing aside;
//! - a longer text (an analyst's sentence): every figure it gives other than years, or,
//!   when it gives none, at least 60 % of its content words;
//! - "Not answerable": the answer says that no passage answers.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::BenchQuestion;
use crate::chat::extractive::NOTHING_ANSWERS;
use crate::chat::quotes::CandidateCache;
use crate::error::Result;
use crate::library::{Library, LibraryError};
use crate::search::{SearchSettings, Strategy};

/// Longest gold answer read as a short text, in words.
const SHORT_TEXT_WORDS: usize = 8;
/// Share of a long text answer's content words an answer must hold.
const LONG_TEXT_RECALL: f64 = 0.6;

/// The gold answers of a benchmark file, by question id.
pub fn load_gold_answers(path: &Path) -> std::result::Result<HashMap<String, String>, String> {
    #[derive(Deserialize)]
    struct Line {
        financebench_id: String,
        #[serde(default)]
        answer: Option<String>,
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut answers = HashMap::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let line: Line = serde_json::from_str(line)
            .map_err(|e| format!("{} line {}: {e}", path.display(), number + 1))?;
        if let Some(answer) = line.answer {
            answers.insert(line.financebench_id, answer);
        }
    }
    Ok(answers)
}

/// The form of a gold answer, which decides how it is looked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GoldForm {
    Number,
    List,
    ShortText,
    LongText,
    NotAnswerable,
}

impl GoldForm {
    pub fn of(gold: &str) -> Self {
        let gold = gold.trim();
        if gold.eq_ignore_ascii_case("not answerable") {
            GoldForm::NotAnswerable
        } else if gold.starts_with('[') && gold.ends_with(']') {
            GoldForm::List
        } else if number(gold).is_some() {
            GoldForm::Number
        } else if gold.split_whitespace().count() <= SHORT_TEXT_WORDS {
            GoldForm::ShortText
        } else {
            GoldForm::LongText
        }
    }
}

/// A number as written, sign, currency, percent, parentheses and separators aside:
/// its value and how many decimals it was given with.
fn number(text: &str) -> Option<(f64, usize)> {
    let core = text
        .trim()
        .trim_start_matches(['(', '$', '€', '£', '-', '−', '–', '+', '~'])
        .trim_end_matches([')', '%', '.', ',', ';', ':', '*'])
        .trim_start_matches('$');
    let core = core.replace(',', "");
    if core.is_empty()
        || !core.chars().all(|c| c.is_ascii_digit() || c == '.')
        || core.matches('.').count() > 1
        || !core.chars().any(|c| c.is_ascii_digit())
    {
        return None;
    }
    // "$1577.00" is given to the unit: trailing zeros are not a precision.
    let decimals = core
        .split_once('.')
        .map(|(_, d)| d.trim_end_matches('0').len())
        .unwrap_or(0);
    core.parse::<f64>().ok().map(|value| (value, decimals))
}

/// Every number written in `text`.
fn numbers(text: &str) -> Vec<f64> {
    text.split(|c: char| c.is_whitespace() || matches!(c, '/' | '—' | '–' | ':' | ';' | '|' | '"'))
        .filter_map(|word| number(word).map(|(value, _)| value))
        .collect()
}

/// Units a page may give a figure in below the gold's: the same, thousands of it,
/// millions of it (a filing's "5,466,312" in thousands is the gold's "$5466.00" million).
const UNIT_SCALES: [f64; 3] = [1.0, 1e-3, 1e-6];

fn has_number(answer_numbers: &[f64], (value, decimals): (f64, usize)) -> bool {
    let tolerance = 0.5 * 10f64.powi(-(decimals as i32)) + 1e-9;
    answer_numbers.iter().any(|a| {
        UNIT_SCALES
            .iter()
            .any(|scale| (a * scale - value).abs() < tolerance)
    })
}

fn normalise_text(text: &str) -> String {
    text.to_lowercase()
        .replace(['’', '‘'], "'")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn list_items(gold: &str) -> Vec<String> {
    let inner = gold.trim().trim_start_matches('[').trim_end_matches(']');
    let mut items = Vec::new();
    let mut rest = inner;
    loop {
        rest = rest.trim_start_matches([',', ' ']);
        if rest.is_empty() {
            break;
        }
        let quote = rest.chars().next().filter(|c| matches!(c, '\'' | '"'));
        let (item, after) = match quote {
            Some(q) => {
                let body = &rest[1..];
                match body.find(q) {
                    Some(end) => (&body[..end], &body[end + 1..]),
                    None => (body, ""),
                }
            }
            None => match rest.find(',') {
                Some(end) => (&rest[..end], &rest[end..]),
                None => (rest, ""),
            },
        };
        if !item.trim().is_empty() {
            items.push(item.trim().to_string());
        }
        rest = after;
    }
    items
}

fn item_found(item: &str, answer: &str, answer_numbers: &[f64]) -> bool {
    match number(item) {
        Some(value) => has_number(answer_numbers, value),
        None => normalise_text(answer).contains(&normalise_text(item)),
    }
}

/// Whether `answer` holds the gold answer `gold` (see the module's rules).
pub fn gold_found(gold: &str, answer: &str) -> bool {
    let answer_numbers = numbers(answer);
    match GoldForm::of(gold) {
        GoldForm::NotAnswerable => answer.contains(NOTHING_ANSWERS),
        GoldForm::Number | GoldForm::ShortText => item_found(gold.trim(), answer, &answer_numbers),
        GoldForm::List => {
            let items = list_items(gold);
            !items.is_empty()
                && items
                    .iter()
                    .all(|item| item_found(item, answer, &answer_numbers))
        }
        GoldForm::LongText => {
            let figures: Vec<(f64, usize)> = gold
                .split(|c: char| c.is_whitespace() || c == '/')
                .filter(|w| crate::chat::passages::years_in(w).is_empty())
                .filter_map(number)
                .collect();
            if !figures.is_empty() {
                return figures.iter().all(|f| has_number(&answer_numbers, *f));
            }
            let answer_terms: HashSet<String> =
                crate::describe::extractive::terms(answer).collect();
            let gold_terms: HashSet<String> = crate::describe::extractive::terms(gold)
                .filter(|t| t.chars().count() >= 4)
                .filter(|t| !crate::describe::extractive::is_stop_word(t))
                .collect();
            !gold_terms.is_empty()
                && gold_terms
                    .iter()
                    .filter(|t| answer_terms.contains(*t))
                    .count() as f64
                    >= LONG_TEXT_RECALL * gold_terms.len() as f64
        }
    }
}

/// One question's extractive answer under one strategy.
#[derive(Debug, Clone, Serialize)]
pub struct AnswerRun {
    pub question_id: String,
    pub form: GoldForm,
    pub found: bool,
    /// The gold page was among the pages found.
    pub page_hit: bool,
    pub answered: bool,
    /// The extractive answer as given.
    pub answer: String,
    pub error: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct AnswerShare {
    pub form: GoldForm,
    pub questions: usize,
    pub found: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct StrategyAnswers {
    pub strategy: Strategy,
    pub questions: usize,
    /// Share of questions whose gold answer the answer holds.
    pub found_rate: f64,
    /// The same among questions whose gold page was found.
    pub found_given_page: f64,
    pub page_hit_rate: f64,
    pub by_form: Vec<AnswerShare>,
    pub runs: Vec<AnswerRun>,
}

#[derive(Debug, Clone, Serialize)]
pub struct AnswersReport {
    pub per_document: bool,
    pub documents: usize,
    /// Questions left out because the file gives no gold answer.
    pub without_gold: usize,
    pub strategies: Vec<StrategyAnswers>,
}

fn summarise(strategy: Strategy, runs: Vec<AnswerRun>) -> StrategyAnswers {
    let share = |part: usize, whole: usize| {
        if whole == 0 {
            0.0
        } else {
            part as f64 / whole as f64
        }
    };
    let found = runs.iter().filter(|r| r.found).count();
    let hits: Vec<&AnswerRun> = runs.iter().filter(|r| r.page_hit).collect();
    let mut forms: Vec<GoldForm> = runs.iter().map(|r| r.form).collect();
    forms.sort_by_key(|f| *f as u8);
    forms.dedup();
    StrategyAnswers {
        strategy,
        questions: runs.len(),
        found_rate: share(found, runs.len()),
        found_given_page: share(hits.iter().filter(|r| r.found).count(), hits.len()),
        page_hit_rate: share(hits.len(), runs.len()),
        by_form: forms
            .into_iter()
            .map(|form| AnswerShare {
                form,
                questions: runs.iter().filter(|r| r.form == form).count(),
                found: runs.iter().filter(|r| r.form == form && r.found).count(),
            })
            .collect(),
        runs,
    }
}

impl Library {
    /// Runs every strategy on every question that has a gold answer and checks the
    /// extractive answer against it. With `per_document`, each question only searches
    /// the filing it is about.
    pub async fn bench_answers(
        &self,
        questions: &[BenchQuestion],
        gold: &HashMap<String, String>,
        strategies: &[Strategy],
        settings: &SearchSettings,
        per_document: bool,
    ) -> Result<AnswersReport> {
        let documents = self.searchable_documents(None).await?;
        let by_name: HashMap<&str, i64> =
            documents.iter().map(|d| (d.name.as_str(), d.id)).collect();
        let names: HashMap<i64, &str> = documents.iter().map(|d| (d.id, d.name.as_str())).collect();
        if let Some(message) = super::missing_documents_message(questions, &by_name) {
            return Err(LibraryError::Settings(message).into());
        }
        let mut runs: Vec<Vec<AnswerRun>> = vec![Vec::new(); strategies.len()];
        let mut cache = CandidateCache::new();
        let mut without_gold = 0;
        for question in questions {
            let Some(gold_answer) = gold.get(&question.id) else {
                without_gold += 1;
                continue;
            };
            let mut question_settings = settings.clone();
            if per_document {
                question_settings.documents =
                    by_name.get(question.doc_name.as_str()).map(|&id| vec![id]);
            }
            let (query, embed_ms) = self.embed_query_timed(&question.question).await?;
            for (index, strategy) in strategies.iter().enumerate() {
                let form = GoldForm::of(gold_answer);
                let outcome = match self
                    .search_with_query(
                        &question.question,
                        &query,
                        embed_ms,
                        strategy,
                        &question_settings,
                    )
                    .await
                {
                    Ok(result) => self
                        .extractive_answer_cached(&question.question, &result, &mut cache)
                        .await
                        .map(|answer| (result, answer)),
                    Err(err) => Err(err),
                };
                let run = match outcome {
                    Ok((result, answer)) => {
                        let returned: HashSet<(String, u32)> = result
                            .context
                            .pages
                            .iter()
                            .filter_map(|p| names.get(&p.doc_id).map(|n| (n.to_string(), p.page)))
                            .collect();
                        AnswerRun {
                            question_id: question.id.clone(),
                            form,
                            found: gold_found(gold_answer, &answer.checked.text),
                            page_hit: super::score(&question.gold, &returned).0,
                            answered: answer.answered,
                            answer: answer.checked.text.clone(),
                            error: None,
                        }
                    }
                    Err(err) => AnswerRun {
                        question_id: question.id.clone(),
                        form,
                        found: false,
                        page_hit: false,
                        answered: false,
                        answer: String::new(),
                        error: Some(err.to_string()),
                    },
                };
                runs[index].push(run);
            }
        }
        Ok(AnswersReport {
            per_document,
            documents: documents.len(),
            without_gold,
            strategies: strategies
                .iter()
                .cloned()
                .zip(runs)
                .map(|(strategy, runs)| summarise(strategy, runs))
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_match_at_the_gold_precision_whatever_their_dress() {
        let answer =
            "Purchases of PP&E — 2018: (1,577); 2017: (1,373). Margin 18.29% and $5,466 million.";
        assert!(gold_found("$1577.00", answer));
        assert!(gold_found("18.29%", answer));
        assert!(gold_found("5466", answer));
        assert!(!gold_found("1578", answer));
        assert!(
            gold_found("18.3%", "Margin 18.29%"),
            "18.29 is 18.3 at one decimal"
        );
        assert!(!gold_found("18.2%", "Margin 18.29%"));
        assert!(gold_found("17.5", "a gap of 17.5 points"));
    }

    #[test]
    fn a_figure_given_in_thousands_is_the_gold_in_millions() {
        let answer = "Total current liabilities — 2017: 5,466,312; 2016: 4,586,657";
        assert!(gold_found("$5466.00", answer));
        assert!(gold_found(
            "$8.70",
            "Property, plant and equipment — net — 2018: $8,738"
        ));
        assert!(!gold_found("$5467.00", answer));
        assert!(!gold_found(
            "$8.80",
            "Property, plant and equipment — net — 2018: $8,738"
        ));
    }

    #[test]
    fn lists_need_every_item_and_texts_ignore_case() {
        assert!(gold_found(
            "['White', '10%']",
            "Among white adults the share fell 10% in a year"
        ));
        assert!(!gold_found(
            "['White', '10%']",
            "Among white adults the share fell 12%"
        ));
        assert!(gold_found(
            "Latinos interviewed by cellphone",
            "more LATINOS interviewed  by cellphone"
        ));
        assert_eq!(list_items("[1500, 8000]"), ["1500", "8000"]);
        assert_eq!(GoldForm::of("[1500, 8000]"), GoldForm::List);
    }

    #[test]
    fn long_answers_need_their_figures_or_most_of_their_words() {
        let gold = "The estimated pension benefits were $1097 million, and the estimated health care and life insurance benefits were $862 million.";
        assert_eq!(GoldForm::of(gold), GoldForm::LongText);
        assert!(gold_found(gold, "2024: 1,097 ... health care 862"));
        assert!(!gold_found(gold, "2024: 1,097 only"));
        let words = "Amcor is a global leader in packaging production for various use cases.";
        assert!(gold_found(words, "Amcor is a global leader in developing and producing packaging for various uses, cases"));
        assert!(!gold_found(words, "Amcor makes things."));
    }

    #[test]
    fn not_answerable_is_found_when_the_answer_says_so() {
        assert!(gold_found(
            "Not answerable",
            &format!("{NOTHING_ANSWERS}; the closest")
        ));
        assert!(!gold_found("Not answerable", "Revenue was 5"));
    }
}
