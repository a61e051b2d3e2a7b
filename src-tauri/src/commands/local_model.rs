//! Settings → Language model: the servers already running on this machine, and the
//! model file the app serves itself.

use std::path::PathBuf;

use pagetree::local_llm::{detect_local_servers, LocalServer};
use tauri::{AppHandle, State};
use tauri_plugin_dialog::DialogExt;

use crate::app_settings::AppSettings;
use crate::commands::settings::settings_now;
use crate::error::{CommandError, CommandResult};
use crate::local_model::LocalModelStatus;
use crate::state::AppState;

/// The OpenAI-compatible servers answering on this machine's usual ports (Ollama,
/// llama.cpp, LM Studio), with their models.
#[tauri::command]
pub async fn detect_llm_servers() -> CommandResult<Vec<LocalServer>> {
    detect_local_servers()
        .await
        .map_err(|err| CommandError::message(err.to_string()))
}

/// Opens the system's file dialog for a .gguf model; None when the person cancels.
#[tauri::command]
pub async fn pick_model_file(app: AppHandle) -> CommandResult<Option<PathBuf>> {
    let (picked_tx, picked_rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .set_title("Use a model file")
        .add_filter("GGUF models", &["gguf", "GGUF"])
        .pick_file(move |picked| {
            let _ = picked_tx.send(picked.and_then(|file| file.into_path().ok()));
        });
    Ok(picked_rx.await.unwrap_or(None))
}

/// Serves `file` with the app's own llama-server and makes it the library's language
/// model (saved: the app serves it again next time).
#[tauri::command]
pub async fn use_model_file(
    state: State<'_, AppState>,
    file: PathBuf,
) -> CommandResult<AppSettings> {
    state.library()?;
    let llm = state
        .local_model
        .start(&file)
        .await
        .map_err(CommandError::message)?;
    let mut library = state.library_for_writing().await?;
    let mut settings = library.settings().clone();
    settings.llm_gguf = Some(file);
    settings.llm_base_url = Some(llm.base_url.clone());
    settings.llm_model = Some(llm.model.clone());
    library.update_settings(settings).await?;
    let mut llm = llm;
    llm.answer_deadline = library.settings().answer_deadline();
    library.set_llm(Some(llm));
    settings_now(&state, &library).await
}

/// Stops the app's own server and leaves the library without a language model.
#[tauri::command]
pub async fn stop_model_file(state: State<'_, AppState>) -> CommandResult<AppSettings> {
    state.local_model.stop();
    let mut library = state.library_for_writing().await?;
    let mut settings = library.settings().clone();
    if settings.llm_gguf.take().is_some() {
        settings.llm_base_url = None;
        settings.llm_model = None;
        library.update_settings(settings).await?;
        library.set_llm(None);
    }
    settings_now(&state, &library).await
}

#[tauri::command]
pub async fn model_file_status(state: State<'_, AppState>) -> CommandResult<LocalModelStatus> {
    Ok(state.local_model.status())
}
