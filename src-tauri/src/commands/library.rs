//! Library view, tree view and page viewer commands.

use std::path::PathBuf;

use base64::Engine as _;
use pagetree::catalog::{DocumentRecord, PageLabel};
use pagetree::tree::Node;
use serde::Serialize;
use tauri::{AppHandle, Manager, State};
use tauri_plugin_dialog::DialogExt;

use crate::error::{CommandError, CommandResult};
use crate::ingest_queue::queue_paths;
use crate::state::AppState;

#[tauri::command]
pub async fn list_documents(state: State<'_, AppState>) -> CommandResult<Vec<DocumentRecord>> {
    Ok(state.library()?.read().await.documents().await?)
}

#[tauri::command]
pub async fn ingest_paths(
    app: AppHandle,
    state: State<'_, AppState>,
    paths: Vec<PathBuf>,
) -> CommandResult<usize> {
    // Any path the web view sends is safe to pass on: the walk and the engine read
    // nothing that is not a regular file starting like a PDF.
    let queued = queue_paths(&app, &state.open()?.ingest, &paths).map_err(CommandError::message)?;
    tracing::info!(files = queued, "queued for ingestion");
    // The count of files found in folders is known only here; the window estimates the
    // time a batch has left from it.
    Ok(queued)
}

/// Opens the system's file dialog; the chosen files are queued when it closes.
#[tauri::command]
pub async fn pick_and_ingest(app: AppHandle, state: State<'_, AppState>) -> CommandResult<()> {
    state.open()?;
    let handle = app.clone();
    app.dialog()
        .file()
        .set_title("Add PDFs to the library")
        .add_filter("PDF documents", &["pdf", "PDF"])
        .pick_files(move |picked| {
            let paths: Vec<PathBuf> = picked
                .unwrap_or_default()
                .into_iter()
                .filter_map(|file| file.into_path().ok())
                .collect();
            if paths.is_empty() {
                return;
            }
            let state = handle.state::<AppState>();
            let queued = state
                .open()
                .map_err(|err| err.to_string())
                .and_then(|open| queue_paths(&handle, &open.ingest, &paths));
            if let Err(err) = queued {
                tracing::warn!(error = %err, "cannot queue picked files");
            }
        });
    Ok(())
}

#[tauri::command]
pub async fn cancel_ingest(state: State<'_, AppState>) -> CommandResult<()> {
    state.open()?.ingest.cancel();
    Ok(())
}

#[tauri::command]
pub async fn delete_document(
    state: State<'_, AppState>,
    key: String,
) -> CommandResult<DocumentRecord> {
    Ok(state.library()?.read().await.delete(&key).await?)
}

/// Corrects `document`'s card (`field=value` assignments, an empty value clears) and
/// re-indexes it; the engine checks every assignment before anything is stored.
#[tauri::command]
pub async fn correct_card(
    state: State<'_, AppState>,
    document: String,
    assignments: Vec<String>,
) -> CommandResult<DocumentRecord> {
    let library = state.library()?.read().await;
    let record = library.catalog().resolve(&document).await?;
    Ok(library.correct_card(&record, &assignments).await?)
}

#[derive(Debug, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DocumentTree {
    document: DocumentRecord,
    root_id: Option<u64>,
    nodes: Vec<Node>,
}

#[tauri::command]
pub async fn document_tree(state: State<'_, AppState>, key: String) -> CommandResult<DocumentTree> {
    let (document, nodes) = state.library()?.read().await.tree(&key).await?;
    let root_id = nodes.iter().find(|node| node.is_root()).map(|node| node.id);
    Ok(DocumentTree {
        document,
        root_id,
        nodes,
    })
}

/// A page drawn by PDFium, as a `data:` URL the CSP allows in `<img>`.
#[tauri::command]
pub async fn page_image(
    state: State<'_, AppState>,
    doc_id: i64,
    page: u32,
    width: u32,
) -> CommandResult<String> {
    let png = state
        .library()?
        .read()
        .await
        .page_image(doc_id, page, width)
        .await?;
    Ok(format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(png)
    ))
}

#[tauri::command]
pub async fn page_text(
    state: State<'_, AppState>,
    doc_id: i64,
    page: u32,
) -> CommandResult<String> {
    let library = state.library()?.read().await;
    library
        .catalog()
        .page_text(doc_id, page)
        .await?
        .ok_or_else(|| {
            CommandError::message(format!(
                "page {page} of document {doc_id} is not in the library"
            ))
        })
}

/// Every printed page label of a document, so the viewer names each page it turns to
/// as the book prints it; empty for a PDF without labels.
#[tauri::command]
pub async fn page_labels(state: State<'_, AppState>, doc_id: i64) -> CommandResult<Vec<PageLabel>> {
    let library = state.library()?.read().await;
    Ok(library.catalog().document_page_labels(doc_id).await?)
}
