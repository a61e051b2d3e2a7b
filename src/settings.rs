//! Library settings, kept in the catalog so that every run over a library (CLI or app)
//! indexes and searches it the same way.

use serde::{Deserialize, Serialize};

use crate::catalog::{Catalog, CatalogError};
use crate::embed::DenseModel;
use crate::pdf::DEFAULT_MAX_PAGES;
use crate::tree::{DEFAULT_GROUP_WIDTH, MAX_GROUP_WIDTH, MIN_GROUP_WIDTH};

pub(crate) const DEFAULT_BM25_LANGUAGE: &str = "english";
/// Windows a page is embedded in, at most (see [`crate::embed::windows`]). One: with
/// all-MiniLM-L6-v2, scoring a page by its best of more windows finds the evidence less
/// often, and the mean of several windows as one vector is worse still. Long pages win
/// on their best window by chance more often than they hold the answer. Worth measuring
/// again with a longer-window model.
pub(crate) const DEFAULT_PAGE_WINDOWS: usize = 1;
pub(crate) const MAX_PAGE_WINDOWS: usize = 16;
/// Whether a new library's pages carry their full text in BM25, not only their
/// description and keywords: the dense vector reads a page's first 256 tokens, BM25
/// then reads the rest. The pages inside the right document are found more often;
/// which document ranks first moves both ways. With e5 on long filings it is a wash.
pub(crate) const LEAF_TEXT_IN_BM25: bool = true;
/// Seconds one answer may take from the question to its last token (see
/// [`crate::llm::LlmSettings::answer_deadline`]): a small model on a CPU answers in a
/// minute or two, five is well beyond any honest answer.
pub const DEFAULT_ANSWER_DEADLINE_SECS: u64 = 300;
/// Less than this and a slow model's every answer is cut short.
pub(crate) const MIN_ANSWER_DEADLINE_SECS: u64 = 10;
/// An hour: beyond it a stuck answer would hold the library as if it had none.
pub(crate) const MAX_ANSWER_DEADLINE_SECS: u64 = 3600;
/// The dense model of a new library.
pub(crate) const DEFAULT_DENSE_MODEL: DenseModel = DenseModel::MiniLm;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LibrarySettings {
    /// Children per parent in the page tree (3–5).
    pub group_width: usize,
    /// Stemmer and stop words for BM25; fixed once the library holds documents. With
    /// `detect_language`, only for documents and questions whose language is not told.
    pub bm25_language: String,
    /// Stem each document in the language its text is in, and each question in the
    /// nearest of the library's languages. Libraries made before read as false: their
    /// vectors were all stemmed in `bm25_language`.
    #[serde(default)]
    pub detect_language: bool,
    pub max_pages: u32,
    /// Add a page's full text to its BM25 vector, not only its description and
    /// keywords. On for new libraries (see [`LEAF_TEXT_IN_BM25`]); a library keeps what
    /// it was made with until `reindex --leaf-text` changes it.
    pub index_leaf_text: bool,
    /// Embed a page's own text (after its document's card) for its dense vector, not
    /// its description; sections are always embedded by their summaries.
    #[serde(default = "embed_page_text_default")]
    pub embed_page_text: bool,
    /// How many windows of a page's text are embedded, at most; a page is found by its
    /// best window. Libraries made before windows read as 1: their index keeps one
    /// vector a node until `reindex --windows` rebuilds it.
    #[serde(default = "single_window")]
    pub page_windows: usize,
    /// The model that made the library's dense vectors; libraries made before there
    /// was a choice read as all-MiniLM-L6-v2, which made theirs.
    #[serde(default = "legacy_dense_model")]
    pub dense_model: DenseModel,
    /// Whether someone chose the dense model (`ingest --model`, a change in the app's
    /// settings or `reindex --model`). Until then a library's first document chooses
    /// it by its language (see [`crate::Library::settle_model_for`]); libraries saved
    /// before read as unchosen, which matters only while they are empty.
    #[serde(default)]
    pub dense_model_chosen: bool,
    /// Read pages without a text layer (scans) by OCR, with Tesseract. Libraries saved
    /// before read as on.
    #[serde(default = "ocr_default")]
    pub ocr: bool,
    /// OpenAI-compatible endpoint for descriptions and answers; none means offline.
    pub llm_base_url: Option<String>,
    pub llm_model: Option<String>,
    /// A model file (.gguf) the app serves itself with llama-server; while set, the URL
    /// and model above are that server's (a new port each start).
    #[serde(default)]
    pub llm_gguf: Option<std::path::PathBuf>,
    /// Seconds one answer may take, retries included; what arrived by then is kept and
    /// marked as cut short. Libraries saved before read as the default.
    #[serde(default = "default_answer_deadline")]
    pub llm_answer_deadline_secs: u64,
}

impl Default for LibrarySettings {
    fn default() -> Self {
        Self {
            group_width: DEFAULT_GROUP_WIDTH,
            bm25_language: DEFAULT_BM25_LANGUAGE.to_string(),
            detect_language: true,
            max_pages: DEFAULT_MAX_PAGES,
            index_leaf_text: LEAF_TEXT_IN_BM25,
            embed_page_text: true,
            page_windows: DEFAULT_PAGE_WINDOWS,
            dense_model: DEFAULT_DENSE_MODEL,
            dense_model_chosen: false,
            ocr: true,
            llm_base_url: None,
            llm_model: None,
            llm_gguf: None,
            llm_answer_deadline_secs: DEFAULT_ANSWER_DEADLINE_SECS,
        }
    }
}

fn default_answer_deadline() -> u64 {
    DEFAULT_ANSWER_DEADLINE_SECS
}

fn embed_page_text_default() -> bool {
    true
}

fn ocr_default() -> bool {
    true
}

fn legacy_dense_model() -> DenseModel {
    DenseModel::MiniLm
}

fn single_window() -> usize {
    1
}

const SETTINGS_KEY: &str = "library_settings";

impl LibrarySettings {
    pub async fn load(catalog: &Catalog) -> Result<Self, CatalogError> {
        catalog.json_setting(SETTINGS_KEY).await
    }

    /// The settings of an existing library. One that holds documents but has no
    /// settings predates them: it was embedded by MiniLM and stemmed in one language,
    /// whatever today's defaults are.
    pub async fn load_existing(catalog: &Catalog) -> Result<Self, CatalogError> {
        Ok(Self::load_noting_record(catalog).await?.0)
    }

    /// The settings of a library being opened, recorded if they never were, so that a
    /// later change of a default cannot change what an existing library is.
    pub(crate) async fn load_and_record(catalog: &Catalog) -> Result<Self, CatalogError> {
        let (settings, recorded) = Self::load_noting_record(catalog).await?;
        if !recorded {
            settings.save(catalog).await?;
        }
        Ok(settings)
    }

    /// [`Self::load_existing`], and whether the library has settings of its own.
    async fn load_noting_record(catalog: &Catalog) -> Result<(Self, bool), CatalogError> {
        let mut settings = Self::load(catalog).await?;
        let recorded = catalog.setting(SETTINGS_KEY).await?.is_some();
        if !recorded && catalog.has_documents().await? {
            settings.dense_model = legacy_dense_model();
            settings.detect_language = false;
        }
        Ok((settings, recorded))
    }

    /// How long one answer may take.
    pub fn answer_deadline(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.llm_answer_deadline_secs)
    }

    pub async fn save(&self, catalog: &Catalog) -> Result<(), CatalogError> {
        catalog.set_json_setting(SETTINGS_KEY, self).await
    }

    /// Checks the values a person can type; returns the problem in words.
    pub fn validate(&self) -> Result<(), String> {
        if !(MIN_GROUP_WIDTH..=MAX_GROUP_WIDTH).contains(&self.group_width) {
            return Err(format!(
                "the group width must be between {MIN_GROUP_WIDTH} and {MAX_GROUP_WIDTH}, not {}",
                self.group_width
            ));
        }
        if self.max_pages == 0 {
            return Err("the page limit must be at least 1".into());
        }
        if !(1..=MAX_PAGE_WINDOWS).contains(&self.page_windows) {
            return Err(format!(
                "a page is embedded in 1 to {MAX_PAGE_WINDOWS} windows, not {}",
                self.page_windows
            ));
        }
        check_answer_deadline(self.llm_answer_deadline_secs)
    }
}

/// Checks the seconds one answer may take; returns the problem in words.
pub fn check_answer_deadline(seconds: u64) -> Result<(), String> {
    if (MIN_ANSWER_DEADLINE_SECS..=MAX_ANSWER_DEADLINE_SECS).contains(&seconds) {
        return Ok(());
    }
    Err(format!(
        "the time one answer may take must be between {MIN_ANSWER_DEADLINE_SECS} seconds and {} minutes, not {seconds} seconds",
        MAX_ANSWER_DEADLINE_SECS / 60
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_library_keeps_the_model_it_was_made_with_whatever_the_default() {
        let dir = tempfile::tempdir().expect("temp dir");
        let catalog = Catalog::open(&dir.path().join("c.sqlite"))
            .await
            .expect("open");
        // Settings written before the model was one (no `dense_model`, no
        // `detect_language`): MiniLM and one stemmer for all, as then.
        catalog
            .set_setting(
                SETTINGS_KEY,
                r#"{"group_width":4,"bm25_language":"english","max_pages":5000,"index_leaf_text":false,"llm_base_url":null,"llm_model":null}"#,
            )
            .await
            .expect("old settings");
        let old = LibrarySettings::load_existing(&catalog)
            .await
            .expect("load");
        assert_eq!(old.dense_model, DenseModel::MiniLm);
        assert!(!old.detect_language);

        // A library with documents and no settings at all was made by MiniLM too, and
        // is recorded as such when it is first opened.
        let dir = tempfile::tempdir().expect("temp dir");
        let catalog = Catalog::open(&dir.path().join("c.sqlite"))
            .await
            .expect("open");
        catalog
            .begin_document("h1", "a.pdf", "/a.pdf")
            .await
            .expect("document");
        let opened = LibrarySettings::load_and_record(&catalog)
            .await
            .expect("load");
        assert_eq!(opened.dense_model, DenseModel::MiniLm);
        assert!(!opened.detect_language);
        assert!(catalog.setting(SETTINGS_KEY).await.expect("read").is_some());
    }

    #[tokio::test]
    async fn settings_persist_in_the_catalog() {
        let dir = tempfile::tempdir().expect("temp dir");
        let catalog = Catalog::open(&dir.path().join("c.sqlite"))
            .await
            .expect("open");
        assert_eq!(
            LibrarySettings::load(&catalog).await.expect("load"),
            LibrarySettings::default()
        );
        let custom = LibrarySettings {
            group_width: 3,
            bm25_language: "russian".into(),
            ..LibrarySettings::default()
        };
        custom.save(&catalog).await.expect("save");
        assert_eq!(LibrarySettings::load(&catalog).await.expect("load"), custom);
    }

    #[test]
    fn rejects_a_width_outside_three_to_five() {
        let settings = LibrarySettings {
            group_width: 7,
            ..LibrarySettings::default()
        };
        assert!(settings.validate().unwrap_err().contains("between 3 and 5"));
    }

    #[test]
    fn a_library_saved_before_windows_reads_as_one_window() {
        let mut old = serde_json::to_value(LibrarySettings::default()).expect("json");
        old.as_object_mut().expect("object").remove("page_windows");
        let read: LibrarySettings = serde_json::from_value(old).expect("old settings");
        assert_eq!(read.page_windows, 1);
        let zero = LibrarySettings {
            page_windows: 0,
            ..LibrarySettings::default()
        };
        assert!(zero.validate().unwrap_err().contains("windows"));
    }

    #[test]
    fn the_answer_deadline_is_saved_bounded_and_defaults_for_old_libraries() {
        let mut old = serde_json::to_value(LibrarySettings::default()).expect("json");
        old.as_object_mut()
            .expect("object")
            .remove("llm_answer_deadline_secs");
        let read: LibrarySettings = serde_json::from_value(old).expect("old settings");
        assert_eq!(
            read.answer_deadline().as_secs(),
            DEFAULT_ANSWER_DEADLINE_SECS
        );
        assert_eq!(read.validate(), Ok(()));

        for seconds in [
            0,
            MIN_ANSWER_DEADLINE_SECS - 1,
            MAX_ANSWER_DEADLINE_SECS + 1,
        ] {
            let settings = LibrarySettings {
                llm_answer_deadline_secs: seconds,
                ..LibrarySettings::default()
            };
            let problem = settings.validate().expect_err("out of bounds");
            assert!(
                problem.contains("between 10 seconds and 60 minutes"),
                "{problem}"
            );
        }
        let settings = LibrarySettings {
            llm_answer_deadline_secs: MIN_ANSWER_DEADLINE_SECS,
            ..LibrarySettings::default()
        };
        assert_eq!(settings.validate(), Ok(()));
    }
}
