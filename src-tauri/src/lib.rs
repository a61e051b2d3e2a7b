//! PageTree's desktop shell: opens the library, answers the UI's commands, and turns
//! ingestion progress, streamed answers and file drops into events.

mod about;
mod app_settings;
mod bindings;
mod commands;
mod downloads;
mod error;
mod ingest_queue;
mod key_warnings;
mod keys;
mod llm;
mod local_model;
mod logging;
pub mod startup_env;
mod state;

use std::sync::Arc;

use serde::Serialize;
use tauri::{DragDropEvent, Emitter, Manager, RunEvent, WindowEvent};

use crate::ingest_queue::IngestQueue;
use crate::keys::KeyStore;
use crate::local_model::LocalModel;
use crate::state::{AppState, OpenLibrary};

pub const DROPPED_EVENT: &str = "library://dropped";
pub const DRAG_EVENT: &str = "library://drag";

/// Files are being dragged over the window (or no longer are): the window shows where
/// they will go only while they are.
#[derive(Serialize, Clone)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "LibraryDrag"))]
pub(crate) struct Drag {
    over: bool,
}

#[derive(Serialize, Clone)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[cfg_attr(test, ts(rename = "LibraryDropped"))]
pub(crate) struct Dropped {
    paths: Vec<std::path::PathBuf>,
}

/// Loads the search model in the background while the window opens, so that the first
/// question is as quick as the next. A failure is only logged: the search that needs the
/// model reports it in words.
fn warm_up(library: state::SharedLibrary) {
    tauri::async_runtime::spawn(async move {
        if let Err(err) = library.read().await.warm_up().await {
            tracing::warn!(error = %err, "search could not be warmed up");
        }
    });
}

/// Serves the model file the library's settings name, in the background (loading a
/// model takes a while), then points the library at it: the server's port is new each
/// time.
fn serve_saved_model(library: state::SharedLibrary, local: Arc<LocalModel>) {
    tauri::async_runtime::spawn(async move {
        let Some(file) = library.read().await.settings().llm_gguf.clone() else {
            return;
        };
        let Ok(llm) = local.start(&file).await else {
            return;
        };
        let mut library = library.write().await;
        let mut settings = library.settings().clone();
        settings.llm_base_url = Some(llm.base_url.clone());
        settings.llm_model = Some(llm.model.clone());
        if let Err(err) = library.update_settings(settings).await {
            tracing::warn!(error = %err, "the model server's address could not be saved");
        }
        let mut llm = llm;
        llm.answer_deadline = library.settings().answer_deadline();
        library.set_llm(Some(llm));
    });
}

pub fn run() -> tauri::Result<()> {
    tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .setup(|app| {
            let log_folder = logging::init(app.path().app_log_dir().ok().as_deref());
            tracing::info!(version = pagetree::VERSION, "PageTree starting");
            let keys = Arc::new(KeyStore::llm());
            let qdrant_keys = Arc::new(KeyStore::qdrant());
            // Read on this thread: the keyring may block, and no runtime is running here.
            let (api_key, _) = keys.get();
            let (qdrant_key, _) = qdrant_keys.get();
            let bundled = state::bundled_assets(app.path().resource_dir().ok());
            let local_model = Arc::new(LocalModel::new(bundled.clone()));
            if let Some(dir) = &bundled {
                tracing::info!(dir = %dir.display(), "using the assets installed with the app");
            }
            let open =
                tauri::async_runtime::block_on(state::open_library(api_key, qdrant_key, bundled))
                    .map(|library| {
                        let library = Arc::new(tokio::sync::RwLock::new(library));
                        OpenLibrary {
                            ingest: IngestQueue::start(app.handle().clone(), library.clone()),
                            library,
                        }
                    });
            match &open {
                Ok(open) => {
                    warm_up(open.library.clone());
                    serve_saved_model(open.library.clone(), local_model.clone());
                }
                Err(why) => tracing::error!(%why, "the library could not be opened"),
            }
            app.manage(AppState::new(
                open,
                keys,
                qdrant_keys,
                log_folder,
                local_model,
            ));
            // Built here rather than in tauri.conf.json to route downloads.
            tauri::WebviewWindowBuilder::new(app, "main", tauri::WebviewUrl::default())
                .title("PageTree")
                .inner_size(1280.0, 820.0)
                .min_inner_size(760.0, 520.0)
                .on_download(downloads::handle)
                .build()?;
            Ok(())
        })
        .on_window_event(|window, event| {
            let WindowEvent::DragDrop(drag) = event else {
                return;
            };
            let over = match drag {
                DragDropEvent::Enter { .. } => true,
                DragDropEvent::Leave | DragDropEvent::Drop { .. } => false,
                _ => return,
            };
            if let Err(err) = window.emit(DRAG_EVENT, Drag { over }) {
                tracing::debug!(error = %err, "the window did not take a drag");
            }
            if let DragDropEvent::Drop { paths, .. } = drag {
                let dropped = Dropped {
                    paths: paths.clone(),
                };
                if let Err(err) = window.emit(DROPPED_EVENT, dropped) {
                    tracing::warn!(error = %err, "the window did not take a file drop");
                }
            }
        })
        .invoke_handler(tauri::generate_handler![
            commands::library::list_documents,
            commands::library::ingest_paths,
            commands::library::pick_and_ingest,
            commands::library::cancel_ingest,
            commands::library::delete_document,
            commands::library::document_tree,
            commands::library::correct_card,
            commands::library::page_image,
            commands::library::page_text,
            commands::library::page_labels,
            commands::search::search,
            commands::search::compare,
            commands::search::trace_outline,
            commands::search::bench_gold,
            commands::search::ask,
            commands::history::history,
            commands::history::history_entry,
            commands::history::export_history,
            commands::settings::get_settings,
            commands::settings::save_settings,
            commands::settings::change_dense_model,
            commands::settings::test_llm_connection,
            commands::settings::settings_warnings,
            commands::settings::about,
            commands::local_model::detect_llm_servers,
            commands::local_model::pick_model_file,
            commands::local_model::use_model_file,
            commands::local_model::stop_model_file,
            commands::local_model::model_file_status,
        ])
        .build(tauri::generate_context!())?
        .run(|app, event| {
            // The app's own model server ends with the app, not after it.
            if let RunEvent::Exit = event {
                if let Some(state) = app.try_state::<AppState>() {
                    state.local_model.stop();
                }
            }
        });
    Ok(())
}
