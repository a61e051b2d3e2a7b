//! Settings view commands.

use std::path::PathBuf;
use std::sync::Arc;

use pagetree::embed::DenseModel;
use pagetree::ingest::NoProgress;
use pagetree::migrate::MigrationTarget;
use pagetree::secret::ApiKey;
use pagetree::store::location::StoreLocation;
use pagetree::Library;
use tauri::State;

use crate::app_settings::{filled, validate, AppSettings, Preferences, QdrantMode};
use crate::error::{CommandError, CommandResult};
use crate::key_warnings::{key_warnings, KeyWarnings, StoredKeys};
use crate::keys::{KeyStorage, KeyStore};
use crate::llm::{for_library, may_send_stored_key, settings_for, test_connection, ConnectionTest};
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

async fn current(
    library: &Library,
    storage: KeyStorage,
    qdrant_storage: KeyStorage,
) -> CommandResult<AppSettings> {
    let preferences = Preferences::load(library.catalog()).await?;
    let ocr_engine = tokio::task::spawn_blocking(pagetree::ocr::describe_engine)
        .await
        .unwrap_or_default();
    let settings = library.settings();
    let (qdrant_mode, qdrant_url, qdrant_cluster) = match library.location() {
        StoreLocation::Embedded => (
            QdrantMode::Embedded,
            None,
            library.qdrant_options().cluster.unwrap_or_default(),
        ),
        StoreLocation::Remote(config) => {
            (QdrantMode::Remote, Some(config.url.clone()), config.cluster)
        }
    };
    Ok(AppSettings {
        llm_base_url: settings.llm_base_url.clone(),
        llm_model: settings.llm_model.clone(),
        llm_api_key: None,
        llm_key_storage: storage.describe(),
        llm_answer_deadline_secs: settings.llm_answer_deadline_secs,
        embedding_model_dir: preferences.embedding_model_dir,
        embedding_model: settings.dense_model.label().to_string(),
        dense_model: Some(settings.dense_model),
        qdrant_mode,
        qdrant_url,
        qdrant_api_key: None,
        qdrant_key_storage: qdrant_storage.describe(),
        qdrant_cluster,
        defaults: preferences.defaults,
        ocr: Some(settings.ocr),
        ocr_engine: Some(ocr_engine),
    })
}

#[tauri::command]
pub async fn get_settings(state: State<'_, AppState>) -> CommandResult<AppSettings> {
    let library = state.library()?.read().await;
    settings_now(&state, &library).await
}

/// The settings form as `library` has it now, with where the keys are kept.
pub(crate) async fn settings_now(
    state: &AppState,
    library: &Library,
) -> CommandResult<AppSettings> {
    let (_, storage) = read_key(&state.keys).await;
    let (_, qdrant_storage) = read_key(&state.qdrant_keys).await;
    current(library, storage, qdrant_storage).await
}

async fn store_key(keys: &Arc<KeyStore>, key: String) -> CommandResult<()> {
    let keys = keys.clone();
    tokio::task::spawn_blocking(move || keys.set(&key))
        .await
        .map_err(|err| CommandError::message(format!("the key could not be stored: {err}")))?;
    Ok(())
}

/// Moves the library's vectors when the chosen Qdrant mode or server differs from
/// where they are; the move checks its copy before it switches (see `migrate`).
async fn move_vectors_if_asked(library: &mut Library, settings: &AppSettings) -> CommandResult<()> {
    let target = match settings.qdrant_mode {
        QdrantMode::Embedded => Some(MigrationTarget::Embedded),
        // Without a URL there is no server to move to (the form asks for one).
        QdrantMode::Remote => {
            filled(&settings.qdrant_url).map(|url| MigrationTarget::Remote { url })
        }
    };
    if let Some(target) = target.filter(|target| library.needs_migration(target)) {
        library.set_qdrant_cluster(settings.qdrant_cluster);
        let report = library.migrate(target, &NoProgress).await?;
        tracing::info!(from = %report.from, to = %report.to, points = report.points, "vectors moved");
    }
    Ok(())
}

#[tauri::command]
pub async fn save_settings(
    state: State<'_, AppState>,
    settings: AppSettings,
) -> CommandResult<AppSettings> {
    validate(&settings).map_err(CommandError::message)?;
    let mut library = state.library_for_writing().await?;

    if let Some(key) = filled(&settings.qdrant_api_key) {
        store_key(&state.qdrant_keys, key).await?;
    }
    let (qdrant_key, qdrant_storage) = read_key(&state.qdrant_keys).await;
    library.set_qdrant_key(ApiKey::new(qdrant_key.unwrap_or_default()));
    // First, because it is the part most likely to fail (a server away or refusing).
    move_vectors_if_asked(&mut library, &settings).await?;
    // The model is not saved here: changing it re-embeds every page, which only
    // `change_dense_model` does, after the person confirmed it.

    let mut library_settings = library.settings().clone();
    // Another URL than the one saved is another server: the app's own one goes.
    if library_settings.llm_gguf.is_some()
        && filled(&settings.llm_base_url) != library_settings.llm_base_url
    {
        library_settings.llm_gguf = None;
        state.local_model.stop();
    }
    library_settings.llm_base_url = filled(&settings.llm_base_url);
    library_settings.llm_model = filled(&settings.llm_model);
    library_settings.llm_answer_deadline_secs = settings.llm_answer_deadline_secs;
    if let Some(ocr) = settings.ocr {
        library_settings.ocr = ocr;
    }
    library.update_settings(library_settings).await?;

    let preferences = Preferences {
        embedding_model_dir: filled(&settings.embedding_model_dir),
        defaults: settings.defaults.clone(),
    };
    preferences.save(library.catalog()).await?;
    library.set_model_dir(preferences.embedding_model_dir.clone().map(PathBuf::from));

    // A new key goes to the keyring; none keeps the stored one.
    if let Some(key) = filled(&settings.llm_api_key) {
        store_key(&state.keys, key).await?;
    }
    let (key, storage) = read_key(&state.keys).await;
    let mut llm = for_library(library.settings(), key);
    if let Some(llm) = llm.as_mut() {
        llm.context_tokens = state.local_model.context_tokens_at(&llm.base_url);
        pagetree::local_llm::learn_context_window(llm).await;
    }
    library.set_llm(llm);
    current(&library, storage, qdrant_storage).await
}

/// Makes `model` the library's embedding model: recorded in a library without documents,
/// every page re-embedded in one with documents. The UI calls it only after the person
/// chose another model and confirmed what re-embedding costs.
#[tauri::command]
pub async fn change_dense_model(
    state: State<'_, AppState>,
    model: DenseModel,
) -> CommandResult<AppSettings> {
    let mut library = state.library_for_writing().await?;
    let points = library.switch_dense_model(model, &NoProgress).await?;
    if points > 0 {
        tracing::info!(model = model.id(), points, "library re-embedded");
    }
    let (_, storage) = read_key(&state.keys).await;
    let (_, qdrant_storage) = read_key(&state.qdrant_keys).await;
    current(&library, storage, qdrant_storage).await
}

#[tauri::command]
pub async fn test_llm_connection(
    state: State<'_, AppState>,
    settings: AppSettings,
) -> CommandResult<ConnectionTest> {
    let saved_url = {
        let library = state.library()?.read().await;
        library.settings().llm_base_url.clone()
    };
    // A key typed in the form goes where the form says; the stored one only to the
    // server it was saved for.
    let key = match filled(&settings.llm_api_key) {
        Some(key) => Some(key),
        None if may_send_stored_key(settings.llm_base_url.as_deref(), saved_url.as_deref()) => {
            read_key(&state.keys).await.0
        }
        None => None,
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

/// The warnings about a key sent in clear for the settings in the form (or, with the
/// key fields empty, as saved), to show beside the URL each concerns.
#[tauri::command]
pub async fn settings_warnings(
    state: State<'_, AppState>,
    settings: AppSettings,
) -> CommandResult<KeyWarnings> {
    let stored = StoredKeys {
        llm: read_key(&state.keys)
            .await
            .0
            .is_some_and(|key| !key.is_empty()),
        qdrant: read_key(&state.qdrant_keys)
            .await
            .0
            .is_some_and(|key| !key.is_empty()),
    };
    Ok(key_warnings(&settings, stored))
}

/// Help → About: the version, the assets and where the library found them (or which
/// one is missing and how to get it), and the log folder.
#[tauri::command]
pub async fn about(state: State<'_, AppState>) -> CommandResult<crate::about::About> {
    let assets = match state.library() {
        Ok(library) => {
            let library = library.read().await;
            library
                .assets()
                .map(|assets| assets.folder().map(PathBuf::from))
                .map_err(|err| CommandError::from(err).to_string())
        }
        Err(why) => Err(why.to_string()),
    };
    Ok(crate::about::about(assets, state.log_folder.as_deref()))
}
