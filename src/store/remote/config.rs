//! Where a remote library lives and how its collection is spread over a cluster: what
//! the catalog keeps and a person sets.

use serde::{Deserialize, Serialize};

use crate::secret::ApiKey;

/// How a library's collection is spread over a cluster. The defaults suit one server;
/// docs/storage.md gives the values for a three-node cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ClusterSettings {
    /// Shards of the collection; none lets the server choose (one per node).
    pub shard_number: Option<u32>,
    /// Copies of each shard.
    pub replication_factor: u32,
    /// Copies that must confirm a write before it counts.
    pub write_consistency_factor: u32,
}

impl Default for ClusterSettings {
    fn default() -> Self {
        Self {
            shard_number: None,
            replication_factor: 1,
            write_consistency_factor: 1,
        }
    }
}

impl ClusterSettings {
    /// Checks the values a person can type; returns the problem in words.
    pub fn validate(&self) -> Result<(), String> {
        if self.shard_number == Some(0) {
            return Err("the number of shards must be at least 1".into());
        }
        if self.replication_factor == 0 {
            return Err("the replication factor must be at least 1".into());
        }
        if self.write_consistency_factor == 0
            || self.write_consistency_factor > self.replication_factor
        {
            return Err(format!(
                "the write consistency factor must be between 1 and the replication factor ({})",
                self.replication_factor
            ));
        }
        Ok(())
    }
}

/// Where a remote library's points live. Kept in the catalog; the API key is not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RemoteConfig {
    /// The server's gRPC address, e.g. `http://qdrant.internal:6334` (https for TLS).
    pub url: String,
    pub collection: String,
    #[serde(default)]
    pub cluster: ClusterSettings,
    /// Seconds one request may take before it is retried.
    #[serde(default = "default_timeout_secs")]
    pub timeout_secs: u64,
}

fn default_timeout_secs() -> u64 {
    30
}

impl RemoteConfig {
    /// The server's address as messages and logs show it: without a user or password.
    pub fn shown_url(&self) -> String {
        crate::redact::credentials(&self.url).into_owned()
    }

    /// What to warn about when `api_key` would go to this server over plain `http://`
    /// on another machine; nothing without a key or over https.
    pub fn key_warning(&self, api_key: &ApiKey) -> Option<String> {
        (!api_key.expose().is_empty())
            .then(|| crate::redact::key_in_clear("Qdrant", &self.url))
            .flatten()
    }

    pub fn new(url: impl Into<String>, collection: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            collection: collection.into(),
            cluster: ClusterSettings::default(),
            timeout_secs: default_timeout_secs(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cluster_settings_are_checked() {
        assert!(ClusterSettings::default().validate().is_ok());
        let too_strict = ClusterSettings {
            replication_factor: 2,
            write_consistency_factor: 3,
            ..ClusterSettings::default()
        };
        assert!(too_strict.validate().is_err());
        let no_shards = ClusterSettings {
            shard_number: Some(0),
            ..ClusterSettings::default()
        };
        assert!(no_shards.validate().is_err());
    }
}
