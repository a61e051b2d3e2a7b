//! The library's catalog in SQLite: documents, page texts and settings.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::Row;

use crate::card::DocumentCard;
use crate::ocr::{PageRect, WordBox};
use crate::pdf::PageText;
use crate::redact::Redactor;
use crate::statements::{statement_on_page, FinancialStatement};
use crate::word_bag::word_bag;

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("the library catalog {path} cannot be opened: {detail}")]
    Open { path: String, detail: String },
    #[error("the library catalog could not be upgraded: {0}")]
    Migrate(String),
    #[error("the library catalog failed: {0}")]
    Query(#[from] sqlx::Error),
    #[error("no document called `{0}` is in the library")]
    UnknownDocument(String),
}

/// What a search may use, as [`Catalog::search_scope`] reads it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchScope {
    /// `(document id, node count)` of every searchable document, in id order.
    pub node_counts: Vec<(i64, u32)>,
    /// Documents being ingested: their points may be in the store already.
    pub being_written: usize,
    /// The cards of the searchable documents that have one, in id order.
    pub cards: Vec<(i64, DocumentCard)>,
    /// The languages of the searchable documents that have one, each once, sorted.
    pub languages: Vec<String>,
    /// The financial statement pages of the searchable documents, in document and page
    /// order.
    pub statement_pages: Vec<StatementPage>,
}

/// A page that is one of its document's primary financial statements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatementPage {
    pub doc_id: i64,
    pub page: u32,
    pub statement: FinancialStatement,
}

/// What the `statement` column holds for a page of this text.
fn statement_column(text: &str) -> &'static str {
    statement_on_page(text).map_or("", FinancialStatement::as_str)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum DocumentStatus {
    /// Being written; not searchable.
    Ingesting,
    Ready,
    Failed,
    /// Left half-written by a process that is gone (a crash or a kill): removed the next
    /// time the library is opened for writing, or when the file is added again.
    Interrupted,
}

impl DocumentStatus {
    fn as_str(self) -> &'static str {
        match self {
            // Interrupted is what a listing makes of `ingesting`; it is never stored.
            DocumentStatus::Ingesting | DocumentStatus::Interrupted => "ingesting",
            DocumentStatus::Ready => "ready",
            DocumentStatus::Failed => "failed",
        }
    }

    fn parse(text: &str) -> Self {
        match text {
            "ready" => DocumentStatus::Ready,
            "ingesting" => DocumentStatus::Ingesting,
            _ => DocumentStatus::Failed,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DocumentRecord {
    pub id: i64,
    pub name: String,
    pub file_name: String,
    pub path: String,
    pub content_hash: String,
    pub page_count: Option<u32>,
    pub pages_without_text: Option<u32>,
    /// Pages whose text OCR read.
    pub pages_read_by_ocr: Option<u32>,
    /// Scans left unread: OCR is off for the library or Tesseract was missing.
    pub pages_needing_ocr: Option<u32>,
    pub node_count: Option<u32>,
    pub status: DocumentStatus,
    pub error: Option<String>,
    pub describer: Option<String>,
    pub warnings: Option<String>,
    /// What the document says it is; none for documents ingested before cards.
    pub card: Option<DocumentCard>,
    /// The language its text is in, as BM25 stems it; none if it could not be told or
    /// the library stems every document alike.
    pub language: Option<String>,
    pub added_at: String,
    pub updated_at: String,
}

/// The number printed on a page of a document (its PDF page label, see
/// [`PageText::label`]), for a reader who pages through it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PageLabel {
    /// The PDF page, 1-based.
    pub page: u32,
    pub label: String,
}

#[derive(Clone)]
pub struct Catalog {
    pool: SqlitePool,
    /// The last search scope read, with the `documents_version` it was read at.
    search_scope: Arc<Mutex<Option<(i64, SearchScope)>>>,
    /// Hides the run's keys in what servers said before it is stored (warnings,
    /// failures, failed runs).
    redactor: Arc<Mutex<Redactor>>,
}

const DOCUMENT_COLUMNS: &str = "d.id, d.name, d.file_name, d.path, d.content_hash, d.page_count, \
    d.node_count, d.status, d.error, d.describer, d.warnings, d.card, d.language, d.added_at, d.updated_at, \
    d.ingest_owner, \
    (SELECT COUNT(*) FROM pages p WHERE p.document_id = d.id AND p.has_text = 0) AS pages_without_text, \
    (SELECT COUNT(*) FROM pages p WHERE p.document_id = d.id AND p.ocr = 'read') AS pages_read_by_ocr, \
    (SELECT COUNT(*) FROM pages p WHERE p.document_id = d.id AND p.ocr = 'needed') AS pages_needing_ocr";

impl Catalog {
    pub async fn open(path: &Path) -> Result<Self, CatalogError> {
        let open_error = |detail: String| CatalogError::Open {
            path: path.display().to_string(),
            detail,
        };
        let options = SqliteConnectOptions::from_str("sqlite://")
            .map_err(|e| open_error(e.to_string()))?
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await
            .map_err(|e| open_error(e.to_string()))?;
        MIGRATOR
            .run(&pool)
            .await
            .map_err(|e| CatalogError::Migrate(e.to_string()))?;
        let catalog = Self {
            pool,
            search_scope: Arc::default(),
            redactor: Arc::default(),
        };
        catalog.read_statements_of_older_pages().await?;
        catalog.index_words_of_older_documents().await?;
        Ok(catalog)
    }

    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Hides these keys (and any token-shaped word) in text stored from now on.
    pub(crate) fn set_redactor(&self, redactor: Redactor) {
        *self.redactor.lock().unwrap_or_else(|p| p.into_inner()) = redactor;
    }

    /// `text` as it may be stored: without a key or a token in it.
    pub(crate) fn scrub(&self, text: &str) -> String {
        self.redactor
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .scrub(text)
            .into_owned()
    }

    /// Hides keys and tokens stored before they were hidden: in documents' warnings and
    /// errors and in failed runs. Only rows that may hold one are read, so a library
    /// opened again costs one indexed-free scan of two text columns and no write.
    pub(crate) async fn scrub_secrets(&self) -> Result<(), CatalogError> {
        let secrets = self
            .redactor
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .secrets()
            .to_vec();
        for (table, column) in [
            ("documents", "warnings"),
            ("documents", "error"),
            ("runs", "error"),
        ] {
            let mut condition = format!(
                "{column} LIKE '%bearer%' OR {column} LIKE '%sk-%' OR {column} LIKE '%://%@%'"
            );
            for _ in &secrets {
                condition.push_str(&format!(" OR instr({column}, ?) > 0"));
            }
            let sql = format!(
                "SELECT id, {column} FROM {table} WHERE {column} IS NOT NULL AND ({condition})"
            );
            let mut query = sqlx::query(&sql);
            for secret in &secrets {
                query = query.bind(secret);
            }
            let rows = query.fetch_all(&self.pool).await?;
            let mut changed = Vec::new();
            for row in &rows {
                let text: String = row.get(1);
                let scrubbed = self.scrub(&text);
                if scrubbed != text {
                    changed.push((row.get::<i64, _>(0), scrubbed));
                }
            }
            if changed.is_empty() {
                continue;
            }
            let mut tx = self.pool.begin().await?;
            for (id, scrubbed) in &changed {
                sqlx::query(&format!("UPDATE {table} SET {column} = ? WHERE id = ?"))
                    .bind(scrubbed)
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            tracing::info!(
                table,
                column,
                rows = changed.len(),
                "hid keys stored by an earlier version"
            );
        }
        Ok(())
    }

    pub(crate) async fn find_by_hash(
        &self,
        hash: &str,
    ) -> Result<Option<DocumentRecord>, CatalogError> {
        let sql = format!("SELECT {DOCUMENT_COLUMNS} FROM documents d WHERE d.content_hash = ?");
        let row = sqlx::query(&sql)
            .bind(hash)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|row| record(&row)))
    }

    /// Registers a document as being ingested by this process, under a name no other
    /// document has.
    pub async fn begin_document(
        &self,
        hash: &str,
        file_name: &str,
        path: &str,
    ) -> Result<DocumentRecord, CatalogError> {
        let stem = Path::new(file_name)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| file_name.to_string());
        let mut tx = self.pool.begin().await?;
        let mut name = stem.clone();
        let mut suffix = 2;
        while sqlx::query("SELECT 1 FROM documents WHERE name = ?")
            .bind(&name)
            .fetch_optional(&mut *tx)
            .await?
            .is_some()
        {
            name = format!("{stem} ({suffix})");
            suffix += 1;
        }
        let id: i64 = sqlx::query(
            "INSERT INTO documents (content_hash, name, file_name, path, status, ingest_owner) VALUES (?, ?, ?, ?, 'ingesting', ?) RETURNING id",
        )
        .bind(hash)
        .bind(&name)
        .bind(file_name)
        .bind(path)
        .bind(crate::owner::this_process())
        .fetch_one(&mut *tx)
        .await?
        .get(0);
        tx.commit().await?;
        self.document_by_id(id)
            .await?
            .ok_or_else(|| CatalogError::UnknownDocument(name))
    }

    /// Pages saved before the catalog knew financial statements are read for them once,
    /// in one transaction: a library made earlier searches as well as a new one.
    async fn read_statements_of_older_pages(&self) -> Result<(), CatalogError> {
        let rows = sqlx::query(
            "SELECT document_id, page_number, substr(text, 1, ?) FROM pages WHERE statement IS NULL",
        )
        .bind(crate::statements::INDEX_CHARS as i64)
        .fetch_all(&self.pool)
        .await?;
        if rows.is_empty() {
            return Ok(());
        }
        let mut tx = self.pool.begin().await?;
        for row in &rows {
            sqlx::query("UPDATE pages SET statement = ? WHERE document_id = ? AND page_number = ?")
                .bind(statement_column(&row.get::<String, _>(2)))
                .bind(row.get::<i64, _>(0))
                .bind(row.get::<i64, _>(1))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        tracing::info!(
            pages = rows.len(),
            "read the financial statements of older pages"
        );
        Ok(())
    }

    /// Writes the whole-text index's bags of the documents stored before it kept bags
    /// (half a second for financebench-dev's 81 filings), in one transaction.
    async fn index_words_of_older_documents(&self) -> Result<(), CatalogError> {
        let unindexed: Vec<i64> =
            sqlx::query_scalar("SELECT document_id FROM document_words_unindexed")
                .fetch_all(&self.pool)
                .await?;
        if unindexed.is_empty() {
            return Ok(());
        }
        let mut tx = self.pool.begin().await?;
        for &doc_id in &unindexed {
            index_document_words(&mut tx, doc_id).await?;
        }
        sqlx::query("DELETE FROM document_words_unindexed")
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        tracing::info!(
            documents = unindexed.len(),
            "indexed the words of older documents"
        );
        Ok(())
    }

    /// Stores a document's pages, and the words OCR read on each of `words`' pages.
    pub(crate) async fn save_pages(
        &self,
        doc_id: i64,
        pages: &[PageText],
        words: &[(u32, Vec<WordBox>)],
    ) -> Result<(), CatalogError> {
        let mut tx = self.pool.begin().await?;
        for page in pages {
            sqlx::query("INSERT OR REPLACE INTO pages (document_id, page_number, text, has_text, statement, ocr, label) VALUES (?, ?, ?, ?, ?, ?, ?)")
                .bind(doc_id)
                .bind(page.number)
                .bind(&page.text)
                .bind(page.has_text)
                .bind(statement_column(&page.text))
                .bind(page.ocr.as_column())
                .bind(page.label.as_deref())
                .execute(&mut *tx)
                .await?;
        }
        for (page, boxes) in words {
            sqlx::query("DELETE FROM page_words WHERE document_id = ? AND page_number = ?")
                .bind(doc_id)
                .bind(page)
                .execute(&mut *tx)
                .await?;
            insert_words(&mut tx, doc_id, *page, boxes).await?;
        }
        index_document_words(&mut tx, doc_id).await?;
        sqlx::query("UPDATE documents SET page_count = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?")
            .bind(pages.len() as i64)
            .bind(doc_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The words OCR read on a page, in reading order, with their boxes in PDF points;
    /// none for a page whose text is its own text layer.
    pub async fn page_word_boxes(
        &self,
        doc_id: i64,
        page: u32,
    ) -> Result<Vec<WordBox>, CatalogError> {
        let rows = sqlx::query(
            "SELECT text, left_pt, bottom_pt, right_pt, top_pt, confidence FROM page_words \
             WHERE document_id = ? AND page_number = ? ORDER BY word_number",
        )
        .bind(doc_id)
        .bind(page)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|row| WordBox {
                text: row.get(0),
                rect: PageRect {
                    left: row.get::<f64, _>(1) as f32,
                    bottom: row.get::<f64, _>(2) as f32,
                    right: row.get::<f64, _>(3) as f32,
                    top: row.get::<f64, _>(4) as f32,
                },
                confidence: row.get::<f64, _>(5) as f32,
            })
            .collect())
    }

    /// Sets the page count of a document whose page texts are not kept (synthetic ones).
    pub(crate) async fn set_page_count(&self, doc_id: i64, pages: u32) -> Result<(), CatalogError> {
        sqlx::query("UPDATE documents SET page_count = ? WHERE id = ?")
            .bind(pages)
            .bind(doc_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Records the language a document's text is in.
    pub(crate) async fn set_language(
        &self,
        doc_id: i64,
        language: &str,
    ) -> Result<(), CatalogError> {
        sqlx::query("UPDATE documents SET language = ? WHERE id = ?")
            .bind(language)
            .bind(doc_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Stores a document's card (replacing any before it).
    pub(crate) async fn set_card(
        &self,
        doc_id: i64,
        card: &DocumentCard,
    ) -> Result<(), CatalogError> {
        let json = serde_json::to_string(card)
            .map_err(|err| CatalogError::Query(sqlx::Error::Encode(Box::new(err))))?;
        sqlx::query(
            "UPDATE documents SET card = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
        )
        .bind(json)
        .bind(doc_id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub(crate) async fn mark_ready(
        &self,
        doc_id: i64,
        node_count: usize,
        describer: &str,
        warnings: Option<&str>,
    ) -> Result<(), CatalogError> {
        sqlx::query(
            "UPDATE documents SET status = 'ready', node_count = ?, describer = ?, warnings = ?, error = NULL, \
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
        )
        .bind(node_count as i64)
        .bind(describer)
        .bind(warnings.map(|warnings| self.scrub(warnings)))
        .bind(doc_id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Records the node counts of documents whose trees were rebuilt, all at once.
    pub(crate) async fn set_node_counts(
        &self,
        counts: &[(i64, usize)],
    ) -> Result<(), CatalogError> {
        let mut tx = self.pool.begin().await?;
        for &(doc_id, count) in counts {
            sqlx::query(
                "UPDATE documents SET node_count = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
            )
            .bind(count as i64)
            .bind(doc_id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Keeps a failed document's reason so the library can show it; its pages go.
    pub(crate) async fn mark_failed(&self, doc_id: i64, error: &str) -> Result<(), CatalogError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM pages WHERE document_id = ?")
            .bind(doc_id)
            .execute(&mut *tx)
            .await?;
        forget_document_words(&mut tx, doc_id).await?;
        sqlx::query(
            "UPDATE documents SET status = 'failed', error = ?, node_count = NULL, \
             updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?",
        )
        .bind(self.scrub(error))
        .bind(doc_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Whether the library holds any document, whatever its status: settings that
    /// cannot change once something was added ask this, some before every file.
    pub async fn has_documents(&self) -> Result<bool, CatalogError> {
        let exists: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM documents)")
            .fetch_one(&self.pool)
            .await?;
        Ok(exists)
    }

    pub async fn documents(&self) -> Result<Vec<DocumentRecord>, CatalogError> {
        let sql = format!("SELECT {DOCUMENT_COLUMNS} FROM documents d ORDER BY d.id");
        let rows = sqlx::query(&sql).fetch_all(&self.pool).await?;
        Ok(rows.iter().map(record).collect())
    }

    pub(crate) async fn documents_with_status(
        &self,
        status: DocumentStatus,
    ) -> Result<Vec<DocumentRecord>, CatalogError> {
        let sql =
            format!("SELECT {DOCUMENT_COLUMNS} FROM documents d WHERE d.status = ? ORDER BY d.id");
        let rows = sqlx::query(&sql)
            .bind(status.as_str())
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(record).collect())
    }

    pub(crate) async fn document_by_id(
        &self,
        id: i64,
    ) -> Result<Option<DocumentRecord>, CatalogError> {
        let sql = format!("SELECT {DOCUMENT_COLUMNS} FROM documents d WHERE d.id = ?");
        let row = sqlx::query(&sql)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|row| record(&row)))
    }

    /// Finds a document by its name (`3M_2018_10K`), its file name, or its id.
    pub async fn resolve(&self, key: &str) -> Result<DocumentRecord, CatalogError> {
        let sql = format!(
            "SELECT {DOCUMENT_COLUMNS} FROM documents d WHERE d.name = ?1 OR d.file_name = ?1 \
             OR CAST(d.id AS TEXT) = ?1 ORDER BY (d.name = ?1) DESC, d.id LIMIT 1"
        );
        let row = sqlx::query(&sql)
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|row| record(&row))
            .ok_or_else(|| CatalogError::UnknownDocument(key.to_string()))
    }

    /// The process that began writing a document (see [`crate::owner`]), if recorded.
    pub async fn ingest_owner(&self, doc_id: i64) -> Result<Option<String>, CatalogError> {
        let owner = sqlx::query_scalar("SELECT ingest_owner FROM documents WHERE id = ?")
            .bind(doc_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(owner.flatten())
    }

    pub async fn delete_document(&self, doc_id: i64) -> Result<(), CatalogError> {
        sqlx::query("DELETE FROM documents WHERE id = ?")
            .bind(doc_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// How many documents of the whole-text index hold each of `words` (lowercase); a
    /// word none holds is left out.
    pub async fn document_word_counts(
        &self,
        words: &[String],
    ) -> Result<HashMap<String, usize>, CatalogError> {
        if words.is_empty() {
            return Ok(HashMap::new());
        }
        // One lookup a word: the vocabulary table seeks a term it is given alone, but
        // scans for a list (`term IN (...)`).
        let sql = vec!["SELECT term, doc FROM document_word_counts WHERE term = ?"; words.len()]
            .join(" UNION ALL ");
        let mut query = sqlx::query_as::<_, (String, i64)>(&sql);
        for word in words {
            query = query.bind(word);
        }
        Ok(query
            .fetch_all(&self.pool)
            .await?
            .into_iter()
            .map(|(word, documents)| (word, documents.max(0) as usize))
            .collect())
    }

    /// How well each document's whole text matches `expression` (an FTS5 query of
    /// the question's words): BM25, higher is better; documents holding none of the
    /// words are left out.
    pub async fn document_word_scores(
        &self,
        expression: &str,
    ) -> Result<Vec<(i64, f32)>, CatalogError> {
        // One row holds every document's score: sqlx decodes rows one by one, and at a
        // few thousand matching documents that was most of the query's time.
        let scores: Option<String> = sqlx::query_scalar(
            "WITH scored AS MATERIALIZED ( \
                 SELECT rowid AS id, bm25(document_words) AS score \
                 FROM document_words WHERE document_words MATCH ?) \
             SELECT group_concat(id || ' ' || score, ' ') FROM scored",
        )
        .bind(expression)
        .fetch_one(&self.pool)
        .await?;
        let values: Vec<&str> = scores.as_deref().unwrap_or("").split_whitespace().collect();
        // FTS5's bm25() is negative, the best match the lowest.
        Ok(values
            .chunks_exact(2)
            .filter_map(|pair| {
                let doc = pair[0].parse::<i64>().ok()?;
                let score = pair[1].parse::<f64>().ok()?;
                Some((doc, -score as f32))
            })
            .collect())
    }

    /// The ready documents that have nodes, with their node counts, in id order: all a
    /// search needs to find every tree's root, without the per-document page counts
    /// [`Catalog::documents`] works out. Also how many documents are being written,
    /// whose points may already be in the store.
    ///
    /// Every search asks, and reading the rows cost 5.5 ms at 3,491 documents (most of
    /// it sqlx's per-row cost), so the scope is kept until `documents_version` says the
    /// table changed, in this process or another.
    pub async fn search_scope(&self) -> Result<SearchScope, CatalogError> {
        // The version is read first: a change after it makes the next call read again.
        let version: i64 = sqlx::query_scalar("SELECT version FROM documents_version")
            .fetch_one(&self.pool)
            .await?;
        if let Some((read_at, scope)) = self.cached_scope().as_ref() {
            if *read_at == version {
                return Ok(scope.clone());
            }
        }
        let scope = self.read_search_scope().await?;
        *self.cached_scope() = Some((version, scope.clone()));
        Ok(scope)
    }

    fn cached_scope(&self) -> std::sync::MutexGuard<'_, Option<(i64, SearchScope)>> {
        self.search_scope
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    async fn read_search_scope(&self) -> Result<SearchScope, CatalogError> {
        let rows = sqlx::query(
            "SELECT id, node_count, status = ?, card, language FROM documents \
             WHERE (status = ? AND node_count > 0) OR status = ? ORDER BY id",
        )
        .bind(DocumentStatus::Ready.as_str())
        .bind(DocumentStatus::Ready.as_str())
        .bind(DocumentStatus::Ingesting.as_str())
        .fetch_all(&self.pool)
        .await?;
        let mut scope = SearchScope::default();
        for row in &rows {
            if row.get::<bool, _>(2) {
                let id = row.get::<i64, _>(0);
                scope.node_counts.push((id, row.get::<i64, _>(1) as u32));
                if let Some(card) = parse_card(row.get::<Option<String>, _>(3).as_deref()) {
                    scope.cards.push((id, card));
                }
                if let Some(language) = row.get::<Option<String>, _>(4) {
                    scope.languages.push(language);
                }
            } else {
                scope.being_written += 1;
            }
        }
        scope.languages.sort();
        scope.languages.dedup();
        let searchable: HashSet<i64> = scope.node_counts.iter().map(|&(id, _)| id).collect();
        let statements = sqlx::query(
            "SELECT document_id, page_number, statement FROM pages \
             WHERE statement <> '' ORDER BY document_id, page_number",
        )
        .fetch_all(&self.pool)
        .await?;
        scope.statement_pages = statements
            .iter()
            .filter(|row| searchable.contains(&row.get::<i64, _>(0)))
            .filter_map(|row| {
                Some(StatementPage {
                    doc_id: row.get(0),
                    page: row.get::<i64, _>(1) as u32,
                    statement: FinancialStatement::parse(&row.get::<String, _>(2))?,
                })
            })
            .collect();
        Ok(scope)
    }

    /// The texts of many pages in a few queries; pages without a row are left out.
    pub(crate) async fn page_texts(
        &self,
        pages: &[(i64, u32)],
    ) -> Result<HashMap<(i64, u32), String>, CatalogError> {
        self.page_column(pages, PageColumn::Text).await
    }

    /// The printed labels of many pages (see [`PageText::label`]); pages without one,
    /// or without a row, are left out.
    pub async fn page_labels(
        &self,
        pages: &[(i64, u32)],
    ) -> Result<HashMap<(i64, u32), String>, CatalogError> {
        self.page_column(pages, PageColumn::Label).await
    }

    /// Every printed label of the document `doc_id`, in page order; pages without one
    /// are left out, so a PDF without labels has none.
    pub async fn document_page_labels(&self, doc_id: i64) -> Result<Vec<PageLabel>, CatalogError> {
        let rows = sqlx::query(
            "SELECT page_number, label FROM pages \
             WHERE document_id = ? AND label IS NOT NULL ORDER BY page_number",
        )
        .bind(doc_id)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|row| PageLabel {
                page: row.get::<i64, _>(0) as u32,
                label: row.get(1),
            })
            .collect())
    }

    /// One text column of many pages in a few queries; a page whose value is NULL, or
    /// that has no row, is left out.
    async fn page_column(
        &self,
        pages: &[(i64, u32)],
        column: PageColumn,
    ) -> Result<HashMap<(i64, u32), String>, CatalogError> {
        // Two parameters a page, well under SQLite's limit on parameters.
        const PAGES_PER_QUERY: usize = 400;
        let column = column.name();
        let mut values = HashMap::with_capacity(pages.len());
        for chunk in pages.chunks(PAGES_PER_QUERY) {
            let pairs = vec!["(?, ?)"; chunk.len()].join(", ");
            let sql = format!(
                "SELECT document_id, page_number, {column} FROM pages \
                 WHERE {column} IS NOT NULL AND (document_id, page_number) IN (VALUES {pairs})"
            );
            let mut query = sqlx::query(&sql);
            for (doc_id, page) in chunk {
                query = query.bind(doc_id).bind(page);
            }
            for row in query.fetch_all(&self.pool).await? {
                let page = row.get::<i64, _>(1) as u32;
                values.insert((row.get(0), page), row.get(2));
            }
        }
        Ok(values)
    }

    /// The pages of `documents` a question naming page `label` means: in each document,
    /// the pages whose printed label is `label` (case aside, "XII" is "xii"), and in a
    /// document with no such label, its PDF page of that number when `label` is one.
    pub async fn pages_named(
        &self,
        documents: &[i64],
        label: &str,
    ) -> Result<Vec<(i64, u32)>, CatalogError> {
        // Through the index on labels: the pages' rows hold their text before the label.
        let rows = sqlx::query(
            "SELECT document_id, page_number FROM pages \
             WHERE label IS NOT NULL AND label = ? COLLATE NOCASE",
        )
        .bind(label)
        .fetch_all(&self.pool)
        .await?;
        let wanted: HashSet<i64> = documents.iter().copied().collect();
        let mut named: Vec<(i64, u32)> = rows
            .iter()
            .map(|row| (row.get::<i64, _>(0), row.get::<i64, _>(1) as u32))
            .filter(|(doc_id, _)| wanted.contains(doc_id))
            .collect();
        let labelled: HashSet<i64> = named.iter().map(|&(doc_id, _)| doc_id).collect();
        let unlabelled: Vec<i64> = documents
            .iter()
            .copied()
            .filter(|doc_id| !labelled.contains(doc_id))
            .collect();
        if let Some(number) = label.parse::<u32>().ok().filter(|&number| number > 0) {
            // One parameter a document, and one for the page.
            const DOCUMENTS_PER_QUERY: usize = 800;
            for chunk in unlabelled.chunks(DOCUMENTS_PER_QUERY) {
                let ids = vec!["?"; chunk.len()].join(", ");
                let sql = format!(
                    "SELECT document_id FROM pages WHERE page_number = ? AND document_id IN ({ids})"
                );
                let mut query = sqlx::query(&sql).bind(number);
                for doc_id in chunk {
                    query = query.bind(doc_id);
                }
                for row in query.fetch_all(&self.pool).await? {
                    named.push((row.get(0), number));
                }
            }
        }
        named.sort_unstable();
        named.dedup();
        Ok(named)
    }

    pub async fn page_text(&self, doc_id: i64, page: u32) -> Result<Option<String>, CatalogError> {
        let row = sqlx::query("SELECT text FROM pages WHERE document_id = ? AND page_number = ?")
            .bind(doc_id)
            .bind(page)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|row| row.get(0)))
    }

    pub async fn setting(&self, key: &str) -> Result<Option<String>, CatalogError> {
        let row = sqlx::query("SELECT value FROM settings WHERE key = ?")
            .bind(key)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|row| row.get(0)))
    }

    /// A setting stored as JSON; the default when it is missing or no longer parses
    /// (an older or newer shape), so a settings change never locks anyone out.
    pub async fn json_setting<T: serde::de::DeserializeOwned + Default>(
        &self,
        key: &str,
    ) -> Result<T, CatalogError> {
        Ok(self
            .setting(key)
            .await?
            .and_then(|json| serde_json::from_str(&json).ok())
            .unwrap_or_default())
    }

    pub async fn set_json_setting<T: serde::Serialize>(
        &self,
        key: &str,
        value: &T,
    ) -> Result<(), CatalogError> {
        let json = serde_json::to_string(value).unwrap_or_default();
        self.set_setting(key, &json).await
    }

    pub(crate) async fn remove_setting(&self, key: &str) -> Result<(), CatalogError> {
        sqlx::query("DELETE FROM settings WHERE key = ?")
            .bind(key)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub(crate) async fn set_setting(&self, key: &str, value: &str) -> Result<(), CatalogError> {
        sqlx::query("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
            .bind(key)
            .bind(value)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

/// Writes a document's stored pages into the whole-text index as one bag of words, in
/// place of what it held for the document.
async fn index_document_words(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    doc_id: i64,
) -> Result<(), CatalogError> {
    forget_document_words(tx, doc_id).await?;
    let texts: Vec<String> =
        sqlx::query_scalar("SELECT text FROM pages WHERE document_id = ? ORDER BY page_number")
            .bind(doc_id)
            .fetch_all(&mut **tx)
            .await?;
    sqlx::query("INSERT INTO document_words (rowid, body) VALUES (?, ?)")
        .bind(doc_id)
        .bind(word_bag(texts.iter().map(String::as_str)))
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Drops a document's words from the whole-text index (its pages are going or being
/// replaced).
async fn forget_document_words(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    doc_id: i64,
) -> Result<(), CatalogError> {
    sqlx::query("DELETE FROM document_words WHERE rowid = ?")
        .bind(doc_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Writes a page's words in statements of many rows: one a word costs most of the
/// time for a page of several hundred.
async fn insert_words(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    doc_id: i64,
    page: u32,
    words: &[WordBox],
) -> Result<(), CatalogError> {
    // Nine parameters a row, well under SQLite's limit on parameters.
    const ROWS: usize = 100;
    for (chunk_index, chunk) in words.chunks(ROWS).enumerate() {
        let rows = vec!["(?, ?, ?, ?, ?, ?, ?, ?, ?)"; chunk.len()].join(", ");
        let sql = format!(
            "INSERT INTO page_words (document_id, page_number, word_number, text, left_pt, bottom_pt, right_pt, top_pt, confidence) VALUES {rows}"
        );
        let mut query = sqlx::query(&sql);
        for (index, word) in chunk.iter().enumerate() {
            query = query
                .bind(doc_id)
                .bind(page)
                .bind((chunk_index * ROWS + index) as i64)
                .bind(&word.text)
                .bind(f64::from(word.rect.left))
                .bind(f64::from(word.rect.bottom))
                .bind(f64::from(word.rect.right))
                .bind(f64::from(word.rect.top))
                .bind(f64::from(word.confidence));
        }
        query.execute(&mut **tx).await?;
    }
    Ok(())
}

/// A card that cannot be read (written by a newer version, or damaged) is treated as
/// missing rather than failing every listing; the next ingestion or correction writes
/// it again.
fn parse_card(json: Option<&str>) -> Option<DocumentCard> {
    let json = json?;
    match serde_json::from_str(json) {
        Ok(card) => Some(card),
        Err(err) => {
            tracing::warn!(error = %err, "a document card could not be read");
            None
        }
    }
}

/// A document being written, as a listing shows it: interrupted once its writer is gone
/// (the row stays `ingesting` until a writer cleans it up).
fn listed_status(stored: DocumentStatus, owner: Option<&str>) -> DocumentStatus {
    match stored {
        DocumentStatus::Ingesting if !owner.is_some_and(crate::owner::is_running) => {
            DocumentStatus::Interrupted
        }
        status => status,
    }
}

fn record(row: &sqlx::sqlite::SqliteRow) -> DocumentRecord {
    let optional_u32 = |column: &str| row.get::<Option<i64>, _>(column).map(|v| v as u32);
    DocumentRecord {
        id: row.get("id"),
        name: row.get("name"),
        file_name: row.get("file_name"),
        path: row.get("path"),
        content_hash: row.get("content_hash"),
        page_count: optional_u32("page_count"),
        pages_without_text: optional_u32("pages_without_text"),
        pages_read_by_ocr: optional_u32("pages_read_by_ocr"),
        pages_needing_ocr: optional_u32("pages_needing_ocr"),
        node_count: optional_u32("node_count"),
        status: listed_status(
            DocumentStatus::parse(row.get::<String, _>("status").as_str()),
            row.get::<Option<String>, _>("ingest_owner").as_deref(),
        ),
        error: row.get("error"),
        describer: row.get("describer"),
        warnings: row.get("warnings"),
        card: parse_card(row.get::<Option<String>, _>("card").as_deref()),
        language: row.get("language"),
        added_at: row.get("added_at"),
        updated_at: row.get("updated_at"),
    }
}

/// The text columns of a page's row that are read in bulk.
#[derive(Clone, Copy)]
enum PageColumn {
    Text,
    Label,
}

impl PageColumn {
    fn name(self) -> &'static str {
        match self {
            PageColumn::Text => "text",
            PageColumn::Label => "label",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn catalog() -> (tempfile::TempDir, Catalog) {
        let dir = tempfile::tempdir().expect("temp dir");
        let catalog = Catalog::open(&dir.path().join("catalog.sqlite"))
            .await
            .expect("open");
        (dir, catalog)
    }

    #[tokio::test]
    async fn names_are_unique_and_resolvable() {
        let (_dir, catalog) = catalog().await;
        let a = catalog
            .begin_document("h1", "report.pdf", "/a/report.pdf")
            .await
            .expect("a");
        let b = catalog
            .begin_document("h2", "report.pdf", "/b/report.pdf")
            .await
            .expect("b");
        assert_eq!(a.name, "report");
        assert_eq!(b.name, "report (2)");
        assert_eq!(
            catalog.resolve("report (2)").await.expect("by name").id,
            b.id
        );
        assert_eq!(
            catalog.resolve(&a.id.to_string()).await.expect("by id").id,
            a.id
        );
        assert!(matches!(
            catalog.resolve("nope").await,
            Err(CatalogError::UnknownDocument(_))
        ));
    }

    #[tokio::test]
    async fn a_page_named_is_its_label_else_the_pdf_page_of_that_number() {
        let (_dir, catalog) = catalog().await;
        let page = |number: u32, label: Option<&str>| PageText {
            number,
            text: format!("page {number}"),
            has_text: true,
            ocr: crate::ocr::PageOcr::NotNeeded,
            label: label.map(str::to_string),
        };
        let labelled = catalog
            .begin_document("h1", "labelled.pdf", "/labelled.pdf")
            .await
            .expect("begin");
        let labels = [Some("i"), Some("ii"), Some("1"), Some("2"), Some("3")];
        let pages: Vec<PageText> = (1..).zip(labels).map(|(n, l)| page(n, l)).collect();
        catalog
            .save_pages(labelled.id, &pages, &[])
            .await
            .expect("pages");
        let plain = catalog
            .begin_document("h2", "plain.pdf", "/plain.pdf")
            .await
            .expect("begin");
        let pages: Vec<PageText> = (1..=3).map(|n| page(n, None)).collect();
        catalog
            .save_pages(plain.id, &pages, &[])
            .await
            .expect("pages");
        let both = [labelled.id, plain.id];
        assert_eq!(
            catalog.pages_named(&both, "2").await.expect("named"),
            vec![(labelled.id, 4), (plain.id, 2)],
            "the label in the labelled document, the PDF page in the other"
        );
        assert_eq!(
            catalog.pages_named(&both, "II").await.expect("named"),
            vec![(labelled.id, 2)],
            "roman numerals whatever their case, and no PDF page for them"
        );
        assert_eq!(
            catalog.pages_named(&[plain.id], "3").await.expect("named"),
            vec![(plain.id, 3)],
            "only the documents asked about"
        );
        assert!(catalog
            .pages_named(&both, "9")
            .await
            .expect("named")
            .is_empty());
        let labels = catalog
            .page_labels(&[(labelled.id, 1), (labelled.id, 4), (plain.id, 1)])
            .await
            .expect("labels");
        assert_eq!(labels.len(), 2, "no label, no entry: {labels:?}");
        assert_eq!(labels.get(&(labelled.id, 1)).map(String::as_str), Some("i"));
        assert_eq!(labels.get(&(labelled.id, 4)).map(String::as_str), Some("2"));
        let every = catalog
            .document_page_labels(labelled.id)
            .await
            .expect("labels");
        let read: Vec<(u32, &str)> = every.iter().map(|l| (l.page, l.label.as_str())).collect();
        assert_eq!(
            read,
            vec![(1, "i"), (2, "ii"), (3, "1"), (4, "2"), (5, "3")]
        );
        assert!(catalog
            .document_page_labels(plain.id)
            .await
            .expect("labels")
            .is_empty());
    }

    #[tokio::test]
    async fn statement_pages_are_read_when_saved_and_for_older_pages_on_opening() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("catalog.sqlite");
        let catalog = Catalog::open(&path).await.expect("open");
        let doc = catalog
            .begin_document("h", "h.pdf", "/h.pdf")
            .await
            .expect("begin");
        let texts = [
            "Annual report. See the Consolidated Balance Sheets on page 3.",
            "Consolidated Statements of Operations\nRevenues 1,200",
            "Consolidated Balance Sheets\nAssets",
        ];
        let pages = text_pages(&texts);
        catalog
            .save_pages(doc.id, &pages, &[])
            .await
            .expect("pages");
        catalog
            .mark_ready(doc.id, 4, "extractive", None)
            .await
            .expect("ready");
        let expected = vec![
            StatementPage {
                doc_id: doc.id,
                page: 2,
                statement: FinancialStatement::IncomeStatement,
            },
            StatementPage {
                doc_id: doc.id,
                page: 3,
                statement: FinancialStatement::BalanceSheet,
            },
        ];
        let scope = catalog.search_scope().await.expect("scope");
        assert_eq!(scope.statement_pages, expected);

        // Pages saved before the column existed have none; opening reads them.
        sqlx::query("UPDATE pages SET statement = NULL")
            .execute(&catalog.pool)
            .await
            .expect("forget");
        drop(catalog);
        let reopened = Catalog::open(&path).await.expect("reopen");
        let scope = reopened.search_scope().await.expect("scope");
        assert_eq!(scope.statement_pages, expected);
        let unread: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM pages WHERE statement IS NULL")
            .fetch_one(&reopened.pool)
            .await
            .expect("count");
        assert_eq!(unread, 0);
    }

    #[tokio::test]
    async fn searches_see_only_ready_documents_and_read_many_pages_at_once() {
        let (_dir, catalog) = catalog().await;
        let mut ids = Vec::new();
        for (hash, pages) in [("h1", 3u32), ("h2", 450), ("h3", 2)] {
            let doc = catalog
                .begin_document(hash, &format!("{hash}.pdf"), "/x.pdf")
                .await
                .expect("begin");
            let texts: Vec<PageText> = (1..=pages)
                .map(|number| PageText {
                    number,
                    text: format!("{hash} page {number}"),
                    has_text: true,
                    ocr: crate::ocr::PageOcr::NotNeeded,
                    label: None,
                })
                .collect();
            catalog
                .save_pages(doc.id, &texts, &[])
                .await
                .expect("pages");
            ids.push(doc.id);
        }
        catalog
            .mark_ready(ids[0], 4, "extractive", None)
            .await
            .expect("ready");
        catalog
            .mark_ready(ids[1], 600, "extractive", None)
            .await
            .expect("ready");
        let card = DocumentCard {
            organization: Some("3M Company".into()),
            fiscal_year: Some(2018),
            ..DocumentCard::default()
        };
        catalog.set_card(ids[0], &card).await.expect("card");
        for (id, language) in ids.iter().zip(["english", "english", "russian"]) {
            catalog.set_language(*id, language).await.expect("language");
        }
        // The third is still being ingested: not searchable.
        assert_eq!(
            catalog.search_scope().await.expect("scope"),
            SearchScope {
                node_counts: vec![(ids[0], 4), (ids[1], 600)],
                being_written: 1,
                cards: vec![(ids[0], card.clone())],
                languages: vec!["english".to_string()],
                statement_pages: Vec::new(),
            }
        );
        let stored = catalog.document_by_id(ids[0]).await.expect("read");
        assert_eq!(stored.and_then(|d| d.card), Some(card));
        catalog.mark_failed(ids[2], "broken").await.expect("failed");
        assert_eq!(
            catalog.search_scope().await.expect("scope").being_written,
            0
        );

        // More pages than one query takes, and one that does not exist.
        let mut wanted: Vec<(i64, u32)> = (1..=450).map(|page| (ids[1], page)).collect();
        wanted.push((ids[0], 2));
        wanted.push((ids[0], 99));
        let texts = catalog.page_texts(&wanted).await.expect("texts");
        assert_eq!(texts.len(), 451);
        assert_eq!(texts[&(ids[1], 450)], "h2 page 450");
        assert_eq!(texts[&(ids[0], 2)], "h1 page 2");
        assert!(!texts.contains_key(&(ids[0], 99)));
        assert!(catalog.page_texts(&[]).await.expect("none").is_empty());
    }

    fn text_pages(texts: &[&str]) -> Vec<PageText> {
        texts
            .iter()
            .zip(1..)
            .map(|(text, number)| PageText {
                number,
                text: text.to_string(),
                has_text: true,
                ocr: crate::ocr::PageOcr::NotNeeded,
                label: None,
            })
            .collect()
    }

    async fn scored(catalog: &Catalog, expression: &str) -> Vec<i64> {
        let mut scores = catalog
            .document_word_scores(expression)
            .await
            .expect("scores");
        scores.sort_by(|a, b| b.1.total_cmp(&a.1));
        scores.into_iter().map(|(doc, _)| doc).collect()
    }

    #[tokio::test]
    async fn documents_are_scored_by_their_whole_text_while_they_have_pages() {
        let (_dir, catalog) = catalog().await;
        let spread = catalog.begin_document("a", "a.pdf", "/a").await.expect("a");
        let single = catalog.begin_document("b", "b.pdf", "/b").await.expect("b");
        let other = catalog.begin_document("c", "c.pdf", "/c").await.expect("c");
        let pages = text_pages(&["A glacier carves valleys.", "Its moraines are rubble."]);
        catalog.save_pages(spread.id, &pages, &[]).await.expect("a");
        let pages = text_pages(&["A glacier in the Alps.", "Skiing and hotels."]);
        catalog.save_pages(single.id, &pages, &[]).await.expect("b");
        let pages = text_pages(&["Net sales grew."]);
        catalog.save_pages(other.id, &pages, &[]).await.expect("c");
        let question = r#""glacier" OR "moraines""#;
        // Both words, on two pages, beat one of them; no word, no score.
        assert_eq!(scored(&catalog, question).await, [spread.id, single.id]);
        assert_eq!(
            held(&catalog, &["glacier", "moraines", "skis"]).await,
            [2, 1, 0]
        );
        // Pages saved again (a document read again) replace its words.
        let pages = text_pages(&["Net sales grew again.", "Costs fell."]);
        catalog
            .save_pages(spread.id, &pages, &[])
            .await
            .expect("again");
        assert_eq!(scored(&catalog, question).await, [single.id]);
        assert_eq!(scored(&catalog, r#""again""#).await, [spread.id]);
        assert_eq!(held(&catalog, &["glacier", "sales"]).await, [1, 2]);
        catalog
            .mark_failed(single.id, "broken")
            .await
            .expect("failed");
        assert!(scored(&catalog, question).await.is_empty());
        catalog.delete_document(spread.id).await.expect("delete");
        assert_eq!(scored(&catalog, r#""sales""#).await, [other.id]);
        assert_eq!(held(&catalog, &["glacier", "sales"]).await, [0, 1]);
    }

    /// How many documents hold each of `words` (0 for one the counts leave out).
    async fn held(catalog: &Catalog, words: &[&str]) -> Vec<usize> {
        let words: Vec<String> = words.iter().map(|word| word.to_string()).collect();
        let counts = catalog.document_word_counts(&words).await.expect("counts");
        words
            .iter()
            .map(|word| counts.get(word).copied().unwrap_or(0))
            .collect()
    }

    #[tokio::test]
    async fn a_catalog_made_before_document_words_indexes_its_pages_when_opened() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("catalog.sqlite");
        let catalog = Catalog::open(&path).await.expect("open");
        let doc = catalog.begin_document("a", "a.pdf", "/a").await.expect("a");
        let pages = text_pages(&["A glacier carves valleys.", "Glacier, glacier, glacier."]);
        catalog
            .save_pages(doc.id, &pages, &[])
            .await
            .expect("pages");
        assert_eq!(indexed_count(&catalog, "glacier").await, 2);
        // Back to the catalog as it was before the whole-text index: reopened, it goes
        // through the index of running text, then the one of bags.
        for statement in [
            "DROP TRIGGER document_words_of_deleted_document",
            "DROP TABLE document_words",
            "DROP TABLE document_words_unindexed",
            "DROP TABLE document_word_counts",
            "DELETE FROM _sqlx_migrations WHERE description IN ('document words', 'document word bags')",
        ] {
            sqlx::query(statement)
                .execute(&catalog.pool)
                .await
                .expect(statement);
        }
        catalog.pool.close().await;
        let reopened = Catalog::open(&path).await.expect("reopen");
        assert_eq!(scored(&reopened, r#""glacier""#).await, [doc.id]);
        assert_eq!(
            indexed_count(&reopened, "glacier").await,
            2,
            "four occurrences are indexed as a bag's two"
        );
        let unindexed: i64 = sqlx::query_scalar("SELECT count(*) FROM document_words_unindexed")
            .fetch_one(&reopened.pool)
            .await
            .expect("unindexed");
        assert_eq!(unindexed, 0);
    }

    /// How many times the whole-text index holds `term`, over every document.
    async fn indexed_count(catalog: &Catalog, term: &str) -> i64 {
        sqlx::query_scalar("SELECT cnt FROM document_word_counts WHERE term = ?")
            .bind(term)
            .fetch_one(&catalog.pool)
            .await
            .expect("term")
    }

    #[tokio::test]
    async fn lifecycle_from_ingesting_to_ready_and_deleted() {
        let (_dir, catalog) = catalog().await;
        assert!(!catalog.has_documents().await.expect("exists"));
        let doc = catalog
            .begin_document("h", "a.pdf", "/a.pdf")
            .await
            .expect("begin");
        assert_eq!(doc.status, DocumentStatus::Ingesting);
        assert!(
            catalog.has_documents().await.expect("exists"),
            "a document being ingested counts"
        );
        let pages = vec![
            PageText {
                number: 1,
                text: "one".into(),
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
        catalog
            .save_pages(doc.id, &pages, &[])
            .await
            .expect("pages");
        catalog
            .mark_ready(doc.id, 3, "extractive", None)
            .await
            .expect("ready");
        let ready = catalog
            .find_by_hash("h")
            .await
            .expect("query")
            .expect("found");
        assert_eq!(ready.status, DocumentStatus::Ready);
        assert_eq!(ready.page_count, Some(2));
        assert_eq!(ready.pages_without_text, Some(1));
        assert_eq!(
            catalog.page_text(doc.id, 1).await.expect("text").as_deref(),
            Some("one")
        );
        catalog.delete_document(doc.id).await.expect("delete");
        assert!(catalog.page_text(doc.id, 1).await.expect("text").is_none());
        assert!(catalog.documents().await.expect("list").is_empty());
        assert!(!catalog.has_documents().await.expect("exists"));
    }

    #[tokio::test]
    async fn settings_round_trip_and_overwrite() {
        let (_dir, catalog) = catalog().await;
        catalog.set_setting("k", "1").await.expect("set");
        catalog.set_setting("k", "2").await.expect("overwrite");
        assert_eq!(
            catalog.setting("k").await.expect("get").as_deref(),
            Some("2")
        );
    }

    #[tokio::test]
    async fn a_kept_search_scope_follows_changes_made_through_another_connection() {
        let (dir, catalog) = catalog().await;
        // Another process's catalog on the same file.
        let other = Catalog::open(&dir.path().join("catalog.sqlite"))
            .await
            .expect("open");
        let first = catalog
            .begin_document("h1", "a.pdf", "/a.pdf")
            .await
            .expect("begin");
        catalog
            .mark_ready(first.id, 7, "extractive", None)
            .await
            .expect("ready");
        let scope = catalog.search_scope().await.expect("scope");
        assert_eq!(scope.node_counts, [(first.id, 7)]);
        assert_eq!(catalog.search_scope().await.expect("kept"), scope);

        let second = other
            .begin_document("h2", "b.pdf", "/b.pdf")
            .await
            .expect("begin");
        assert_eq!(
            catalog.search_scope().await.expect("scope").being_written,
            1
        );
        other
            .mark_ready(second.id, 9, "extractive", None)
            .await
            .expect("ready");
        assert_eq!(
            catalog.search_scope().await.expect("scope"),
            SearchScope {
                node_counts: vec![(first.id, 7), (second.id, 9)],
                being_written: 0,
                cards: Vec::new(),
                languages: Vec::new(),
                statement_pages: Vec::new(),
            }
        );
        other.delete_document(first.id).await.expect("delete");
        assert_eq!(
            catalog.search_scope().await.expect("scope").node_counts,
            [(second.id, 9)]
        );
    }
}
