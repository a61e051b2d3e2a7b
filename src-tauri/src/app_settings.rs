//! The Settings view's model: what lives in the library's settings (LLM endpoint),
//! what lives in the app's preferences (model folder, strategy defaults) and what lives
//! in the keyring (the API key).

use pagetree::catalog::{Catalog, CatalogError};
use pagetree::embed::DenseModel;
use pagetree::search::{SearchSettings, Strategy};
use pagetree::store::remote::ClusterSettings;
use pagetree::store::Fusion;
use serde::{Deserialize, Serialize};

const PREFERENCES_KEY: &str = "app_preferences";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum QdrantMode {
    Embedded,
    Remote,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StrategyDefaults {
    pub strategies: Vec<Strategy>,
    pub fusion: Fusion,
    pub token_budget: Option<usize>,
}

impl Default for StrategyDefaults {
    fn default() -> Self {
        Self {
            strategies: Strategy::all_defaults(),
            fusion: SearchSettings::default().fusion,
            token_budget: None,
        }
    }
}

/// Kept in the catalog beside the library settings, so a library carries its defaults.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Preferences {
    pub embedding_model_dir: Option<String>,
    #[serde(default)]
    pub defaults: StrategyDefaults,
}

impl Preferences {
    pub async fn load(catalog: &Catalog) -> Result<Self, CatalogError> {
        catalog.json_setting(PREFERENCES_KEY).await
    }

    pub async fn save(&self, catalog: &Catalog) -> Result<(), CatalogError> {
        catalog.set_json_setting(PREFERENCES_KEY, self).await
    }
}

/// The UI's settings form, both ways.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AppSettings {
    pub llm_base_url: Option<String>,
    pub llm_model: Option<String>,
    /// Write-only: sent by the UI when the field is filled, never sent back.
    pub llm_api_key: Option<String>,
    #[serde(default)]
    pub llm_key_storage: String,
    /// Seconds one answer may take (the library's setting).
    #[serde(default = "default_answer_deadline")]
    pub llm_answer_deadline_secs: u64,
    pub embedding_model_dir: Option<String>,
    /// Read-only: the name of the model that made the library's dense vectors.
    #[serde(default)]
    // The UI may leave it out (serde default).
    #[cfg_attr(test, ts(optional = nullable))]
    pub embedding_model: String,
    /// The library's dense model (`minilm`, `e5-small` or `e5-small+minilm`), read from the
    /// library. Read-only here: saving the settings never changes it (`change_dense_model` does).
    #[serde(default)]
    // The UI may leave it out (serde default).
    #[cfg_attr(test, ts(optional = nullable))]
    pub dense_model: Option<DenseModel>,
    pub qdrant_mode: QdrantMode,
    pub qdrant_url: Option<String>,
    /// Write-only, as the LLM key.
    pub qdrant_api_key: Option<String>,
    #[serde(default)]
    pub qdrant_key_storage: String,
    /// How a collection made by switching to a server is spread over its nodes.
    #[serde(default)]
    pub qdrant_cluster: ClusterSettings,
    pub defaults: StrategyDefaults,
    /// Read scanned pages by OCR (the library's setting); none keeps it.
    #[serde(default)]
    #[cfg_attr(test, ts(optional = nullable))]
    pub ocr: Option<bool>,
    /// Read-only: the Tesseract OCR runs, or why there is none and how to install it.
    #[serde(default)]
    #[cfg_attr(test, ts(optional = nullable))]
    pub ocr_engine: Option<String>,
}

fn default_answer_deadline() -> u64 {
    pagetree::settings::DEFAULT_ANSWER_DEADLINE_SECS
}

/// A text field's value: trimmed, and none when blank.
pub fn filled(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(str::to_string)
}

/// Checks what a person typed, in words they can act on.
pub fn validate(settings: &AppSettings) -> Result<(), String> {
    if settings.qdrant_mode == QdrantMode::Remote {
        match filled(&settings.qdrant_url) {
            None => {
                return Err(
                    "remote Qdrant needs the server's gRPC URL, e.g. http://qdrant.internal:6334"
                        .to_string(),
                )
            }
            Some(url) if !(url.starts_with("http://") || url.starts_with("https://")) => {
                return Err(format!(
                    "the Qdrant URL must start with http:// or https:// (it is `{url}`)"
                ))
            }
            Some(_) => {}
        }
        settings.qdrant_cluster.validate()?;
    }
    match (filled(&settings.llm_base_url), filled(&settings.llm_model)) {
        (Some(url), _) if !(url.starts_with("http://") || url.starts_with("https://")) => {
            return Err(format!(
                "the LLM URL must start with http:// or https:// (it is `{url}`)"
            ))
        }
        (Some(_), None) => {
            return Err("the LLM URL is set but the model is not: give the model's name as the server knows it".to_string())
        }
        (None, Some(_)) => {
            return Err("the LLM model is set but the URL is not: give the server's base URL, e.g. http://127.0.0.1:8080/v1".to_string())
        }
        _ => {}
    }
    pagetree::settings::check_answer_deadline(settings.llm_answer_deadline_secs)?;
    if let Some(dir) = filled(&settings.embedding_model_dir) {
        if !std::path::Path::new(&dir).is_dir() {
            return Err(format!("the embedding model folder {dir} does not exist"));
        }
    }
    // The engine's own bounds, so that defaults saved here are never refused by a search.
    settings
        .defaults
        .fusion
        .validate(pagetree::search::bounds::Prefix::Every)
        .map_err(|err| err.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> AppSettings {
        AppSettings {
            llm_base_url: None,
            llm_model: None,
            llm_api_key: None,
            llm_key_storage: String::new(),
            llm_answer_deadline_secs: default_answer_deadline(),
            embedding_model_dir: None,
            embedding_model: String::new(),
            dense_model: None,
            qdrant_mode: QdrantMode::Embedded,
            qdrant_url: None,
            qdrant_api_key: None,
            qdrant_key_storage: String::new(),
            qdrant_cluster: ClusterSettings::default(),
            defaults: StrategyDefaults::default(),
            ocr: None,
            ocr_engine: None,
        }
    }

    #[test]
    fn offline_settings_are_valid() {
        assert_eq!(validate(&settings()), Ok(()));
    }

    #[test]
    fn fusion_defaults_are_held_to_the_engine_s_bounds() {
        let mut s = settings();
        s.defaults.fusion.dense_weight = 5_000.0;
        assert!(
            validate(&s).unwrap_err().contains("dense weight"),
            "{:?}",
            validate(&s)
        );
        s.defaults.fusion.dense_weight = 0.0;
        s.defaults.fusion.sparse_weight = 0.0;
        assert!(validate(&s).is_err());
        s.defaults.fusion.sparse_weight = 1.0;
        s.defaults.fusion.rrf_k = 0;
        assert!(
            validate(&s).unwrap_err().contains("RRF k"),
            "{:?}",
            validate(&s)
        );
    }

    #[test]
    fn an_llm_needs_both_url_and_model() {
        let mut s = settings();
        s.llm_base_url = Some("http://127.0.0.1:8080/v1".into());
        assert!(validate(&s).unwrap_err().contains("model is not"));
        s.llm_model = Some("  ".into());
        assert!(validate(&s).unwrap_err().contains("model is not"));
        s.llm_model = Some("smol".into());
        assert_eq!(validate(&s), Ok(()));
        s.llm_base_url = Some("127.0.0.1:8080".into());
        assert!(validate(&s).unwrap_err().contains("http://"));
    }

    #[test]
    fn the_answer_deadline_is_checked_before_anything_is_saved() {
        let mut s = settings();
        s.llm_answer_deadline_secs = 0;
        assert!(
            validate(&s).unwrap_err().contains("one answer may take"),
            "{:?}",
            validate(&s)
        );
        s.llm_answer_deadline_secs = 120;
        assert_eq!(validate(&s), Ok(()));
    }

    #[test]
    fn remote_qdrant_needs_a_url_and_a_sound_cluster_layout() {
        let mut s = settings();
        s.qdrant_mode = QdrantMode::Remote;
        assert!(validate(&s).unwrap_err().contains("gRPC URL"));
        s.qdrant_url = Some("qdrant:6334".into());
        assert!(validate(&s).unwrap_err().contains("http://"));
        s.qdrant_url = Some("http://qdrant:6334".into());
        assert_eq!(validate(&s), Ok(()));
        s.qdrant_cluster.write_consistency_factor = 2;
        assert!(validate(&s).unwrap_err().contains("write consistency"));
    }

    #[test]
    fn settings_round_trip_the_uis_json() {
        let json = r#"{"llm_base_url":null,"llm_model":null,"llm_api_key":null,
            "llm_key_storage":"OS keyring","embedding_model_dir":null,"qdrant_mode":"embedded",
            "qdrant_url":null,"qdrant_api_key":null,"defaults":{"strategies":[{"name":"flat","k":5},
            {"name":"sensitive-knee","sensitivity":0.85,"max_roots":20}],
            "fusion":{"rrf_k":2,"dense_weight":1,"sparse_weight":1},"token_budget":null}}"#;
        let parsed: AppSettings = serde_json::from_str(json).expect("the UI's settings parse");
        assert_eq!(parsed.defaults.strategies.len(), 2);
        assert_eq!(
            parsed.llm_answer_deadline_secs, 300,
            "the default when not sent"
        );
        assert_eq!(parsed.defaults.strategies[0], Strategy::Flat { k: 5 });
    }
}
