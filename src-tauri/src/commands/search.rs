//! Compare and Ask commands.

use pagetree::chat::ask::AskOutcome;
use pagetree::chat::AnswerSettings;
use pagetree::history::GoldPage;
use pagetree::search::{Comparison, OutlineDocument, SearchResult, SearchSettings, Strategy};
use serde::Serialize;
use tauri::{AppHandle, Emitter, State};

use crate::error::CommandResult;
use crate::state::AppState;

pub const TOKEN_EVENT: &str = "ask://token";

#[tauri::command]
pub async fn search(
    state: State<'_, AppState>,
    question: String,
    strategy: Strategy,
    settings: SearchSettings,
) -> CommandResult<SearchResult> {
    let library = state.library()?.read().await;
    Ok(library
        .search_recorded(&question, &strategy, &settings)
        .await?)
}

#[tauri::command]
pub async fn compare(
    state: State<'_, AppState>,
    question: String,
    strategies: Vec<Strategy>,
    settings: SearchSettings,
) -> CommandResult<CompareResult> {
    let library = state.library()?.read().await;
    let Comparison { results, skipped } =
        library.compare(&question, &strategies, &settings).await?;
    let skipped = skipped
        .iter()
        .map(|skip| format!("{}: {}", skip.strategy, crate::error::words(&skip.reason)))
        .collect();
    Ok(CompareResult { results, skipped })
}

/// The touched part of each document's tree, for the Compare view's trace.
#[tauri::command]
pub async fn trace_outline(
    state: State<'_, AppState>,
    node_ids: Vec<u64>,
) -> CommandResult<Vec<OutlineDocument>> {
    let library = state.library()?.read().await;
    Ok(library.trace_outline(&node_ids).await?)
}

/// The pages that answer `question` when a bench run asked it; empty otherwise.
#[tauri::command]
pub async fn bench_gold(
    state: State<'_, AppState>,
    question: String,
) -> CommandResult<Vec<GoldPage>> {
    let library = state.library()?.read().await;
    Ok(library.catalog().bench_gold(&question).await?)
}

/// Every strategy that ran on one question, and why the others did not.
#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CompareResult {
    results: Vec<SearchResult>,
    /// "strategy: reason", one per strategy that could not run.
    skipped: Vec<String>,
}

/// One piece of a streamed answer; snake_case like every other payload.
#[derive(Serialize, Clone)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub(crate) struct AskToken<'a> {
    request_id: &'a str,
    piece: &'a str,
}

/// Answers with the answer streamed as `ask://token` events tagged with `request_id`.
#[tauri::command]
pub async fn ask(
    app: AppHandle,
    state: State<'_, AppState>,
    question: String,
    strategy: Strategy,
    settings: SearchSettings,
    conversation_id: Option<i64>,
    request_id: String,
) -> CommandResult<AskOutcome> {
    let library = state.library()?.read().await;
    let mut on_token = |piece: &str| {
        let token = AskToken {
            request_id: &request_id,
            piece,
        };
        if let Err(err) = app.emit(TOKEN_EVENT, token) {
            tracing::debug!(error = %err, "the window did not take a token");
        }
    };
    Ok(library
        .ask(
            &question,
            &strategy,
            &settings,
            conversation_id,
            AnswerSettings::default(),
            &mut on_token,
        )
        .await?)
}
