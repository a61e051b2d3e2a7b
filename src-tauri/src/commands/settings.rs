//! Settings view commands.

use std::path::PathBuf;
use std::sync::Arc;

use pagetree::Library;
use tauri::State;

use crate::app_settings::{filled, validate, AppSettings, Preferences, QdrantMode};
use crate::error::{CommandError, CommandResult};
use crate::keys::{KeyStorage, KeyStore};
use crate::llm::{settings_for, test_connection, ConnectionTest};
use crate::state::AppState;

async fn read_key(keys: &Arc<KeyStore>) -> (Option<String>, KeyStorage) {
    let keys = keys.clone();
    tokio::task::spawn_blocking(move || keys.get())
        .await
        .unwrap_or_else(|err| {
            (
                None,
                KeyStorage::SessionOnly(format!("the keyring could not be asked ({err})")),
            )
        })
}

async fn current(library: &Library, storage: KeyStorage) -> CommandResult<AppSettings> {
    let preferences = Preferences::load(library.catalog()).await?;
    let settings = library.settings();
    Ok(AppSettings {
        llm_base_url: settings.llm_base_url.clone(),
        llm_model: settings.llm_model.clone(),
        llm_api_key: None,
        llm_key_storage: storage.describe(),
        embedding_model_dir: preferences.embedding_model_dir,
        qdrant_mode: QdrantMode::Embedded,
        qdrant_url: None,
        qdrant_api_key: None,
        defaults: preferences.defaults,
    })
}

#[tauri::command]
pub async fn get_settings(state: State<'_, AppState>) -> CommandResult<AppSettings> {
    let (_, storage) = read_key(&state.keys).await;
    let library = state.library()?.read().await;
    current(&library, storage).await
}

#[tauri::command]
pub async fn save_settings(
    state: State<'_, AppState>,
    settings: AppSettings,
) -> CommandResult<AppSettings> {
    validate(&settings).map_err(CommandError::message)?;
    let mut library = state.library_for_writing().await?;

    let mut library_settings = library.settings().clone();
    library_settings.llm_base_url = filled(&settings.llm_base_url);
    library_settings.llm_model = filled(&settings.llm_model);
    library.update_settings(library_settings).await?;

    let preferences = Preferences {
        embedding_model_dir: filled(&settings.embedding_model_dir),
        defaults: settings.defaults.clone(),
    };
    preferences.save(library.catalog()).await?;
    library.set_model_dir(preferences.embedding_model_dir.clone().map(PathBuf::from));

    // A new key goes to the keyring; none keeps the stored one.
    if let Some(key) = filled(&settings.llm_api_key) {
        let keys = state.keys.clone();
        tokio::task::spawn_blocking(move || keys.set(&key))
            .await
            .map_err(|err| CommandError::message(format!("the key could not be stored: {err}")))?;
    }
    let (key, storage) = read_key(&state.keys).await;
    let llm = settings_for(
        library.settings().llm_base_url.as_ref(),
        library.settings().llm_model.as_ref(),
        key,
    );
    library.set_llm(llm);
    current(&library, storage).await
}

#[tauri::command]
pub async fn test_llm_connection(
    state: State<'_, AppState>,
    settings: AppSettings,
) -> CommandResult<ConnectionTest> {
    let key = match filled(&settings.llm_api_key) {
        Some(key) => Some(key),
        None => read_key(&state.keys).await.0,
    };
    let Some(llm) = settings_for(
        settings.llm_base_url.as_ref(),
        settings.llm_model.as_ref(),
        key,
    ) else {
        return Ok(ConnectionTest {
            ok: false,
            message: "set the LLM's URL and model first".to_string(),
            latency_ms: None,
        });
    };
    Ok(test_connection(llm).await)
}
