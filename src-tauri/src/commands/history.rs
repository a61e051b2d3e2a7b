//! History view commands.

use pagetree::history::{to_markdown, RunRecord};
use serde::Deserialize;
use tauri::State;

use crate::error::{CommandError, CommandResult};
use crate::state::AppState;

/// Exports hold at most this many runs: years of daily use, still one readable file.
const EXPORT_LIMIT: usize = 10_000;

#[tauri::command]
pub async fn history(
    state: State<'_, AppState>,
    search: Option<String>,
    limit: usize,
) -> CommandResult<Vec<RunRecord>> {
    let library = state.library()?.read().await;
    let search = search.as_deref().map(str::trim).filter(|s| !s.is_empty());
    Ok(library.catalog().runs(limit, search).await?)
}

#[tauri::command]
pub async fn history_entry(state: State<'_, AppState>, id: i64) -> CommandResult<RunRecord> {
    let library = state.library()?.read().await;
    library
        .catalog()
        .run(id)
        .await?
        .ok_or_else(|| CommandError::message(format!("run {id} is not in the history")))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    Md,
    Json,
}

#[tauri::command]
pub async fn export_history(
    state: State<'_, AppState>,
    format: ExportFormat,
) -> CommandResult<String> {
    let library = state.library()?.read().await;
    let runs = library.catalog().full_runs(EXPORT_LIMIT).await?;
    match format {
        ExportFormat::Md => Ok(to_markdown(&runs)),
        ExportFormat::Json => serde_json::to_string_pretty(&runs).map_err(|err| {
            CommandError::message(format!("the history could not be written as JSON: {err}"))
        }),
    }
}
