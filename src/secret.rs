//! Secrets the engine passes on but never shows: the language model's and the Qdrant
//! server's API keys. Its own module because the store and the LLM client both take
//! one, and neither should depend on the other for it.

use std::fmt;

/// An API key that never shows itself in logs or debug output.
#[derive(Clone, Default)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        Self(key.into())
    }

    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_empty() {
            "ApiKey(none)"
        } else {
            "ApiKey(***)"
        })
    }
}
