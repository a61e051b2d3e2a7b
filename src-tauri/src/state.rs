//! The app's state: the open library (or why it could not be opened), the ingestion
//! queue working on it, and the key store.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use pagetree::library::{Library, OpenOptions, QdrantOptions};
use pagetree::secret::ApiKey;
use tokio::sync::{RwLock, RwLockWriteGuard};

use crate::app_settings::{filled, Preferences};
use crate::error::{CommandError, CommandResult};
use crate::ingest_queue::IngestQueue;
use crate::keys::KeyStore;
use crate::local_model::LocalModel;

pub type SharedLibrary = Arc<RwLock<Library>>;

pub struct OpenLibrary {
    pub library: SharedLibrary,
    pub ingest: IngestQueue,
}

pub struct AppState {
    open: Result<OpenLibrary, String>,
    pub keys: Arc<KeyStore>,
    pub qdrant_keys: Arc<KeyStore>,
    /// Where the log files go, when they could be written (see `logging::init`).
    pub log_folder: Option<PathBuf>,
    /// The model file the app serves itself, if any.
    pub local_model: Arc<LocalModel>,
}

/// Saving settings waits this long for running work (an ingestion, an answer) to let
/// go of the library before it gives up and says why.
const WRITE_WAIT: Duration = Duration::from_secs(3);

impl AppState {
    pub fn new(
        open: Result<OpenLibrary, String>,
        keys: Arc<KeyStore>,
        qdrant_keys: Arc<KeyStore>,
        log_folder: Option<PathBuf>,
        local_model: Arc<LocalModel>,
    ) -> Self {
        Self {
            open,
            keys,
            qdrant_keys,
            log_folder,
            local_model,
        }
    }

    pub fn open(&self) -> CommandResult<&OpenLibrary> {
        self.open
            .as_ref()
            .map_err(|why| CommandError::message(why.clone()))
    }

    pub fn library(&self) -> CommandResult<&SharedLibrary> {
        Ok(&self.open()?.library)
    }

    pub async fn library_for_writing(&self) -> CommandResult<RwLockWriteGuard<'_, Library>> {
        let library = self.library()?;
        tokio::time::timeout(WRITE_WAIT, library.write())
            .await
            .map_err(|_| {
                CommandError::message(
                    "the library is busy (an ingestion or an answer is running); try again when it has finished",
                )
            })
    }
}

/// Where the app keeps its library: `PAGETREE_LIBRARY`, else the platform's data folder
/// (the CLI's default too, so both see the same library).
pub fn library_root() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("PAGETREE_LIBRARY").filter(|dir| !dir.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    pagetree::library::default_root().ok_or_else(|| {
        "there is no home folder to keep the library in; set PAGETREE_LIBRARY".to_string()
    })
}

/// Opens the library with the model folder and LLM its settings name, and its vectors
/// wherever they are. The keys come from the key stores, read before (they may block).
/// `bundled_assets` is the installed package's own copy of the native libraries and
/// models, searched before any other place (see [`bundled_assets`]).
pub async fn open_library(
    api_key: Option<String>,
    qdrant_key: Option<String>,
    bundled_assets: Option<PathBuf>,
) -> Result<Library, String> {
    let root = library_root()?;
    let options = OpenOptions {
        assets_dir: bundled_assets,
        qdrant: QdrantOptions {
            api_key: ApiKey::new(qdrant_key.unwrap_or_default()),
            ..QdrantOptions::default()
        },
        ..OpenOptions::default()
    };
    let (mut library, recovery) = Library::open(&root, options)
        .await
        .map_err(|err| err.to_string())?;
    for name in recovery.cleaned {
        tracing::warn!(%name, "an interrupted ingestion was cleaned up; add the file again");
    }
    let preferences = Preferences::load(library.catalog())
        .await
        .map_err(|err| err.to_string())?;
    library.set_model_dir(filled(&preferences.embedding_model_dir).map(PathBuf::from));
    let mut llm = crate::llm::for_library(library.settings(), api_key);
    if let Some(llm) = llm.as_mut() {
        pagetree::local_llm::learn_context_window(llm).await;
    }
    library.set_llm(llm);
    tracing::info!(root = %root.display(), "library open");
    Ok(library)
}

/// The assets an installed package carries (`scripts/package.sh` puts them in the
/// bundle's resources): the app runs from them with no set-up, whatever else is on the
/// machine. A build run from the sources has none, and finds the ones
/// `scripts/setup.sh` installed.
pub fn bundled_assets(resource_dir: Option<PathBuf>) -> Option<PathBuf> {
    resource_dir
        .map(|dir| dir.join(BUNDLED_ASSETS))
        .filter(|dir| dir.is_dir())
}

/// The folder of the bundle's resources that holds the assets.
pub const BUNDLED_ASSETS: &str = "assets";
