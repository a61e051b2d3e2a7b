//! History: every search, comparison, question and benchmark, kept in the catalog so a
//! person can find, re-run and export them.

use serde::{Deserialize, Serialize};
use sqlx::Row;

use crate::catalog::{Catalog, CatalogError};
use crate::chat::citations::Citation;
use crate::search::SearchResult;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum RunKind {
    Search,
    Compare,
    Ask,
    Bench,
}

impl RunKind {
    fn as_str(self) -> &'static str {
        match self {
            RunKind::Search => "search",
            RunKind::Compare => "compare",
            RunKind::Ask => "ask",
            RunKind::Bench => "bench",
        }
    }

    fn parse(text: &str) -> Self {
        match text {
            "compare" => RunKind::Compare,
            "ask" => RunKind::Ask,
            "bench" => RunKind::Bench,
            _ => RunKind::Search,
        }
    }
}

/// A run about to be written.
#[derive(Debug, Clone)]
pub struct NewRun {
    pub kind: RunKind,
    pub conversation_id: Option<i64>,
    pub question: String,
    pub strategy: Option<String>,
    pub settings: serde_json::Value,
    pub selected: serde_json::Value,
    pub pages: serde_json::Value,
    pub trace: serde_json::Value,
    pub metrics: Option<serde_json::Value>,
    pub context_tokens: Option<usize>,
    pub latency_ms: Option<f64>,
    pub embed_ms: Option<f64>,
    pub error: Option<String>,
}

impl NewRun {
    pub fn from_search(kind: RunKind, conversation_id: Option<i64>, result: &SearchResult) -> Self {
        Self {
            kind,
            conversation_id,
            question: result.question.clone(),
            strategy: Some(result.strategy.name().to_string()),
            settings: serde_json::json!({"strategy": result.strategy, "search": result.settings}),
            selected: serde_json::to_value(&result.selected).unwrap_or_default(),
            pages: serde_json::to_value(&result.context.pages).unwrap_or_default(),
            trace: serde_json::to_value(&result.trace).unwrap_or_default(),
            metrics: None,
            context_tokens: Some(result.context.tokens),
            latency_ms: Some(result.latency_ms),
            embed_ms: Some(result.embed_ms),
            error: None,
        }
    }

    pub fn failed(
        kind: RunKind,
        conversation_id: Option<i64>,
        question: &str,
        settings: serde_json::Value,
        error: &str,
    ) -> Self {
        Self {
            kind,
            conversation_id,
            question: question.to_string(),
            strategy: settings
                .get("strategy")
                .and_then(|s| s.get("name"))
                .and_then(|n| n.as_str())
                .map(String::from),
            settings,
            selected: serde_json::json!([]),
            pages: serde_json::json!([]),
            trace: serde_json::json!([]),
            metrics: None,
            context_tokens: None,
            latency_ms: None,
            embed_ms: None,
            error: Some(error.to_string()),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AnswerRecord {
    pub text: String,
    pub citations: Vec<Citation>,
    pub removed: Vec<String>,
    pub uncited: bool,
    pub model: Option<String>,
    pub first_token_ms: Option<f64>,
    pub total_ms: Option<f64>,
}

impl AnswerRecord {
    pub fn new(
        answer: &crate::chat::citations::CheckedAnswer,
        model: Option<String>,
        first_token_ms: Option<f64>,
        total_ms: Option<f64>,
    ) -> Self {
        Self {
            text: answer.text.clone(),
            citations: answer.citations.clone(),
            removed: answer.removed.clone(),
            uncited: answer.uncited,
            model,
            first_token_ms,
            total_ms,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunRecord {
    pub id: i64,
    pub kind: RunKind,
    pub conversation_id: Option<i64>,
    pub question: String,
    pub strategy: Option<String>,
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub settings: serde_json::Value,
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub selected: serde_json::Value,
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub pages: serde_json::Value,
    #[serde(skip_serializing_if = "serde_json::Value::is_null")]
    #[cfg_attr(feature = "ts", ts(type = "TraceStep[]", optional = nullable))]
    pub trace: serde_json::Value,
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub metrics: Option<serde_json::Value>,
    pub context_tokens: Option<i64>,
    pub latency_ms: Option<f64>,
    pub embed_ms: Option<f64>,
    pub status: String,
    pub error: Option<String>,
    pub created_at: String,
    pub answer: Option<AnswerRecord>,
}

const RUN_COLUMNS: &str = "r.id, r.kind, r.conversation_id, r.question, r.strategy, r.settings, r.selected, \
    r.pages, r.trace, r.metrics, r.context_tokens, r.latency_ms, r.embed_ms, r.status, r.error, r.created_at, \
    a.text, a.citations, a.removed, a.uncited, a.model, a.first_token_ms, a.total_ms";

/// A page that answers a benchmark question, as a bench run recorded it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GoldPage {
    /// The document's name in the library.
    pub document: String,
    /// 1-based.
    pub page: u32,
}

/// One question of a bench run and the pages that answer it, kept in the run's metrics
/// under [`BENCH_GOLD_KEY`] so the app can tell which strategies found them.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BenchGold {
    pub question: String,
    pub pages: Vec<GoldPage>,
}

pub const BENCH_GOLD_KEY: &str = "gold";

/// The same question whatever its spacing and case.
fn same_question(a: &str, b: &str) -> bool {
    let words = |s: &str| {
        s.split_whitespace()
            .map(str::to_lowercase)
            .collect::<Vec<_>>()
    };
    words(a) == words(b)
}

impl Catalog {
    pub(crate) async fn new_conversation(&self, title: &str) -> Result<i64, CatalogError> {
        let title: String = title.chars().take(120).collect();
        Ok(
            sqlx::query("INSERT INTO conversations (title) VALUES (?) RETURNING id")
                .bind(title)
                .fetch_one(self.pool())
                .await?
                .get(0),
        )
    }

    pub async fn record_run(&self, run: &NewRun) -> Result<i64, CatalogError> {
        let json = |v: &serde_json::Value| v.to_string();
        Ok(sqlx::query(
            "INSERT INTO runs (kind, conversation_id, question, strategy, settings, selected, pages, trace, metrics, \
             context_tokens, latency_ms, embed_ms, status, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(run.kind.as_str())
        .bind(run.conversation_id)
        .bind(&run.question)
        .bind(&run.strategy)
        .bind(json(&run.settings))
        .bind(json(&run.selected))
        .bind(json(&run.pages))
        .bind(json(&run.trace))
        .bind(run.metrics.as_ref().map(json))
        .bind(run.context_tokens.map(|t| t as i64))
        .bind(run.latency_ms)
        .bind(run.embed_ms)
        .bind(if run.error.is_some() { "failed" } else { "ok" })
        .bind(run.error.as_deref().map(|error| self.scrub(error)))
        .fetch_one(self.pool())
        .await?
        .get(0))
    }

    pub(crate) async fn record_answer(
        &self,
        run_id: i64,
        answer: &AnswerRecord,
    ) -> Result<(), CatalogError> {
        sqlx::query(
            "INSERT OR REPLACE INTO answers (run_id, text, citations, removed, uncited, model, first_token_ms, total_ms) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(run_id)
        .bind(&answer.text)
        .bind(serde_json::to_string(&answer.citations).unwrap_or_default())
        .bind(serde_json::to_string(&answer.removed).unwrap_or_default())
        .bind(answer.uncited)
        .bind(&answer.model)
        .bind(answer.first_token_ms)
        .bind(answer.total_ms)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Newest first; `matching` filters on the question's text.
    pub async fn runs(
        &self,
        limit: usize,
        matching: Option<&str>,
    ) -> Result<Vec<RunRecord>, CatalogError> {
        let sql = format!(
            "SELECT {RUN_COLUMNS} FROM runs r LEFT JOIN answers a ON a.run_id = r.id \
             WHERE (?1 IS NULL OR r.question LIKE '%' || ?1 || '%' OR a.text LIKE '%' || ?1 || '%') \
             ORDER BY r.id DESC LIMIT ?2"
        );
        let rows = sqlx::query(&sql)
            .bind(matching)
            .bind(limit as i64)
            .fetch_all(self.pool())
            .await?;
        Ok(rows.iter().map(|row| run_record(row, false)).collect())
    }

    /// The newest `limit` runs with everything they recorded (traces included), newest
    /// first, for export.
    pub async fn full_runs(&self, limit: usize) -> Result<Vec<RunRecord>, CatalogError> {
        let mut runs = Vec::new();
        for run in self.runs(limit, None).await? {
            if let Some(full) = self.run(run.id).await? {
                runs.push(full);
            }
        }
        Ok(runs)
    }

    pub async fn run(&self, id: i64) -> Result<Option<RunRecord>, CatalogError> {
        let sql = format!("SELECT {RUN_COLUMNS} FROM runs r LEFT JOIN answers a ON a.run_id = r.id WHERE r.id = ?");
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.map(|row| run_record(&row, true)))
    }

    /// The pages that answer `question`, from the newest bench run that asked it; empty
    /// when no bench run did.
    pub async fn bench_gold(&self, question: &str) -> Result<Vec<GoldPage>, CatalogError> {
        let rows = sqlx::query("SELECT metrics FROM runs WHERE kind = 'bench' ORDER BY id DESC")
            .fetch_all(self.pool())
            .await?;
        for row in rows {
            let Some(text) = row.get::<Option<String>, _>(0) else {
                continue;
            };
            let Ok(mut metrics) = serde_json::from_str::<serde_json::Value>(&text) else {
                continue;
            };
            let Some(gold) = metrics.get_mut(BENCH_GOLD_KEY).map(serde_json::Value::take) else {
                continue;
            };
            let Ok(gold) = serde_json::from_value::<Vec<BenchGold>>(gold) else {
                continue;
            };
            if let Some(found) = gold
                .into_iter()
                .find(|g| same_question(&g.question, question))
            {
                return Ok(found.pages);
            }
        }
        Ok(Vec::new())
    }

    /// The finished questions and answers of a conversation, oldest first.
    pub async fn conversation_turns(
        &self,
        conversation_id: i64,
    ) -> Result<Vec<(String, String)>, CatalogError> {
        let rows = sqlx::query(
            "SELECT r.question, a.text FROM runs r JOIN answers a ON a.run_id = r.id \
             WHERE r.conversation_id = ? AND r.status = 'ok' ORDER BY r.id",
        )
        .bind(conversation_id)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(|row| (row.get(0), row.get(1))).collect())
    }
}

fn run_record(row: &sqlx::sqlite::SqliteRow, with_trace: bool) -> RunRecord {
    let json = |column: &str| -> serde_json::Value {
        row.get::<Option<String>, _>(column)
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or(serde_json::Value::Null)
    };
    let answer = row
        .get::<Option<String>, _>("text")
        .map(|text| AnswerRecord {
            text,
            citations: serde_json::from_value(json("citations")).unwrap_or_default(),
            removed: serde_json::from_value(json("removed")).unwrap_or_default(),
            uncited: row.get::<Option<bool>, _>("uncited").unwrap_or(false),
            model: row.get("model"),
            first_token_ms: row.get("first_token_ms"),
            total_ms: row.get("total_ms"),
        });
    RunRecord {
        id: row.get("id"),
        kind: RunKind::parse(row.get::<String, _>("kind").as_str()),
        conversation_id: row.get("conversation_id"),
        question: row.get("question"),
        strategy: row.get("strategy"),
        settings: json("settings"),
        selected: json("selected"),
        pages: json("pages"),
        trace: if with_trace {
            json("trace")
        } else {
            serde_json::Value::Null
        },
        metrics: Some(json("metrics")).filter(|m| !m.is_null()),
        context_tokens: row.get("context_tokens"),
        latency_ms: row.get("latency_ms"),
        embed_ms: row.get("embed_ms"),
        status: row.get("status"),
        error: row.get("error"),
        created_at: row.get("created_at"),
        answer,
    }
}

/// A Markdown export of runs, newest first.
pub fn to_markdown(runs: &[RunRecord]) -> String {
    let mut out = String::from("# PageTree history\n");
    for run in runs {
        out.push_str(&format!(
            "\n## {} #{}: {}\n\n- when: {}\n- strategy: {}\n- status: {}{}\n",
            match run.kind {
                RunKind::Search => "Search",
                RunKind::Compare => "Comparison",
                RunKind::Ask => "Question",
                RunKind::Bench => "Benchmark",
            },
            run.id,
            run.question,
            run.created_at,
            run.strategy.as_deref().unwrap_or("-"),
            run.status,
            run.error
                .as_ref()
                .map(|e| format!(" ({e})"))
                .unwrap_or_default()
        ));
        if let Some(tokens) = run.context_tokens {
            out.push_str(&format!("- context: {tokens} tokens\n"));
        }
        if let Some(latency) = run.latency_ms {
            out.push_str(&format!("- latency: {latency:.1} ms\n"));
        }
        if let Some(pages) = run.pages.as_array().filter(|p| !p.is_empty()) {
            let list: Vec<String> = pages
                .iter()
                .filter_map(|p| {
                    Some(format!(
                        "{} p.{}",
                        p.get("file_name")?.as_str()?,
                        p.get("page")?
                    ))
                })
                .collect();
            out.push_str(&format!("- pages: {}\n", list.join(", ")));
        }
        if let Some(answer) = &run.answer {
            out.push_str(&format!("\n{}\n", answer.text));
            if !answer.removed.is_empty() {
                out.push_str(&format!(
                    "\n_Removed citations outside the context: {}_\n",
                    answer.removed.join(", ")
                ));
            }
        }
    }
    out
}
