//! API keys (the LLM's, the Qdrant server's) in the OS keyring (Secret Service on Linux, Keychain on macOS,
//! Credential Manager on Windows). Where no keyring answers, the key lives in memory
//! for this session only, and the settings say so.

use std::sync::Mutex;

const SERVICE: &str = "PageTree";

pub struct KeyStore {
    /// The keyring entry's account name.
    account: &'static str,
    /// The environment variable read when the keyring holds no key.
    env_fallback: &'static str,
    /// The key when the keyring is unavailable; never written anywhere.
    session_only: Mutex<Option<String>>,
}

/// Where the key is kept, in the words the settings view shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyStorage {
    Keyring,
    SessionOnly(String),
}

impl KeyStorage {
    pub fn describe(&self) -> String {
        match self {
            KeyStorage::Keyring => "OS keyring".to_string(),
            KeyStorage::SessionOnly(why) => {
                format!("not stored: {why}; the key is kept in memory until PageTree closes")
            }
        }
    }
}

impl KeyStore {
    /// The language model's key (`OPENAI_API_KEY` when none is stored).
    pub fn llm() -> Self {
        Self::new("llm-api-key", "OPENAI_API_KEY")
    }

    /// The Qdrant server's key (`QDRANT_API_KEY` when none is stored).
    pub fn qdrant() -> Self {
        Self::new("qdrant-api-key", "QDRANT_API_KEY")
    }

    fn new(account: &'static str, env_fallback: &'static str) -> Self {
        Self {
            account,
            env_fallback,
            session_only: Mutex::new(None),
        }
    }

    /// The stored key, or the fallback variable's from the environment when none is
    /// stored. Blocking: call from a blocking thread.
    pub fn get(&self) -> (Option<String>, KeyStorage) {
        let (stored, storage) = match self.entry().and_then(|entry| entry.get_password()) {
            Ok(key) => (Some(key), KeyStorage::Keyring),
            Err(keyring::Error::NoEntry) => (None, KeyStorage::Keyring),
            Err(err) => (
                self.session_key(),
                KeyStorage::SessionOnly(unavailable(&err)),
            ),
        };
        let key = stored.or_else(|| {
            std::env::var(self.env_fallback)
                .ok()
                .filter(|k| !k.is_empty())
        });
        (key, storage)
    }

    /// Stores `key` (an empty key removes it). Blocking: call from a blocking thread.
    pub fn set(&self, key: &str) -> KeyStorage {
        let result = self.entry().and_then(|entry| {
            if key.is_empty() {
                match entry.delete_credential() {
                    Err(keyring::Error::NoEntry) => Ok(()),
                    other => other,
                }
            } else {
                entry.set_password(key)
            }
        });
        match result {
            Ok(()) => KeyStorage::Keyring,
            Err(err) => {
                let mut session = self
                    .session_only
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner());
                *session = (!key.is_empty()).then(|| key.to_string());
                KeyStorage::SessionOnly(unavailable(&err))
            }
        }
    }

    fn entry(&self) -> keyring::Result<keyring::Entry> {
        keyring::Entry::new(SERVICE, self.account)
    }

    fn session_key(&self) -> Option<String> {
        self.session_only
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }
}

fn unavailable(err: &keyring::Error) -> String {
    match err {
        keyring::Error::PlatformFailure(_) | keyring::Error::NoStorageAccess(_) => {
            "no OS keyring is available".to_string()
        }
        other => format!("the OS keyring failed ({other})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_only_storage_says_why_and_that_the_key_is_not_written() {
        let text = KeyStorage::SessionOnly("no OS keyring is available".into()).describe();
        assert!(text.starts_with("not stored: no OS keyring is available"));
        assert!(text.contains("until PageTree closes"));
        assert_eq!(KeyStorage::Keyring.describe(), "OS keyring");
    }
}
