//! PDF → pages → descriptions → tree → vectors → index, one document at a time, with
//! progress reported per stage. A document becomes searchable only at the very end.

use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::card::{self, DocumentCard, FrontMatter};
use crate::catalog::{DocumentRecord, DocumentStatus};
use crate::describe::{DescribeReport, Describer, TermStats};
use crate::embed::DenseModel;
use crate::error::{Error, Result};
use crate::files::{self, FileError};
use crate::index_text;
use crate::library::Library;
use crate::pdf::{self, PageText, PdfError};
use crate::store::{IndexedNode, Sparse};
use crate::tree::{self, Description, Node, MAX_NODES_PER_DOCUMENT};

mod batch;
mod ocr;

pub use batch::IngestBatch;

const EMBED_CHUNK: usize = 64;
const UPSERT_CHUNK: usize = 256;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Stage {
    Reading,
    /// Pages without a text layer read by OCR.
    Ocr,
    Describing,
    Summarising,
    Embedding,
    Indexing,
}

impl Stage {
    pub fn label(self) -> &'static str {
        match self {
            Stage::Reading => "reading pages",
            Stage::Ocr => "reading scanned pages (OCR)",
            Stage::Describing => "describing pages",
            Stage::Summarising => "summarising sections",
            Stage::Embedding => "embedding",
            Stage::Indexing => "indexing",
        }
    }
}

/// Receives progress; the CLI draws bars from it, the app turns it into events.
pub trait Progress: Send + Sync {
    fn stage(&self, file: &str, stage: Stage, done: usize, total: usize);
    /// Checked between steps: true stops the ingestion and cleans up after it.
    fn cancelled(&self) -> bool {
        false
    }
}

/// Progress that goes nowhere, for tests and scripts.
pub struct NoProgress;

impl Progress for NoProgress {
    fn stage(&self, _: &str, _: Stage, _: usize, _: usize) {}
}

/// Where one document's ingestion spent its time, in seconds per stage, so that
/// throughput can be given stage by stage.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct StageSeconds {
    /// Text extraction (pdfium) and saving the page texts.
    pub reading: f64,
    /// OCR of the pages without a text layer, and how many pages it read.
    pub ocr: f64,
    pub ocr_pages: u32,
    pub describing: f64,
    pub summarising: f64,
    pub dense_embedding: f64,
    pub sparse_embedding: f64,
    /// Writing the points to the vector store.
    pub indexing: f64,
}

impl std::ops::AddAssign for StageSeconds {
    fn add_assign(&mut self, other: Self) {
        self.reading += other.reading;
        self.ocr += other.ocr;
        self.ocr_pages += other.ocr_pages;
        self.describing += other.describing;
        self.summarising += other.summarising;
        self.dense_embedding += other.dense_embedding;
        self.sparse_embedding += other.sparse_embedding;
        self.indexing += other.indexing;
    }
}

impl StageSeconds {
    /// Each stage's name and seconds, in pipeline order.
    pub fn stages(&self) -> [(&'static str, f64); 6] {
        [
            ("text extraction", self.reading),
            ("description", self.describing),
            ("summaries", self.summarising),
            ("dense embedding", self.dense_embedding),
            ("sparse embedding", self.sparse_embedding),
            ("indexing", self.indexing),
        ]
    }

    /// OCR's pages a second, when it read any.
    pub fn ocr_pages_per_second(&self) -> Option<f64> {
        (self.ocr_pages > 0 && self.ocr > 0.0).then(|| f64::from(self.ocr_pages) / self.ocr)
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum IngestOutcome {
    Added {
        document: DocumentRecord,
        warnings: Vec<String>,
        seconds: StageSeconds,
        /// Pages and sections described offline because the language model failed.
        offline_fallbacks: usize,
    },
    AlreadyPresent {
        document: DocumentRecord,
    },
}

/// What writing one document came to.
struct Written {
    node_count: usize,
    warnings: Vec<String>,
    seconds: StageSeconds,
    /// What described its pages and sections.
    described: DescribeReport,
}

#[derive(Debug, thiserror::Error)]
pub enum IngestFailure {
    #[error("{file}: another PageTree process is adding this file right now")]
    BeingAdded { file: String },
    #[error("{file}: ingestion was cancelled")]
    Cancelled { file: String },
    #[error("{file}: the document has {nodes} tree nodes, more than one document may have")]
    TooLarge { file: String, nodes: usize },
}

impl Library {
    /// Adds one PDF. The same content added again is a no-op; a document that failed
    /// before is tried again.
    pub async fn ingest(&self, path: &Path, progress: &dyn Progress) -> Result<IngestOutcome> {
        let file = pdf::display_name(path);
        // Nothing is read, hashed or recorded until the file is known to be a regular
        // file that starts like a PDF, with a path the catalog can open again.
        let opened = files::open_pdf(path, &file)?;
        let stored_path = files::path_text(path, &file)?;
        let hash = hash_file(opened, &file)?;
        let pdf_bytes = std::fs::metadata(path).map_or(0, |metadata| metadata.len());
        crate::disk::ensure_room(
            self.root(),
            crate::disk::for_ingest(pdf_bytes),
            crate::disk::Task::Ingest,
        )?;
        if let Some(existing) = self.catalog().find_by_hash(&hash).await? {
            match existing.status {
                DocumentStatus::Ready => {
                    return Ok(IngestOutcome::AlreadyPresent { document: existing })
                }
                DocumentStatus::Ingesting
                    if self
                        .catalog()
                        .ingest_owner(existing.id)
                        .await?
                        .is_some_and(|owner| crate::owner::is_alive(&owner)) =>
                {
                    return Err(Error::Ingest(IngestFailure::BeingAdded { file }));
                }
                DocumentStatus::Failed
                | DocumentStatus::Ingesting
                | DocumentStatus::Interrupted => {
                    self.delete(&existing.id.to_string()).await?;
                }
            }
        }
        let document = self
            .catalog()
            .begin_document(&hash, &file, &stored_path)
            .await?;
        let outcome = match self.write_document(&document, path, progress).await {
            Ok(written) => self.finish_document(&document, written).await,
            Err(err) => Err(err),
        };
        match outcome {
            Ok(outcome) => Ok(outcome),
            Err(err) => {
                let err = self.said_as_no_room(err, pdf_bytes);
                self.abandon(&document, &err).await;
                Err(err)
            }
        }
    }

    /// Records a written document as ready, with its warnings (keys hidden).
    async fn finish_document(
        &self,
        document: &DocumentRecord,
        written: Written,
    ) -> Result<IngestOutcome> {
        let redactor = self.redactor();
        let warnings: Vec<String> = written
            .warnings
            .iter()
            .map(|warning| redactor.scrub(warning).into_owned())
            .collect();
        let joined = (!warnings.is_empty()).then(|| warnings.join("; "));
        self.catalog()
            .mark_ready(
                document.id,
                written.node_count,
                written.described.describer(),
                joined.as_deref(),
            )
            .await?;
        let document = self.catalog().resolve(&document.id.to_string()).await?;
        Ok(IngestOutcome::Added {
            document,
            warnings,
            seconds: written.seconds,
            offline_fallbacks: written.described.fallbacks,
        })
    }

    /// A write that failed because the disk filled up, said as such with the room the
    /// whole document needs, whichever part of PageTree ran out (the index engine,
    /// SQLite, a file); any other failure as it is.
    fn said_as_no_room(&self, err: Error, pdf_bytes: u64) -> Error {
        let full = match &err {
            Error::Disk(_) | Error::Store(crate::store::StoreError::Disk(_)) => true,
            Error::Ingest(_) | Error::Pdf(_) => false,
            // SQLite may say only "disk I/O error" when its log cannot grow.
            other => {
                crate::disk::is_no_space(&other.to_string())
                    || crate::disk::ensure_room(
                        self.root(),
                        crate::disk::ONE_WRITE,
                        crate::disk::Task::Write,
                    )
                    .is_err()
            }
        };
        if !full {
            return err;
        }
        Error::Disk(crate::disk::no_room(
            self.root(),
            crate::disk::for_ingest(pdf_bytes),
            crate::disk::Task::Ingest,
        ))
    }

    /// Undoes a failed ingestion: its points go, its row stays with the reason. On a
    /// full disk, the room set aside for this is given up so that the reason can be
    /// recorded rather than the document left `ingesting`.
    async fn abandon(&self, document: &DocumentRecord, err: &Error) {
        if let Ok(store) = self.store().await {
            if let Err(cleanup) = store.delete_document(document.id).await {
                tracing::warn!(error = %cleanup, "could not remove the points of a failed document; they go when it is added again or deleted");
            }
            if let Err(cleanup) = store.flush().await {
                tracing::warn!(error = %cleanup, "could not save the index after a failed document");
            }
        }
        let reason = err.to_string();
        let mut recorded = self.catalog().mark_failed(document.id, &reason).await;
        if recorded.is_err() && crate::disk::release_reserve(self.root()) {
            recorded = self.catalog().mark_failed(document.id, &reason).await;
            crate::disk::keep_reserve(self.root());
        }
        if let Err(cleanup) = recorded {
            tracing::error!(error = %cleanup, "could not record a failed document; it shows as interrupted until the library is opened again");
        }
    }

    async fn write_document(
        &self,
        document: &DocumentRecord,
        path: &Path,
        progress: &dyn Progress,
    ) -> Result<Written> {
        let file = document.file_name.as_str();
        let mut seconds = StageSeconds::default();
        let mut clock = Instant::now();
        let mut lap = || {
            let elapsed = clock.elapsed().as_secs_f64();
            clock = Instant::now();
            elapsed
        };
        let check_cancelled = || -> Result<()> {
            if progress.cancelled() {
                Err(Error::Ingest(IngestFailure::Cancelled {
                    file: file.to_string(),
                }))
            } else {
                Ok(())
            }
        };
        progress.stage(file, Stage::Reading, 0, 1);
        let (mut pages, mut front) = self.read_pages(path).await?;
        progress.stage(file, Stage::Reading, 1, 1);
        let scans = self.read_scans(file, path, &mut pages, progress).await?;
        // A scanned cover is read by OCR: the card is read from what OCR found.
        front.first_pages = pages
            .iter()
            .take(crate::card::FRONT_PAGES)
            .map(|page| page.text.clone())
            .collect();
        check_cancelled()?;
        self.catalog()
            .save_pages(document.id, &pages, &scans.words)
            .await?;
        let language = self.settle_language(document.id, &pages).await?;
        let (card, card_warning) = self.read_card(&front).await;
        self.catalog().set_card(document.id, &card).await?;
        seconds.reading = lap() - scans.seconds;
        (seconds.ocr, seconds.ocr_pages) = (scans.seconds, scans.pages);
        check_cancelled()?;

        let stats = TermStats::from_pages(pages.iter().map(|p| p.text.as_str()));
        let describer = self.describer()?;
        let described = AtomicUsize::new(0);
        let total_pages = pages.len();
        progress.stage(file, Stage::Describing, 0, total_pages);
        let on_page = || {
            let done = described.fetch_add(1, Ordering::Relaxed) + 1;
            progress.stage(file, Stage::Describing, done, total_pages);
        };
        let (descriptions, page_report) = describer.describe_pages(&pages, &stats, &on_page).await;
        seconds.describing = lap();
        check_cancelled()?;

        progress.stage(file, Stage::Summarising, 0, 1);
        let texts: Vec<&str> = pages.iter().map(|page| page.text.as_str()).collect();
        let starts = crate::structure::section_starts(&front.sections, &texts);
        let shape =
            crate::structure::shape::shape(pages.len(), &starts, self.settings().group_width);
        let (nodes, tree_report) =
            crate::describe::build_tree(document.id, file, descriptions, shape, &describer, &stats)
                .await;
        progress.stage(file, Stage::Summarising, 1, 1);
        seconds.summarising = lap();
        let mut nodes = nodes;
        if let Some(root) = nodes.iter_mut().find(|n| n.is_root()) {
            root.card = Some(card.clone());
        }
        if nodes.len() > MAX_NODES_PER_DOCUMENT {
            return Err(Error::Ingest(IngestFailure::TooLarge {
                file: file.to_string(),
                nodes: nodes.len(),
            }));
        }
        tree::check_invariants(&nodes, pages.len() as u32).map_err(|detail| {
            crate::library::LibraryError::BrokenTree {
                name: document.name.clone(),
                detail,
            }
        })?;
        check_cancelled()?;

        let (indexed, embedding) = self
            .embed_nodes(file, nodes, &pages, Some(&card), &language, progress)
            .await?;
        (seconds.dense_embedding, seconds.sparse_embedding) = embedding;
        lap();
        check_cancelled()?;

        let store = self.store().await?;
        let total_nodes = indexed.len();
        progress.stage(file, Stage::Indexing, 0, total_nodes);
        let mut written = 0;
        let mut batches = indexed.into_iter().peekable();
        while batches.peek().is_some() {
            let batch: Vec<IndexedNode> = batches.by_ref().take(UPSERT_CHUNK).collect();
            written += batch.len();
            store.upsert(batch).await?;
            progress.stage(file, Stage::Indexing, written, total_nodes);
            check_cancelled()?;
        }
        store.flush().await?;
        seconds.indexing = lap();
        let mut warnings = warnings(&page_report, &tree_report, &pages, self.model_given_up());
        warnings.extend(scans.warnings);
        warnings.extend(card_warning);
        warnings.extend(model_language_warning(
            self.settings().dense_model,
            &language,
        ));
        let mut described = page_report;
        described.add(tree_report);
        Ok(Written {
            node_count: total_nodes,
            warnings,
            seconds,
            described,
        })
    }

    /// The document's card: by rules, then by the LLM where one is configured and not
    /// given up on. A model that fails leaves the rules' card and a warning, never a
    /// failed ingestion.
    async fn read_card(&self, front: &FrontMatter) -> (DocumentCard, Option<String>) {
        let rules = card::read_card(front);
        let Ok(Describer::Llm(describer)) = self.describer() else {
            return (rules, None);
        };
        if self.model_health().given_up().is_some() {
            return (rules, None);
        }
        match card::fill_card(describer.client(), front, &rules).await {
            Ok(card) => {
                self.model_health().note_success();
                (card, None)
            }
            Err(err) => {
                self.model_health().note_failure(&err);
                tracing::warn!(error = %err, "the language model could not read a document card");
                let warning = format!(
                    "the language model could not read what the document is ({err}); it was read by rules"
                );
                (rules, Some(warning))
            }
        }
    }

    /// The language the document's BM25 vectors are stemmed in: its text's, recorded,
    /// when the library tells languages apart and the text says; the library's otherwise.
    async fn settle_language(&self, doc_id: i64, pages: &[PageText]) -> Result<String> {
        if self.settings().detect_language {
            if let Some(language) =
                crate::language::detect_document(pages.iter().map(|page| page.text.as_str()))
            {
                self.catalog().set_language(doc_id, language).await?;
                return Ok(language.to_string());
            }
        }
        Ok(self.settings().bm25_language.clone())
    }

    async fn read_pages(&self, path: &Path) -> Result<(Vec<PageText>, FrontMatter)> {
        let pdfium = self.assets()?.pdfium_library.clone();
        let path = path.to_path_buf();
        let max_pages = self.settings().max_pages;
        let read =
            tokio::task::spawn_blocking(move || pdf::extract_document(&pdfium, &path, max_pages));
        read_outcome("", "the reader", read.await)
    }

    async fn embed_nodes(
        &self,
        file: &str,
        nodes: Vec<Node>,
        pages: &[PageText],
        card: Option<&DocumentCard>,
        language: &str,
        progress: &dyn Progress,
    ) -> Result<(Vec<IndexedNode>, (f64, f64))> {
        let (mut dense_seconds, mut sparse_seconds) = (0.0, 0.0);
        let dense = self.dense().await?;
        let sparse = self.sparse_for(language)?;
        let include_text = self.settings().index_leaf_text;
        let embed_text = self.settings().embed_page_text;
        let windows = self.page_windows().await?;
        let text_of = |node: &Node| {
            node.is_leaf()
                .then(|| pages.get(node.page_start as usize - 1))
                .flatten()
                .filter(|page| page.has_text)
                .map(|page| page.text.as_str())
        };
        let headings = index_text::headings(&nodes);
        let heading_of = |node: &Node| headings.get(&node.id).map(String::as_str);
        let total = nodes.len();
        progress.stage(file, Stage::Embedding, 0, total);
        let mut indexed = Vec::with_capacity(total);
        let mut remaining = nodes.into_iter().peekable();
        while remaining.peek().is_some() {
            let chunk: Vec<Node> = remaining.by_ref().take(EMBED_CHUNK).collect();
            let texts = chunk
                .iter()
                .map(|node| {
                    let page_text = text_of(node).filter(|_| embed_text);
                    index_text::dense_texts(
                        node,
                        card,
                        heading_of(node),
                        page_text,
                        dense.splitter(),
                        windows,
                    )
                })
                .collect::<std::result::Result<Vec<_>, _>>()?;
            let started = Instant::now();
            let vectors = embed_windows(&dense, texts).await?;
            dense_seconds += started.elapsed().as_secs_f64();
            let started = Instant::now();
            for (node, dense_vector) in chunk.into_iter().zip(vectors) {
                let page_text = text_of(&node).filter(|_| include_text);
                let sparse_vector = Sparse::from(sparse.embed_document(&index_text::sparse_text(
                    &node,
                    card,
                    heading_of(&node),
                    page_text,
                )));
                indexed.push(IndexedNode {
                    node,
                    dense: dense_vector,
                    sparse: sparse_vector,
                });
            }
            sparse_seconds += started.elapsed().as_secs_f64();
            progress.stage(file, Stage::Embedding, indexed.len(), total);
            if progress.cancelled() {
                return Err(Error::Ingest(IngestFailure::Cancelled {
                    file: file.to_string(),
                }));
            }
        }
        Ok((indexed, (dense_seconds, sparse_seconds)))
    }
}

impl Library {
    /// Rebuilds every ready document's BM25 vectors (and, with `dense`, its dense
    /// vectors) from its stored nodes, page texts and card: after a change of what is
    /// indexed, without reading the PDFs again. Returns the number of points rewritten.
    ///
    /// With `dense`, pages are embedded in as many windows as the settings ask; an
    /// embedded index made before windows is rebuilt to keep them ([`Library::rebuild_index`]).
    pub async fn reindex(&mut self, dense: bool, progress: &dyn Progress) -> Result<usize> {
        if dense && self.needs_rebuild_for_windows().await? {
            return self.rebuild_index(progress).await;
        }
        // Every point is written again and the index optimized: a second copy at worst.
        let index = self.index_dir();
        let needed = tokio::task::spawn_blocking(move || crate::disk::for_rewrite(&index))
            .await
            .map_err(|err| crate::store::StoreError::Engine(err.to_string()))?;
        crate::disk::ensure_room(self.root(), needed, crate::disk::Task::Rebuild)?;
        let documents = self
            .catalog()
            .documents_with_status(DocumentStatus::Ready)
            .await?;
        let mut rewritten = 0;
        for (index, document) in documents.iter().enumerate() {
            progress.stage(&document.file_name, Stage::Indexing, index, documents.len());
            rewritten += self.reindex_points(document, dense).await?;
        }
        let store = self.store().await?;
        store.flush().await?;
        store.optimize().await?;
        Ok(rewritten)
    }

    /// Rebuilds one document's vectors (after its card was corrected).
    pub(crate) async fn reindex_document(&self, document: &DocumentRecord) -> Result<usize> {
        let rewritten = self.reindex_points(document, true).await?;
        self.store().await?.flush().await?;
        Ok(rewritten)
    }

    async fn reindex_points(&self, document: &DocumentRecord, dense: bool) -> Result<usize> {
        let store = self.store().await?;
        let points = store.document_points(document.id).await?;
        let windows = self.page_windows().await?;
        let points = self
            .revectored(document, points, dense.then_some(windows))
            .await?;
        let rewritten = points.len();
        // The store writes in batches of its own.
        store.upsert(points).await?;
        Ok(rewritten)
    }

    /// A document's nodes in a tree rebuilt from its stored pages: the pages keep their
    /// descriptions, the sections follow the document's outline (read again from its
    /// file where it is still there) or its headings, and are summarised again. The
    /// vectors are left to [`Library::revectored`].
    pub(crate) async fn retreed(
        &self,
        document: &DocumentRecord,
        points: Vec<IndexedNode>,
    ) -> Result<Vec<IndexedNode>> {
        let mut leaves: Vec<Node> = points
            .into_iter()
            .map(|point| point.node)
            .filter(Node::is_leaf)
            .collect();
        leaves.sort_by_key(|node| node.page_start);
        let pages: Vec<(i64, u32)> = leaves.iter().map(|n| (document.id, n.page_start)).collect();
        let texts = self.catalog().page_texts(&pages).await?;
        let page_texts: Vec<String> = pages
            .iter()
            .map(|key| texts.get(key).cloned().unwrap_or_default())
            .collect();
        let outline = self.outline_of(document).await;
        let texts: Vec<&str> = page_texts.iter().map(String::as_str).collect();
        let starts = crate::structure::section_starts(&outline, &texts);
        let shape =
            crate::structure::shape::shape(leaves.len(), &starts, self.settings().group_width);
        let stats = TermStats::from_pages(texts.iter().copied());
        let descriptions: Vec<Description> = leaves
            .into_iter()
            .map(|leaf| Description {
                description: leaf.description,
                keywords: leaf.keywords,
            })
            .collect();
        let describer = self.describer()?;
        let (mut nodes, _) = crate::describe::build_tree(
            document.id,
            &document.file_name,
            descriptions,
            shape,
            &describer,
            &stats,
        )
        .await;
        if let Some(root) = nodes.iter_mut().find(|n| n.is_root()) {
            root.card = document.card.clone();
        }
        tree::check_invariants(&nodes, texts.len() as u32).map_err(|detail| {
            crate::library::LibraryError::BrokenTree {
                name: document.name.clone(),
                detail,
            }
        })?;
        Ok(nodes
            .into_iter()
            .map(|node| IndexedNode {
                node,
                dense: Vec::new(),
                sparse: Sparse::default(),
            })
            .collect())
    }

    /// The outline of a document's file, when the file is still where it was added
    /// from; none otherwise (its headings then make its sections).
    async fn outline_of(&self, document: &DocumentRecord) -> Vec<crate::structure::SectionStart> {
        let Ok(assets) = self.assets() else {
            return Vec::new();
        };
        let pdfium = assets.pdfium_library.clone();
        let path = std::path::PathBuf::from(&document.path);
        tokio::task::spawn_blocking(move || {
            crate::pdf::extract_front_matter(&pdfium, &path)
                .map(|front| front.sections)
                .unwrap_or_default()
        })
        .await
        .unwrap_or_default()
    }

    /// A document's points with BM25 vectors made again from its stored nodes, page
    /// texts and card, and with `dense_windows`, dense vectors too (pages in up to that
    /// many windows).
    pub(crate) async fn revectored(
        &self,
        document: &DocumentRecord,
        mut points: Vec<IndexedNode>,
        dense_windows: Option<usize>,
    ) -> Result<Vec<IndexedNode>> {
        let sparse = self.sparse_for(self.document_language(document))?;
        let include_text = self.settings().index_leaf_text;
        let embed_text = self.settings().embed_page_text;
        let leaves: Vec<(i64, u32)> = points
            .iter()
            .filter(|p| p.node.is_leaf())
            .map(|p| (document.id, p.node.page_start))
            .collect();
        let texts = self.catalog().page_texts(&leaves).await?;
        let card = document.card.as_ref();
        let text_of = |node: &Node| {
            node.is_leaf()
                .then(|| texts.get(&(document.id, node.page_start)))
                .flatten()
                .map(String::as_str)
        };
        let headings = index_text::headings(points.iter().map(|point| &point.node));
        for point in &mut points {
            let heading = headings.get(&point.node.id).map(String::as_str);
            if point.node.is_root() {
                point.node.card = document.card.clone();
            }
            let page_text = text_of(&point.node).filter(|_| include_text);
            point.sparse = Sparse::from(sparse.embed_document(&index_text::sparse_text(
                &point.node,
                card,
                heading,
                page_text,
            )));
        }
        if let Some(windows) = dense_windows {
            let embedder = self.dense().await?;
            for chunk in points.chunks_mut(EMBED_CHUNK) {
                let inputs = chunk
                    .iter()
                    .map(|point| {
                        let page_text = text_of(&point.node).filter(|_| embed_text);
                        index_text::dense_texts(
                            &point.node,
                            card,
                            headings.get(&point.node.id).map(String::as_str),
                            page_text,
                            embedder.splitter(),
                            windows,
                        )
                    })
                    .collect::<std::result::Result<Vec<_>, _>>()?;
                let vectors = embed_windows(&embedder, inputs).await?;
                for (point, vector) in chunk.iter_mut().zip(vectors) {
                    point.dense = vector;
                }
            }
        }
        Ok(points)
    }
}

/// Embeds groups of windows off the async runtime: one vector per window, in groups.
async fn embed_windows(
    embedder: &std::sync::Arc<crate::embed::DenseEmbedder>,
    groups: Vec<crate::embed::DenseTexts>,
) -> Result<Vec<Vec<Vec<f32>>>> {
    let model = embedder.clone();
    Ok(
        tokio::task::spawn_blocking(move || model.embed_grouped(&groups))
            .await
            .map_err(|err| crate::embed::EmbedError::Inference(err.to_string()))??,
    )
}

/// What to tell about a document's pages: those without text, and those the model did
/// not describe (with its last error, or why it was given up on before them).
fn warnings(
    pages: &DescribeReport,
    tree: &DescribeReport,
    texts: &[PageText],
    given_up: Option<String>,
) -> Vec<String> {
    let mut warnings = Vec::new();
    // Scans are named by the OCR stage's own warnings.
    let without_text: Vec<String> = texts
        .iter()
        .filter(|p| !p.has_text && p.ocr == crate::ocr::PageOcr::NotNeeded)
        .map(|p| p.number.to_string())
        .collect();
    if !without_text.is_empty() {
        warnings.push(format!(
            "{} page(s) have no text layer and cannot be searched by their content: {}",
            without_text.len(),
            abbreviate(&without_text)
        ));
    }
    let fallbacks = pages.fallbacks + tree.fallbacks;
    if fallbacks > 0 {
        let reason = pages
            .last_error
            .as_ref()
            .or(tree.last_error.as_ref())
            .or(given_up.as_ref())
            .map(|e| format!(" (last problem: {e})"))
            .unwrap_or_default();
        warnings.push(format!(
            "the language model could not describe {fallbacks} page(s) or section(s); they were described offline{reason}"
        ));
    }
    warnings
}

/// Tells the user of an English-only library that a document in another language is
/// found by its words alone, and how to have it found by meaning too.
fn model_language_warning(model: DenseModel, language: &str) -> Option<String> {
    if model != DenseModel::MiniLm || language == "english" {
        return None;
    }
    Some(format!(
        "this document is in {language}, and the library's embedding model ({}) reads English only, so its pages are found by their words alone; to find them by meaning too, choose {} in Settings (or run `pagetree reindex --model {}`)",
        model.label(),
        DenseModel::E5Small.label(),
        DenseModel::E5Small.id(),
    ))
}

fn abbreviate(items: &[String]) -> String {
    const SHOWN: usize = 12;
    if items.len() <= SHOWN {
        items.join(", ")
    } else {
        format!(
            "{}, … ({} more)",
            items[..SHOWN].join(", "),
            items.len() - SHOWN
        )
    }
}

fn hash_file(mut reader: std::fs::File, file: &str) -> Result<String> {
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let read = reader
            .read(&mut buffer)
            .map_err(|source| FileError::Unreadable {
                file: file.to_string(),
                source,
            })?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
    }
    Ok(hex::encode(hasher.finalize()))
}

/// The outcome of a blocking read of `file` (pdfium, Tesseract): a reader that stopped
/// (it panicked, or the runtime shut down) is a corrupt PDF, `reader` naming which one.
fn read_outcome<T, E: Into<Error>>(
    file: &str,
    reader: &str,
    joined: std::result::Result<std::result::Result<T, E>, tokio::task::JoinError>,
) -> Result<T> {
    joined
        .map_err(|err| {
            Error::Pdf(PdfError::Corrupt {
                file: file.to_string(),
                detail: format!("{reader} stopped: {err}"),
            })
        })?
        .map_err(Into::into)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_reader_that_stopped_is_a_corrupt_pdf_and_its_own_error_passes_through() {
        let stuck = tokio::spawn(std::future::pending::<std::result::Result<u32, PdfError>>());
        stuck.abort();
        match read_outcome("a.pdf", "the OCR", stuck.await) {
            Err(Error::Pdf(PdfError::Corrupt { file, detail })) => {
                assert_eq!(file, "a.pdf");
                assert!(detail.starts_with("the OCR stopped: "), "{detail}");
            }
            other => panic!("not a corrupt PDF: {other:?}"),
        }
        let refused: std::result::Result<u32, PdfError> = Err(PdfError::Corrupt {
            file: "b.pdf".into(),
            detail: "no pages".into(),
        });
        match read_outcome("", "the reader", Ok(refused)) {
            Err(Error::Pdf(PdfError::Corrupt { file, detail })) => {
                assert_eq!((file.as_str(), detail.as_str()), ("b.pdf", "no pages"));
            }
            other => panic!("not the reader's own error: {other:?}"),
        }
        assert_eq!(
            read_outcome::<_, PdfError>("", "the reader", Ok(Ok(3))).ok(),
            Some(3)
        );
    }

    #[test]
    fn an_english_only_model_is_named_for_a_document_in_another_language() {
        let warning = model_language_warning(DenseModel::MiniLm, "russian").expect("warned");
        assert!(warning.contains("in russian"), "{warning}");
        assert!(warning.contains("reindex --model e5-small"), "{warning}");
        assert_eq!(model_language_warning(DenseModel::MiniLm, "english"), None);
        assert_eq!(model_language_warning(DenseModel::E5Small, "spanish"), None);
    }

    #[test]
    fn warnings_name_pages_without_text() {
        let pages = vec![
            PageText {
                number: 1,
                text: "a".into(),
                has_text: true,
                ocr: crate::ocr::PageOcr::NotNeeded,
                label: None,
            },
            PageText {
                number: 2,
                text: String::new(),
                has_text: false,
                ocr: crate::ocr::PageOcr::NotNeeded,
                label: None,
            },
        ];
        let warnings = warnings(
            &DescribeReport::default(),
            &DescribeReport::default(),
            &pages,
            None,
        );
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains(": 2"), "{}", warnings[0]);
    }
}
