//! The warnings the CLI logs about an API key sent in clear, for the Settings view to
//! show beside the URL it concerns. The rule is the library's; this only decides which
//! key the form's settings would send.

use pagetree::describe::LlmSettings;
use pagetree::secret::ApiKey;
use pagetree::store::remote::RemoteConfig;
use serde::Serialize;

use crate::app_settings::{filled, AppSettings, QdrantMode};

/// One sentence a server, or none when its key would not cross the network in clear.
#[derive(Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct KeyWarnings {
    pub llm: Option<String>,
    pub qdrant: Option<String>,
}

/// Whether the key stores hold a key, read by the caller (the keyring may block).
#[derive(Debug, Clone, Copy, Default)]
pub struct StoredKeys {
    pub llm: bool,
    pub qdrant: bool,
}

/// A typed key would be saved and sent; without one, saving keeps the stored key and
/// sends it to whatever URL is saved, so the stored one counts as well.
fn key_sent(typed: &Option<String>, stored: bool) -> ApiKey {
    match filled(typed) {
        Some(key) => ApiKey::new(key),
        // Its value is not needed to know that one would be sent.
        None if stored => ApiKey::new("stored"),
        None => ApiKey::default(),
    }
}

pub fn key_warnings(settings: &AppSettings, stored: StoredKeys) -> KeyWarnings {
    let llm = filled(&settings.llm_base_url).and_then(|url| {
        let mut llm = LlmSettings::new(url, String::new());
        llm.api_key = key_sent(&settings.llm_api_key, stored.llm);
        llm.key_warning()
    });
    let qdrant = match (settings.qdrant_mode, filled(&settings.qdrant_url)) {
        (QdrantMode::Remote, Some(url)) => RemoteConfig::new(url, String::new())
            .key_warning(&key_sent(&settings.qdrant_api_key, stored.qdrant)),
        _ => None,
    };
    KeyWarnings { llm, qdrant }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app_settings::StrategyDefaults;
    use pagetree::store::remote::ClusterSettings;

    fn settings(llm_url: &str, qdrant_url: &str) -> AppSettings {
        AppSettings {
            llm_base_url: Some(llm_url.into()),
            llm_model: Some("smol".into()),
            llm_api_key: None,
            llm_key_storage: String::new(),
            llm_answer_deadline_secs: pagetree::settings::DEFAULT_ANSWER_DEADLINE_SECS,
            embedding_model_dir: None,
            embedding_model: String::new(),
            dense_model: None,
            qdrant_mode: QdrantMode::Remote,
            qdrant_url: Some(qdrant_url.into()),
            qdrant_api_key: None,
            qdrant_key_storage: String::new(),
            qdrant_cluster: ClusterSettings::default(),
            defaults: StrategyDefaults::default(),
            ocr: None,
            ocr_engine: None,
        }
    }

    #[test]
    fn a_stored_or_typed_key_over_plain_http_to_another_machine_is_named() {
        let mut form = settings("http://llm.lan:8080/v1", "http://qdrant.lan:6334");
        assert_eq!(
            key_warnings(&form, StoredKeys::default()),
            KeyWarnings::default(),
            "no key, nothing to warn about"
        );

        let stored = key_warnings(
            &form,
            StoredKeys {
                llm: true,
                qdrant: true,
            },
        );
        let llm = stored.llm.expect("the LLM key in clear");
        assert!(llm.contains("LLM API key") && llm.contains("http://llm.lan:8080/v1"));
        assert!(llm.contains("use https://"), "{llm}");
        let qdrant = stored.qdrant.expect("the Qdrant key in clear");
        assert!(qdrant.contains("Qdrant API key") && qdrant.contains("qdrant.lan:6334"));

        form.llm_api_key = Some("typed".into());
        form.qdrant_api_key = Some("typed".into());
        let typed = key_warnings(&form, StoredKeys::default());
        assert!(typed.llm.is_some() && typed.qdrant.is_some());
    }

    #[test]
    fn https_loopback_and_an_unused_server_are_not_warned_about() {
        let keys = StoredKeys {
            llm: true,
            qdrant: true,
        };
        let safe = settings("https://llm.lan/v1", "http://localhost:6334");
        assert_eq!(key_warnings(&safe, keys), KeyWarnings::default());
        let local = settings("http://127.0.0.1:8080/v1", "https://qdrant.lan:6334");
        assert_eq!(key_warnings(&local, keys), KeyWarnings::default());

        let mut embedded = settings("https://llm.lan/v1", "http://qdrant.lan:6334");
        embedded.qdrant_mode = QdrantMode::Embedded;
        assert_eq!(key_warnings(&embedded, keys).qdrant, None);
    }

    #[test]
    fn a_password_in_the_url_is_not_repeated_in_the_warning() {
        let form = settings("http://alice:s3cret@llm.lan/v1", "http://qdrant.lan:6334");
        let llm = key_warnings(
            &form,
            StoredKeys {
                llm: true,
                qdrant: false,
            },
        )
        .llm
        .expect("a warning");
        assert!(!llm.contains("s3cret"), "{llm}");
    }
}
