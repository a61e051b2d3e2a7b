//! A library: one folder holding the catalog (SQLite) and the vector index, opened by
//! one process at a time.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tokio::sync::OnceCell;

use crate::assets::Assets;
use crate::catalog::{Catalog, DocumentRecord, DocumentStatus};
use crate::describe::{Describer, LlmDescriber, LlmSettings};
use crate::embed::{DenseEmbedder, DenseModel, SparseEmbedder};
use crate::error::Result;
use crate::llm::health::ModelHealth;
use crate::redact::Redactor;
use crate::secret::ApiKey;
use crate::settings::LibrarySettings;
use crate::store::edge::EdgeStore;
use crate::store::location::{self, StoreLocation};
use crate::store::remote::{ClusterSettings, RemoteConfig, RemoteStore};
use crate::store::VectorStore;
use crate::tree::Node;

const CATALOG_FILE: &str = "catalog.sqlite";
const INDEX_DIR: &str = "index";
const LOCK_FILE: &str = "library.lock";
pub(crate) const DIMENSION_SETTING: &str = "dense_dimension";

#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    #[error("the library {path} is in use by another PageTree process{pid}; close it first (only one program can write a library at a time)")]
    InUse { path: String, pid: String },
    #[error("the library folder {path} cannot be used: {detail}")]
    Folder { path: String, detail: String },
    #[error("{0}")]
    Settings(String),
    /// The CLI and the app each say how to set one (see their error wording).
    #[error("the language model is not configured")]
    NoLlm,
    #[error("the language model failed: {0}")]
    Llm(String),
    #[error("the question is empty; say what you are looking for")]
    EmptyQuestion,
    #[error("no answer: {0}")]
    Answer(crate::chat::AnswerError),
    #[error("the file of `{name}` is no longer at {path}; its pages cannot be shown until it is put back (search and answers still work)")]
    FileMoved { name: String, path: String },
    #[error(
        "the stored tree of `{name}` is broken: {detail}; delete the document and add it again"
    )]
    BrokenTree { name: String, detail: String },
    /// `requested` is the server's URL, the target of the move that would fix this.
    #[error("this library keeps its vectors on {current}, not on {requested}")]
    StoreElsewhere { current: String, requested: String },
    #[error("the library's vectors on {0} keep one vector a page; to embed pages in windows, move the library to this computer's embedded store, reindex it there, and move it back")]
    RebuildRemote(String),
    #[error("the library's vectors on {0} were made by one model and are re-embedded only in this computer's embedded store; move the library here, change its model there, and move it back")]
    ModelChangeRemote(String),
    #[error("this library's vectors were made by {}, not {}, and the two cannot be searched together; keep using {}, or re-embed the library with {} (its PDFs are not read again, nothing is lost)", .library.label(), .requested.label(), .library.label(), .requested.label())]
    ModelMismatch {
        library: DenseModel,
        requested: DenseModel,
    },
    #[error("the library's vectors are already on {0}")]
    AlreadyThere(String),
    #[error("the copy on {target} does not match the library ({detail}); nothing was switched, the library still uses {source_location}")]
    MigrationMismatch {
        target: String,
        source_location: String,
        detail: String,
    },
}

/// Refuses a question with nothing in it, before anything is embedded or recorded: it
/// would find arbitrary pages, and history would keep it.
pub(crate) fn ensure_question(question: &str) -> std::result::Result<(), LibraryError> {
    if question.trim().is_empty() {
        return Err(LibraryError::EmptyQuestion);
    }
    Ok(())
}

/// Opens the embedded index in `path` (blocking); `fresh` empties the folder first, and
/// a new index is made in `new_layout`.
pub(crate) fn open_edge_folder(
    path: &Path,
    dimension: usize,
    fresh: bool,
    new_layout: crate::store::DenseLayout,
) -> std::result::Result<EdgeStore, crate::store::StoreError> {
    if fresh && path.exists() {
        std::fs::remove_dir_all(path).map_err(|err| crate::store::StoreError::Open {
            path: path.display().to_string(),
            detail: err.to_string(),
        })?;
    }
    EdgeStore::open_as(path, dimension, new_layout)
}

/// Where a library lives unless the user says otherwise: the platform's data folder,
/// shared by the CLI and the desktop app.
pub fn default_root() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|dirs| dirs.data_dir().join("pagetree").join("library"))
}

/// How to open a library: where the assets are, and this run's overrides.
#[derive(Debug, Clone, Default)]
pub struct OpenOptions {
    pub assets_dir: Option<PathBuf>,
    pub model_dir: Option<PathBuf>,
    /// LLM settings for this run (the API key is never stored).
    pub llm: Option<LlmSettings>,
    pub qdrant: QdrantOptions,
}

/// How to reach a Qdrant server for this run. A URL puts a new library's vectors on
/// that server (an existing library's are moved with `migrate`); the key is never stored.
#[derive(Debug, Clone, Default)]
pub struct QdrantOptions {
    pub url: Option<String>,
    pub api_key: ApiKey,
    /// Used when the library's collection is created.
    pub cluster: Option<ClusterSettings>,
    /// Overrides the stored request timeout for this run.
    pub timeout_secs: Option<u64>,
}

impl QdrantOptions {
    fn requested_url(&self) -> Option<&str> {
        self.url
            .as_deref()
            .map(str::trim)
            .filter(|url| !url.is_empty())
    }

    /// The library's remote settings with this run's overrides applied.
    pub(crate) fn apply(&self, mut config: RemoteConfig) -> RemoteConfig {
        if let Some(seconds) = self.timeout_secs {
            config.timeout_secs = seconds.max(1);
        }
        config
    }

    /// Settings for a collection about to be made on the server at `url`, with this
    /// run's timeout and cluster layout (checked).
    pub(crate) fn new_remote(&self, url: &str, collection: String) -> Result<RemoteConfig> {
        let mut config = self.apply(RemoteConfig::new(url.trim(), collection));
        config.cluster = self.cluster.unwrap_or_default();
        config.cluster.validate().map_err(LibraryError::Settings)?;
        Ok(config)
    }
}

/// What start-up found and put right.
#[derive(Debug, Clone, Default)]
pub struct Recovery {
    /// Documents whose ingestion was interrupted (a crash or a kill); their partial
    /// points and rows were removed so they can be added again.
    pub cleaned: Vec<String>,
    /// Documents another running process is still writing; left alone.
    pub in_progress: Vec<String>,
}

pub struct Library {
    root: PathBuf,
    catalog: Catalog,
    settings: LibrarySettings,
    options: OpenOptions,
    location: StoreLocation,
    dense: OnceCell<Arc<DenseEmbedder>>,
    /// A BM25 embedder a language, made when first needed.
    sparse: std::sync::Mutex<std::collections::HashMap<String, Arc<SparseEmbedder>>>,
    store: OnceCell<Arc<dyn VectorStore>>,
    node_cache: crate::search::node_cache::NodeCache,
    assets: std::sync::OnceLock<Assets>,
    /// Whether the language model is still asked in this run (or app session): shared by
    /// every document, so a dead server is waited for once.
    model_health: Arc<ModelHealth>,
    _lock: LibraryLock,
}

impl Library {
    /// Opens (or creates) the library in `root` for reading and writing, and cleans up
    /// any ingestion a previous process left half done.
    pub async fn open(root: &Path, options: OpenOptions) -> Result<(Self, Recovery)> {
        let folder_error = |err: std::io::Error| LibraryError::Folder {
            path: root.display().to_string(),
            detail: err.to_string(),
        };
        crate::disk::ensure_room(root, crate::disk::OPEN_ROOM, crate::disk::Task::OpenLibrary)?;
        crate::private_files::create_dir_all(root).map_err(folder_error)?;
        let lock = acquire_lock_waiting(root).await?;
        // Before the catalog opens: SQLite gives a new -wal the catalog's mode.
        make_private(root);
        crate::private_files::create_file(&root.join(CATALOG_FILE)).map_err(folder_error)?;
        crate::disk::keep_reserve(root);
        let catalog = Catalog::open(&root.join(CATALOG_FILE)).await?;
        let mut settings = LibrarySettings::load_and_record(&catalog).await?;
        let location = resolve_location(&catalog, &options.qdrant).await?;
        if matches!(location, StoreLocation::Embedded) {
            crate::rebuild::settle_interrupted_rebuild(
                &root.join(INDEX_DIR),
                &catalog,
                &mut settings,
            )
            .await?;
        }
        let library = Self {
            root: root.to_path_buf(),
            catalog,
            settings,
            options,
            location,
            dense: OnceCell::new(),
            sparse: Default::default(),
            store: OnceCell::new(),
            node_cache: crate::search::node_cache::NodeCache::default(),
            assets: std::sync::OnceLock::new(),
            model_health: Arc::default(),
            _lock: lock,
        };
        library.catalog.set_redactor(library.redactor());
        library.catalog.scrub_secrets().await?;
        let recovery = library.recover().await?;
        Ok((library, recovery))
    }

    /// Opens only the catalog, without the lock: enough to list documents while
    /// another process is ingesting.
    pub async fn open_catalog(root: &Path) -> Result<Catalog> {
        match Catalog::open(&root.join(CATALOG_FILE)).await {
            Ok(catalog) => Ok(catalog),
            Err(err) => {
                // On a full disk SQLite says only "disk I/O error"; say what is wrong.
                crate::disk::ensure_room(
                    root,
                    crate::disk::OPEN_ROOM,
                    crate::disk::Task::OpenLibrary,
                )?;
                Err(err.into())
            }
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    pub fn settings(&self) -> &LibrarySettings {
        &self.settings
    }

    /// Changes settings. The BM25 language cannot change once documents are indexed,
    /// because their sparse vectors were stemmed for the old one.
    pub async fn update_settings(&mut self, settings: LibrarySettings) -> Result<()> {
        settings.validate().map_err(LibraryError::Settings)?;
        if (settings.bm25_language != self.settings.bm25_language
            || settings.detect_language != self.settings.detect_language)
            && self.catalog.has_documents().await?
        {
            return Err(LibraryError::Settings(format!(
                "the BM25 language is `{}` and cannot change once the library has documents; start a new library for `{}`",
                self.settings.bm25_language, settings.bm25_language
            ))
            .into());
        }
        if settings.dense_model != self.settings.dense_model && self.catalog.has_documents().await?
        {
            return Err(LibraryError::ModelMismatch {
                library: self.settings.dense_model,
                requested: settings.dense_model,
            }
            .into());
        }
        SparseEmbedder::new(&settings.bm25_language)?;
        settings.save(&self.catalog).await?;
        self.use_dense_model(settings.dense_model);
        self.settings = settings;
        Ok(())
    }

    pub fn assets(&self) -> Result<&Assets> {
        if let Some(assets) = self.assets.get() {
            return Ok(assets);
        }
        let assets = Assets::locate(
            self.options.assets_dir.as_deref(),
            self.options.model_dir.as_deref(),
        )?;
        Ok(self.assets.get_or_init(|| assets))
    }

    pub async fn dense(&self) -> Result<Arc<DenseEmbedder>> {
        let assets = self.assets()?.clone();
        let model = self.settings.dense_model;
        self.dense
            .get_or_try_init(|| async move {
                tokio::task::spawn_blocking(move || {
                    DenseEmbedder::load(&assets, model).map(Arc::new)
                })
                .await
                .map_err(|err| crate::embed::EmbedError::Inference(err.to_string()))?
                .map_err(crate::Error::from)
            })
            .await
            .cloned()
    }

    /// The BM25 embedder of the library's own language.
    pub async fn sparse(&self) -> Result<Arc<SparseEmbedder>> {
        self.sparse_for(&self.settings.bm25_language)
    }

    /// The BM25 embedder for `language` (a Snowball stemmer name).
    pub(crate) fn sparse_for(&self, language: &str) -> Result<Arc<SparseEmbedder>> {
        let mut embedders = self.sparse.lock().map_err(|_| {
            crate::embed::EmbedError::Bm25("the BM25 cache lock was poisoned".into())
        })?;
        if let Some(embedder) = embedders.get(language) {
            return Ok(Arc::clone(embedder));
        }
        let embedder = Arc::new(SparseEmbedder::new(language)?);
        embedders.insert(language.to_string(), Arc::clone(&embedder));
        Ok(embedder)
    }

    /// The language a document's BM25 vectors are stemmed in.
    pub(crate) fn document_language<'a>(&'a self, document: &'a DocumentRecord) -> &'a str {
        match &document.language {
            Some(language) if self.settings.detect_language => language,
            _ => &self.settings.bm25_language,
        }
    }

    /// The language a question is stemmed in: the nearest of the library's documents'
    /// languages, or the library's own.
    pub(crate) async fn question_language(&self, question: &str) -> Result<String> {
        if !self.settings.detect_language {
            return Ok(self.settings.bm25_language.clone());
        }
        let languages = self.catalog.search_scope().await?.languages;
        Ok(crate::language::detect_question(question, &languages)
            .unwrap_or_else(|| self.settings.bm25_language.clone()))
    }

    /// The vector index, created on first use with the embedding model's dimension.
    pub async fn store(&self) -> Result<Arc<dyn VectorStore>> {
        self.store
            .get_or_try_init(|| async {
                let dimension = self.dimension().await?;
                self.open_store(&self.location, dimension, false).await
            })
            .await
            .cloned()
    }

    /// How many windows of a page are embedded: the setting, where the index can keep
    /// more than one.
    pub async fn page_windows(&self) -> Result<usize> {
        Ok(match self.store().await?.dense_layout() {
            crate::store::DenseLayout::Single => 1,
            crate::store::DenseLayout::Windows => self.settings.page_windows,
        })
    }

    /// The folder of the embedded index.
    pub(crate) fn index_dir(&self) -> PathBuf {
        self.root.join(INDEX_DIR)
    }

    /// Lets go of the open store; the next call to [`Library::store`] opens it again.
    pub(crate) fn close_store(&mut self) {
        self.store = OnceCell::new();
    }

    /// Node payloads kept between searches.
    pub(crate) fn node_cache(&self) -> &crate::search::node_cache::NodeCache {
        &self.node_cache
    }

    /// Where this library's vectors are.
    pub fn location(&self) -> &StoreLocation {
        &self.location
    }

    /// The dense vectors' dimension: the one the index was built with, or the model's
    /// for a library that has none yet.
    pub(crate) async fn dimension(&self) -> Result<usize> {
        match self.catalog.setting(DIMENSION_SETTING).await? {
            Some(stored) => Ok(stored.parse().unwrap_or(0)),
            None => {
                let dimension = self.dense().await?.dimension();
                self.catalog
                    .set_setting(DIMENSION_SETTING, &dimension.to_string())
                    .await?;
                Ok(dimension)
            }
        }
    }

    /// Opens the store at `location`; `fresh` empties it first (a migration target).
    pub(crate) async fn open_store(
        &self,
        location: &StoreLocation,
        dimension: usize,
        fresh: bool,
    ) -> Result<Arc<dyn VectorStore>> {
        let new_layout = crate::store::DenseLayout::for_windows(self.settings.page_windows);
        match location {
            StoreLocation::Embedded => {
                let path = self.root.join(INDEX_DIR);
                let store = tokio::task::spawn_blocking(move || {
                    crate::rebuild::recover_interrupted_rebuild(&path).map_err(|err| {
                        crate::store::StoreError::Open {
                            path: path.display().to_string(),
                            detail: format!("an interrupted rebuild could not be resolved: {err}"),
                        }
                    })?;
                    open_edge_folder(&path, dimension, fresh, new_layout)
                })
                .await
                .map_err(|err| crate::store::StoreError::Engine(err.to_string()))??;
                Ok(Arc::new(store))
            }
            StoreLocation::Remote(config) => {
                let config = self.options.qdrant.apply(config.clone());
                let store = RemoteStore::open(
                    config,
                    &self.options.qdrant.api_key,
                    dimension,
                    fresh,
                    new_layout,
                )
                .await?;
                Ok(Arc::new(store))
            }
        }
    }

    /// Makes `location` the library's store from now on (after a verified migration).
    pub(crate) async fn switch_store(
        &mut self,
        location: StoreLocation,
        store: Arc<dyn VectorStore>,
    ) -> Result<()> {
        location.save(&self.catalog).await?;
        self.location = location;
        self.store = OnceCell::new_with(Some(store));
        Ok(())
    }

    pub fn qdrant_options(&self) -> &QdrantOptions {
        &self.options.qdrant
    }

    /// The describer for this run: the LLM when one is configured, otherwise offline.
    pub fn describer(&self) -> Result<Describer> {
        match &self.options.llm {
            Some(llm) => Ok(Describer::Llm(Box::new(LlmDescriber::sharing(
                llm.clone(),
                Arc::clone(&self.model_health),
            )?))),
            None => Ok(Describer::Extractive),
        }
    }

    /// Why the language model is no longer asked in this run (or app session), if it
    /// was given up on: everything from then on is described offline.
    pub fn model_given_up(&self) -> Option<String> {
        self.options.llm.as_ref().and(self.model_health.given_up())
    }

    /// The run's verdict on the language model server.
    pub(crate) fn model_health(&self) -> &ModelHealth {
        &self.model_health
    }

    /// Hides this run's keys (the model's, the Qdrant server's) and token-shaped words in
    /// text a server sent.
    pub fn redactor(&self) -> Redactor {
        let llm_key = self.options.llm.as_ref().map(|llm| &llm.api_key);
        Redactor::new(llm_key.into_iter().chain([&self.options.qdrant.api_key]))
    }

    pub fn llm_settings(&self) -> Option<&LlmSettings> {
        self.options.llm.as_ref()
    }

    /// Embeds with `model` from the next embedding on, without recording it.
    pub(crate) fn use_dense_model(&mut self, model: DenseModel) {
        if self.settings.dense_model != model {
            self.settings.dense_model = model;
            self.dense = OnceCell::new();
        }
    }

    /// Loads the embedding model from `dir` (or the default) from the next embedding on.
    /// The index keeps the dimension it was created with, so the new model must have it.
    pub fn set_model_dir(&mut self, dir: Option<PathBuf>) {
        if self.options.model_dir != dir {
            self.options.model_dir = dir;
            self.assets = std::sync::OnceLock::new();
            self.dense = OnceCell::new();
        }
    }

    pub fn model_dir(&self) -> Option<&Path> {
        self.options.model_dir.as_deref()
    }

    /// The Qdrant API key for this process's connections from now on (a migration, or
    /// the next time the store is opened).
    pub fn set_qdrant_key(&mut self, key: ApiKey) {
        self.options.qdrant.api_key = key;
        self.catalog.set_redactor(self.redactor());
    }

    /// The cluster layout of a collection made from now on (by `migrate`).
    pub fn set_qdrant_cluster(&mut self, cluster: ClusterSettings) {
        self.options.qdrant.cluster = Some(cluster);
    }

    /// Switches the language model (or to none) for what this process does next.
    /// A new model (or the same one set again, as the app does when its settings are
    /// saved) is asked afresh, whatever the last one did.
    pub fn set_llm(&mut self, llm: Option<LlmSettings>) {
        self.options.llm = llm;
        self.model_health = Arc::default();
        self.catalog.set_redactor(self.redactor());
    }

    /// Page `page` (1-based) of a document drawn `width` pixels wide, as PNG, from the
    /// file the document was added from.
    pub async fn page_image(&self, doc_id: i64, page: u32, width: u32) -> Result<Vec<u8>> {
        let document = self.catalog.resolve(&doc_id.to_string()).await?;
        let path = PathBuf::from(&document.path);
        if !path.is_file() {
            return Err(LibraryError::FileMoved {
                name: document.name,
                path: document.path,
            }
            .into());
        }
        let pdfium = self.assets()?.pdfium_library.clone();
        tokio::task::spawn_blocking(move || {
            crate::render::render_page_png(&pdfium, &path, page, width)
        })
        .await
        .map_err(|err| LibraryError::Folder {
            path: document.path.clone(),
            detail: err.to_string(),
        })?
        .map_err(crate::Error::from)
    }

    /// How many pages the PDF at `path` has (pdfium's count, no text read).
    pub async fn page_count(&self, path: &Path) -> Result<u32> {
        let pdfium = self.assets()?.pdfium_library.clone();
        let owned = path.to_path_buf();
        tokio::task::spawn_blocking(move || crate::pdf::page_count(&pdfium, &owned))
            .await
            .map_err(|err| LibraryError::Folder {
                path: path.display().to_string(),
                detail: err.to_string(),
            })?
            .map_err(crate::Error::from)
    }

    pub async fn documents(&self) -> Result<Vec<DocumentRecord>> {
        Ok(self.catalog.documents().await?)
    }

    /// A document and its whole tree, in id order (pages first, then parents).
    pub async fn tree(&self, key: &str) -> Result<(DocumentRecord, Vec<Node>)> {
        let document = self.catalog.resolve(key).await?;
        if document.status != DocumentStatus::Ready {
            return Ok((document, Vec::new()));
        }
        let nodes = self.store().await?.document_nodes(document.id).await?;
        if let Err(detail) = crate::tree::check_invariants(&nodes, document.page_count.unwrap_or(0))
        {
            return Err(LibraryError::BrokenTree {
                name: document.name,
                detail,
            }
            .into());
        }
        Ok((document, nodes))
    }

    /// Removes a document's points first, then its rows: if we stop in between, the
    /// catalog still knows the document and a second delete finishes the job.
    pub async fn delete(&self, key: &str) -> Result<DocumentRecord> {
        let document = self.catalog.resolve(key).await?;
        crate::disk::ensure_room(
            &self.root,
            crate::disk::WRITE_MARGIN,
            crate::disk::Task::Delete,
        )?;
        if self.has_index().await? {
            let store = self.store().await?;
            store.delete_document(document.id).await?;
            store.flush().await?;
        }
        self.catalog.delete_document(document.id).await?;
        Ok(document)
    }

    async fn has_index(&self) -> Result<bool> {
        Ok(self.store.initialized() || self.catalog.setting(DIMENSION_SETTING).await?.is_some())
    }

    async fn recover(&self) -> Result<Recovery> {
        let mut interrupted = Vec::new();
        let mut recovery = Recovery::default();
        for document in self
            .catalog
            .documents_with_status(DocumentStatus::Ingesting)
            .await?
        {
            match self.catalog.ingest_owner(document.id).await? {
                Some(owner) if crate::owner::is_alive(&owner) => {
                    tracing::warn!(document = %document.name, %owner, "another running process is still adding this document; left alone");
                    recovery.in_progress.push(document.name);
                }
                _ => interrupted.push(document),
            }
        }
        if interrupted.is_empty() {
            return Ok(recovery);
        }
        let store = if self.has_index().await? {
            match self.store().await {
                Ok(store) => Some(store),
                // The rows are not searchable as they are, so the library is still
                // worth opening on a full disk; the next start with room cleans up.
                Err(crate::Error::Store(crate::store::StoreError::Disk(no_room))) => {
                    tracing::warn!(%no_room, "interrupted ingestions are cleaned up once the disk has room");
                    return Ok(recovery);
                }
                Err(err) => return Err(err),
            }
        } else {
            None
        };
        for document in interrupted {
            tracing::warn!(document = %document.name, "cleaning up an interrupted ingestion");
            if let Some(store) = &store {
                store.delete_document(document.id).await?;
            }
            self.catalog.delete_document(document.id).await?;
            recovery.cleaned.push(document.name);
        }
        if let Some(store) = &store {
            store.flush().await?;
        }
        Ok(recovery)
    }
}

/// What PageTree keeps in a library folder (besides the folder itself); anything else a
/// person put there is theirs.
const OWNED: [&str; 9] = [
    CATALOG_FILE,
    "catalog.sqlite-wal",
    "catalog.sqlite-shm",
    LOCK_FILE,
    INDEX_DIR,
    crate::disk::RESERVE_FILE,
    // A rebuild's new and old index, left by one interrupted (see `rebuild`).
    "index.rebuilding",
    "index.retired",
    OPAQUE_COPIES_DIR,
];

/// Copies of PDFs kept under names that do not give them away (`bench --rename-opaque`).
pub const OPAQUE_COPIES_DIR: &str = "opaque-copies";

/// Makes a library made before files were private (0644 in a 0755 folder) the user's
/// alone. Every open, because it costs a stat a file and the index engine may still make
/// files by the umask (the folder keeps others out of them). Never fails the open: a
/// file someone else owns stays as it is, with a warning.
fn make_private(root: &Path) {
    let mut refused = crate::private_files::tighten_one(root);
    for name in OWNED {
        refused.extend(crate::private_files::tighten(&root.join(name)));
    }
    for (path, err) in refused {
        tracing::warn!(path = %path.display(), %err, "could not make this library file private to you; others on this computer may read it");
    }
}

/// Where the library's vectors are for this run, checked before anything is written:
/// a remote server must answer, and a URL on the command line may only choose the
/// server for a library that has no documents yet.
async fn resolve_location(catalog: &Catalog, qdrant: &QdrantOptions) -> Result<StoreLocation> {
    let stored = StoreLocation::load(catalog).await?;
    let Some(url) = qdrant.requested_url() else {
        if let StoreLocation::Remote(config) = &stored {
            RemoteStore::connect(qdrant.apply(config.clone()), &qdrant.api_key).await?;
        }
        return Ok(stored);
    };
    match &stored {
        StoreLocation::Remote(config) if config.url == url => {
            RemoteStore::connect(qdrant.apply(config.clone()), &qdrant.api_key).await?;
            Ok(stored)
        }
        StoreLocation::Remote(_) | StoreLocation::Embedded if catalog.has_documents().await? => {
            Err(LibraryError::StoreElsewhere {
                current: stored.describe(),
                requested: url.to_string(),
            }
            .into())
        }
        StoreLocation::Remote(_) | StoreLocation::Embedded => {
            let mut config = qdrant.new_remote(url, String::new())?;
            RemoteStore::connect(config.clone(), &qdrant.api_key).await?;
            config.collection = location::collection_name(catalog).await?;
            let location = StoreLocation::Remote(config);
            location.save(catalog).await?;
            Ok(location)
        }
    }
}

/// The process's hold on a library: OS locks released only when the process lets go
/// of them or ends, so a crash never leaves the library locked.
struct LibraryLock {
    /// The lock every PageTree version takes; it also names the holder's process.
    _file: File,
    /// The library folder itself, locked as well: `library.lock` can be removed while
    /// its lock is held, and a second process would then lock a new file of the same
    /// name and take the library (issue 16: its start-up clean-up deleted the first
    /// process's document mid-ingestion). A folder with a catalog in it cannot be
    /// removed or replaced that way.
    #[cfg(unix)]
    _folder: Option<File>,
}

/// How long opening a library waits when the lock's holder is this very process. A
/// handle dropped a moment ago keeps its locks while a child process that was being
/// started then (a language-model server, say) shares its descriptors, until the child
/// runs its program: CI saw a test reopen its library inside that window. Another
/// handle that stays open is still refused, after this wait.
const OWN_LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// [`acquire_lock`], waiting up to [`OWN_LOCK_WAIT`] while this process holds the lock.
async fn acquire_lock_waiting(root: &Path) -> std::result::Result<LibraryLock, LibraryError> {
    let started = std::time::Instant::now();
    loop {
        match acquire_lock(root) {
            Err(LibraryError::InUse { .. })
                if held_by_this_process(root) && started.elapsed() < OWN_LOCK_WAIT =>
            {
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
            outcome => return outcome,
        }
    }
}

/// Whether `library.lock` names this process as its holder.
fn held_by_this_process(root: &Path) -> bool {
    lock_holder(root).is_some_and(|pid| pid == std::process::id().to_string())
}

/// The process id the holder of `library.lock` wrote in it, if it can be read.
fn lock_holder(root: &Path) -> Option<String> {
    std::fs::read_to_string(root.join(LOCK_FILE))
        .ok()
        .map(|pid| pid.trim().to_string())
        .filter(|pid| !pid.is_empty())
}

fn acquire_lock(root: &Path) -> std::result::Result<LibraryLock, LibraryError> {
    let path = root.join(LOCK_FILE);
    let folder_error = |err: std::io::Error| LibraryError::Folder {
        path: root.display().to_string(),
        detail: err.to_string(),
    };
    let in_use = || LibraryError::InUse {
        path: root.display().to_string(),
        pid: lock_holder(root)
            .map(|pid| format!(" (process {pid})"))
            .unwrap_or_default(),
    };
    #[cfg(unix)]
    let folder = {
        let folder = File::open(root).map_err(folder_error)?;
        match folder.try_lock() {
            Ok(()) => Some(folder),
            Err(std::fs::TryLockError::WouldBlock) => return Err(in_use()),
            // NFS emulates these locks with ones a folder opened for reading cannot
            // take; the file lock and the writers recorded on half-written documents
            // still keep the library whole there.
            Err(std::fs::TryLockError::Error(err)) => {
                tracing::warn!(%err, path = %root.display(), "the library folder cannot be locked; relying on library.lock");
                None
            }
        }
    };
    let mut options = std::fs::OpenOptions::new();
    options.create(true).truncate(false).read(true).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    // Windows refuses to delete a file some process opened without sharing deletion,
    // which keeps the lock file in place as long as it is held.
    #[cfg(windows)]
    std::os::windows::fs::OpenOptionsExt::share_mode(&mut options, 0x1 | 0x2);
    let mut file = options.open(&path).map_err(folder_error)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => return Err(in_use()),
        Err(std::fs::TryLockError::Error(err)) => return Err(folder_error(err)),
    }
    file.set_len(0).map_err(folder_error)?;
    write!(file, "{}", std::process::id()).map_err(folder_error)?;
    Ok(LibraryLock {
        _file: file,
        #[cfg(unix)]
        _folder: folder,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lock this process lets go of a moment later (as when a child being spawned
    /// shared a dropped handle's descriptors) is waited for, not refused.
    #[tokio::test]
    async fn a_lock_this_process_lets_go_of_soon_is_waited_for() {
        let dir = tempfile::tempdir().expect("temp dir");
        let held = acquire_lock(dir.path()).expect("first lock");
        assert!(matches!(
            acquire_lock(dir.path()),
            Err(LibraryError::InUse { .. })
        ));
        let release = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(200));
            drop(held);
        });
        acquire_lock_waiting(dir.path())
            .await
            .expect("taken once the holder let go");
        release.join().expect("released");
    }

    #[tokio::test]
    async fn a_lock_this_process_keeps_is_refused_after_the_wait() {
        let dir = tempfile::tempdir().expect("temp dir");
        let _held = acquire_lock(dir.path()).expect("first lock");
        let refused = acquire_lock_waiting(dir.path()).await;
        assert!(matches!(refused, Err(LibraryError::InUse { .. })));
    }
}
