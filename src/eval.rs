//! The benchmark: analyst questions with gold pages, every strategy, the figures that
//! matter (hit rate, page recall, context size, latency).

pub mod answers;

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::library::{Library, LibraryError};
use crate::search::balance::DenseBalance;
use crate::search::{SearchSettings, Strategy};

#[derive(Debug, Clone, Deserialize)]
struct RawQuestion {
    financebench_id: String,
    doc_name: String,
    question: String,
    evidence: Vec<RawEvidence>,
}

#[derive(Debug, Clone, Deserialize)]
struct RawEvidence {
    doc_name: String,
    /// Zero-based in the benchmark file.
    page_index: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct BenchQuestion {
    pub id: String,
    pub question: String,
    pub doc_name: String,
    /// (document name, 1-based page)
    pub gold: Vec<(String, u32)>,
}

impl BenchQuestion {
    /// The question and its gold pages as a bench run keeps them in history.
    pub fn gold_record(&self) -> crate::history::BenchGold {
        crate::history::BenchGold {
            question: self.question.clone(),
            pages: self
                .gold
                .iter()
                .map(|(document, page)| crate::history::GoldPage {
                    document: document.clone(),
                    page: *page,
                })
                .collect(),
        }
    }
}

/// Reads a FinanceBench-style JSONL file; gold pages become 1-based.
pub fn load_questions(path: &Path) -> std::result::Result<Vec<BenchQuestion>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut questions = Vec::new();
    for (line_number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let raw: RawQuestion = serde_json::from_str(line)
            .map_err(|e| format!("{} line {}: {e}", path.display(), line_number + 1))?;
        let mut gold: Vec<(String, u32)> = raw
            .evidence
            .iter()
            .map(|e| (e.doc_name.clone(), e.page_index + 1))
            .collect();
        gold.sort();
        gold.dedup();
        questions.push(BenchQuestion {
            id: raw.financebench_id,
            question: raw.question,
            doc_name: raw.doc_name,
            gold,
        });
    }
    Ok(questions)
}

/// Renames documents in questions and gold pages (file stem → the library's name for
/// the same content).
pub fn apply_aliases(questions: &mut [BenchQuestion], aliases: &HashMap<String, String>) {
    let rename = |name: &mut String| {
        if let Some(alias) = aliases.get(name.as_str()) {
            *name = alias.clone();
        }
    };
    for question in questions {
        rename(&mut question.doc_name);
        for (document, _) in &mut question.gold {
            rename(document);
        }
    }
}

/// One question under one strategy.
#[derive(Debug, Clone, Serialize)]
pub struct QuestionRun {
    pub question_id: String,
    pub hit: bool,
    pub recall: f64,
    pub pages: usize,
    pub tokens: usize,
    pub latency_ms: f64,
    pub search_ms: f64,
    /// Where the question's own document ranked at the first step (1 = first); none
    /// when it was not among the step's candidates.
    pub document_rank: Option<usize>,
    /// For each ranking step of the search (roots, expansions, the collapsed tree's one
    /// list), the share of its candidates the step kept: a fixed beam's falls as the
    /// candidates grow, an adaptive cut's varies with the question.
    pub kept_shares: Vec<f64>,
    pub error: Option<String>,
}

/// How much of its candidates one step of a strategy keeps, over the questions.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepShare {
    /// The step, from 1 (the first ranking); 0 stands for every step together.
    pub step: usize,
    /// Questions whose search had this step.
    pub questions: usize,
    pub mean: f64,
    /// The standard deviation over those questions.
    pub spread: f64,
}

/// The steps whose kept share tells how a strategy cuts: rankings of more than one
/// candidate, not narrowing (which has its own cap) or the final selection.
pub(crate) fn kept_shares(trace: &[crate::search::TraceStep]) -> Vec<f64> {
    trace
        .iter()
        .filter(|step| step.label != "selected" && !step.label.starts_with("narrow"))
        .filter(|step| step.candidates.len() > 1)
        .map(|step| step.kept as f64 / step.candidates.len() as f64)
        .collect()
}

/// The mean and spread of the kept share of every step up to `steps`, and of all steps
/// together (step 0).
pub fn step_shares(runs: &[QuestionRun], steps: usize) -> Vec<StepShare> {
    let summary = |step: usize, values: Vec<f64>| {
        let mean = mean(values.iter().copied());
        let spread = if values.len() > 1 {
            (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (values.len() - 1) as f64)
                .sqrt()
        } else {
            0.0
        };
        StepShare {
            step,
            questions: values.len(),
            mean,
            spread,
        }
    };
    let all: Vec<f64> = runs
        .iter()
        .flat_map(|r| r.kept_shares.iter().copied())
        .collect();
    let mut shares = vec![summary(0, all)];
    for step in 1..=steps {
        let values: Vec<f64> = runs
            .iter()
            .filter_map(|r| r.kept_shares.get(step - 1).copied())
            .collect();
        if values.is_empty() {
            break;
        }
        shares.push(summary(step, values));
    }
    shares
}

#[derive(Debug, Clone, Serialize)]
pub struct StrategyReport {
    pub strategy: Strategy,
    pub questions: usize,
    pub failed: usize,
    pub hit_rate: f64,
    pub page_recall: f64,
    pub mean_pages: f64,
    pub mean_tokens: f64,
    pub median_latency_ms: f64,
    pub p95_latency_ms: f64,
    pub median_search_ms: f64,
    /// Hits per 1,000 context tokens: how much each token buys.
    pub hits_per_1k_tokens: f64,
    /// Share of questions whose document ranked first at the first step, and in the
    /// first five.
    pub document_recall_at_1: f64,
    pub document_recall_at_5: f64,
    /// The kept share of every step together (step 0), then of steps 1, 2, … .
    pub step_shares: Vec<StepShare>,
    pub runs: Vec<QuestionRun>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BenchReport {
    pub per_document: bool,
    pub documents: usize,
    /// Fusion weights as given, relative to the model's balance ...
    pub settings: SearchSettings,
    /// ... which is this: what the library's dense model's half was weighted by.
    pub dense_balance: DenseBalance,
    pub median_embed_ms: f64,
    pub strategies: Vec<StrategyReport>,
}

/// Scores one context against the gold pages.
pub fn score(gold: &[(String, u32)], returned: &HashSet<(String, u32)>) -> (bool, f64) {
    if gold.is_empty() {
        return (false, 0.0);
    }
    let found = gold.iter().filter(|g| returned.contains(*g)).count();
    (found > 0, found as f64 / gold.len() as f64)
}

pub(crate) fn percentile(values: &[f64], q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    // Nearest-rank percentile: the smallest value with at least q of the data at or below it.
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, count) = values.fold((0.0, 0usize), |(s, c), v| (s + v, c + 1));
    if count == 0 {
        0.0
    } else {
        sum / count as f64
    }
}

fn share(runs: &[QuestionRun], within: impl Fn(usize) -> bool) -> f64 {
    if runs.is_empty() {
        return 0.0;
    }
    let found = runs
        .iter()
        .filter(|r| r.document_rank.is_some_and(&within))
        .count();
    found as f64 / runs.len() as f64
}

/// The 1-based rank of `document` among the documents of a search's first step, in
/// the order their best node appears (roots for tree strategies, pages for top-k).
pub fn document_rank(result: &crate::search::SearchResult, document: i64) -> Option<usize> {
    let first = result.trace.first()?;
    let mut seen: Vec<i64> = Vec::new();
    for candidate in &first.candidates {
        let doc = crate::tree::doc_id_of(candidate.id);
        if !seen.contains(&doc) {
            seen.push(doc);
        }
        if doc == document {
            return Some(seen.len());
        }
    }
    None
}

/// Steps whose kept share a report gives one by one (trees are rarely deeper).
pub(crate) const REPORTED_STEPS: usize = 6;

pub fn summarise(strategy: Strategy, runs: Vec<QuestionRun>) -> StrategyReport {
    let ok: Vec<&QuestionRun> = runs.iter().filter(|r| r.error.is_none()).collect();
    let latencies: Vec<f64> = ok.iter().map(|r| r.latency_ms).collect();
    let searches: Vec<f64> = ok.iter().map(|r| r.search_ms).collect();
    let hits = runs.iter().filter(|r| r.hit).count() as f64;
    let total_tokens: f64 = ok.iter().map(|r| r.tokens as f64).sum();
    StrategyReport {
        strategy,
        questions: runs.len(),
        failed: runs.len() - ok.len(),
        hit_rate: if runs.is_empty() {
            0.0
        } else {
            hits / runs.len() as f64
        },
        page_recall: mean(runs.iter().map(|r| r.recall)),
        mean_pages: mean(ok.iter().map(|r| r.pages as f64)),
        mean_tokens: mean(ok.iter().map(|r| r.tokens as f64)),
        median_latency_ms: percentile(&latencies, 0.5),
        p95_latency_ms: percentile(&latencies, 0.95),
        median_search_ms: percentile(&searches, 0.5),
        hits_per_1k_tokens: if total_tokens > 0.0 {
            hits * 1000.0 / total_tokens
        } else {
            0.0
        },
        document_recall_at_1: share(&runs, |rank| rank == 1),
        document_recall_at_5: share(&runs, |rank| rank <= 5),
        step_shares: step_shares(&runs, REPORTED_STEPS),
        runs,
    }
}

/// Documents named in a message about questions the library cannot answer.
const MISSING_NAMED: usize = 5;

/// Says which questions are about a document the library does not hold, or None when
/// it holds all of them. Such a question could never be found: scored as a miss it
/// would lower every strategy's hit rate without a word, and searched alone it has
/// nothing to search.
fn missing_documents_message(
    questions: &[BenchQuestion],
    in_library: &HashMap<&str, i64>,
) -> Option<String> {
    let mut missing: Vec<(&str, Vec<&str>)> = Vec::new();
    for question in questions {
        if in_library.contains_key(question.doc_name.as_str()) {
            continue;
        }
        match missing
            .iter_mut()
            .find(|(name, _)| *name == question.doc_name)
        {
            Some((_, ids)) => ids.push(&question.id),
            None => missing.push((&question.doc_name, vec![&question.id])),
        }
    }
    if missing.is_empty() {
        return None;
    }
    let unanswerable: usize = missing.iter().map(|(_, ids)| ids.len()).sum();
    let mut named: Vec<String> = missing
        .iter()
        .take(MISSING_NAMED)
        .map(|(name, ids)| format!("{name} (question {})", ids.join(", ")))
        .collect();
    if missing.len() > MISSING_NAMED {
        named.push(format!("and {} more", missing.len() - MISSING_NAMED));
    }
    Some(format!(
        "{unanswerable} of {} questions are about documents that are not in the library: {}. \
         Add them first (bench --pdfs FOLDER ingests the ones missing from that folder).",
        questions.len(),
        named.join("; ")
    ))
}

impl Library {
    /// Runs every strategy on every question. With `per_document`, each question only
    /// searches the filing it is about.
    pub async fn bench(
        &self,
        questions: &[BenchQuestion],
        strategies: &[Strategy],
        settings: &SearchSettings,
        per_document: bool,
    ) -> Result<BenchReport> {
        let documents = self.searchable_documents(None).await?;
        let by_name: HashMap<&str, i64> =
            documents.iter().map(|d| (d.name.as_str(), d.id)).collect();
        let names: HashMap<i64, &str> = documents.iter().map(|d| (d.id, d.name.as_str())).collect();
        if let Some(message) = missing_documents_message(questions, &by_name) {
            return Err(LibraryError::Settings(message).into());
        }
        let mut runs: Vec<Vec<QuestionRun>> = vec![Vec::new(); strategies.len()];
        let mut embed_times = Vec::new();
        for question in questions {
            let mut question_settings = settings.clone();
            if per_document {
                // Always found: a question about a document the library lacks stopped the
                // run above.
                question_settings.documents =
                    by_name.get(question.doc_name.as_str()).map(|&id| vec![id]);
            }
            let (query, embed_ms) = self.embed_query_timed(&question.question).await?;
            embed_times.push(embed_ms);
            for (index, strategy) in strategies.iter().enumerate() {
                let run = match self
                    .search_with_query(
                        &question.question,
                        &query,
                        embed_ms,
                        strategy,
                        &question_settings,
                    )
                    .await
                {
                    Ok(result) => {
                        let returned: HashSet<(String, u32)> = result
                            .context
                            .pages
                            .iter()
                            .filter_map(|p| names.get(&p.doc_id).map(|n| (n.to_string(), p.page)))
                            .collect();
                        let (hit, recall) = score(&question.gold, &returned);
                        let document_rank = by_name
                            .get(question.doc_name.as_str())
                            .and_then(|&id| document_rank(&result, id));
                        QuestionRun {
                            question_id: question.id.clone(),
                            hit,
                            recall,
                            pages: result.context.pages.len(),
                            tokens: result.context.tokens,
                            latency_ms: result.latency_ms,
                            search_ms: result.search_ms,
                            document_rank,
                            kept_shares: kept_shares(&result.trace),
                            error: None,
                        }
                    }
                    Err(err) => QuestionRun {
                        question_id: question.id.clone(),
                        hit: false,
                        recall: 0.0,
                        pages: 0,
                        tokens: 0,
                        latency_ms: 0.0,
                        search_ms: 0.0,
                        document_rank: None,
                        kept_shares: Vec::new(),
                        error: Some(err.to_string()),
                    },
                };
                runs[index].push(run);
            }
        }
        Ok(BenchReport {
            per_document,
            documents: documents.len(),
            settings: settings.clone(),
            dense_balance: self.dense_balance(),
            median_embed_ms: percentile(&embed_times, 0.5),
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

    fn question(id: &str, doc_name: &str) -> BenchQuestion {
        BenchQuestion {
            id: id.to_string(),
            question: "Q?".to_string(),
            doc_name: doc_name.to_string(),
            gold: vec![(doc_name.to_string(), 1)],
        }
    }

    #[test]
    fn questions_about_documents_outside_the_library_are_named_before_any_search() {
        let in_library: HashMap<&str, i64> = [("HELD", 1)].into_iter().collect();
        let questions = [
            question("a", "HELD"),
            question("b", "GONE"),
            question("c", "GONE"),
            question("d", "ALSO_GONE"),
        ];
        let message = missing_documents_message(&questions, &in_library).expect("missing");
        assert!(
            message.starts_with("3 of 4 questions are about documents that are not in the library: GONE (question b, c); ALSO_GONE (question d)."),
            "{message}"
        );
        assert!(message.contains("--pdfs"), "{message}");
        assert_eq!(
            missing_documents_message(&questions[..1], &in_library),
            None
        );
    }

    #[test]
    fn a_long_list_of_missing_documents_is_cut_short() {
        let questions: Vec<BenchQuestion> = (0..8)
            .map(|n| question(&format!("q{n}"), &format!("DOC{n}")))
            .collect();
        let message = missing_documents_message(&questions, &HashMap::new()).expect("missing");
        assert!(
            message.contains("DOC4 (question q4); and 3 more."),
            "{message}"
        );
        assert!(!message.contains("DOC5"), "{message}");
    }

    #[test]
    fn gold_pages_become_one_based() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("q.jsonl");
        std::fs::write(
            &path,
            r#"{"financebench_id":"a","doc_name":"D","question":"Q?","evidence":[{"doc_name":"D","page_index":0},{"doc_name":"D","page_index":59}]}"#,
        )
        .expect("write");
        let questions = load_questions(&path).expect("parses");
        assert_eq!(
            questions[0].gold,
            vec![("D".to_string(), 1), ("D".to_string(), 60)]
        );
    }

    #[test]
    fn aliases_rename_questions_and_gold_pages() {
        let mut questions = vec![BenchQuestion {
            id: "q".into(),
            question: "?".into(),
            doc_name: "B".into(),
            gold: vec![("B".into(), 2), ("C".into(), 1)],
        }];
        apply_aliases(
            &mut questions,
            &HashMap::from([("B".to_string(), "A".to_string())]),
        );
        assert_eq!(questions[0].doc_name, "A");
        assert_eq!(
            questions[0].gold,
            vec![("A".to_string(), 2), ("C".to_string(), 1)]
        );
    }

    #[test]
    fn hit_and_recall() {
        let gold = vec![("D".to_string(), 1), ("D".to_string(), 2)];
        let returned: HashSet<(String, u32)> = [("D".to_string(), 2), ("E".to_string(), 1)].into();
        assert_eq!(score(&gold, &returned), (true, 0.5));
        assert_eq!(score(&gold, &HashSet::new()), (false, 0.0));
    }

    #[test]
    fn nearest_rank_percentiles() {
        let values: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(percentile(&values, 0.5), 10.0);
        assert_eq!(percentile(&values, 0.95), 19.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
    }

    #[test]
    fn summary_counts_failures_as_misses() {
        let run = |hit: bool, tokens: usize, error: Option<&str>| QuestionRun {
            question_id: "q".into(),
            hit,
            recall: if hit { 1.0 } else { 0.0 },
            pages: 1,
            tokens,
            latency_ms: 1.0,
            search_ms: 1.0,
            document_rank: hit.then_some(1),
            kept_shares: Vec::new(),
            error: error.map(String::from),
        };
        let report = summarise(
            Strategy::Flat { k: 1 },
            vec![
                run(true, 500, None),
                run(false, 1500, None),
                run(false, 0, Some("x")),
            ],
        );
        assert!((report.hit_rate - 1.0 / 3.0).abs() < 1e-9);
        assert_eq!(report.failed, 1);
        assert_eq!(report.mean_tokens, 1000.0);
        assert_eq!(report.hits_per_1k_tokens, 0.5);
        assert!((report.document_recall_at_1 - 1.0 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn kept_shares_come_from_the_cutting_steps_and_summarise_per_step() {
        let step = |label: &str, candidates: usize, kept: usize| crate::search::TraceStep {
            label: label.into(),
            candidates: (0..candidates as u64)
                .map(|id| crate::store::ScoredNode { id, score: 1.0 })
                .collect(),
            knee_index: None,
            kept,
            eliminated: Vec::new(),
            beam: Vec::new(),
        };
        let trace = [
            step("roots", 10, 2),
            step("expand", 8, 4),
            step("expand", 1, 1),
            step("narrow pages 1-20 of a.pdf", 20, 3),
            step("selected", 3, 3),
        ];
        assert_eq!(kept_shares(&trace), [0.2, 0.5]);
        let run = |shares: Vec<f64>| QuestionRun {
            question_id: "q".into(),
            hit: false,
            recall: 0.0,
            pages: 1,
            tokens: 1,
            latency_ms: 1.0,
            search_ms: 1.0,
            document_rank: None,
            kept_shares: shares,
            error: None,
        };
        let shares = step_shares(&[run(vec![0.2, 0.5]), run(vec![0.4])], 6);
        assert_eq!(shares.len(), 3, "all steps, then steps 1 and 2");
        assert_eq!((shares[1].step, shares[1].questions), (1, 2));
        assert!((shares[1].mean - 0.3).abs() < 1e-9);
        assert!((shares[1].spread - 0.02f64.sqrt()).abs() < 1e-9);
        assert_eq!((shares[2].questions, shares[2].spread), (1, 0.0));
        assert!((shares[0].mean - 1.1 / 3.0).abs() < 1e-9);
    }
}
