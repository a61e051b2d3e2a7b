//! Where a library keeps its vectors, recorded in its catalog so that every later run
//! (CLI or app) finds them without being told again.

use serde::{Deserialize, Serialize};

use super::remote::RemoteConfig;
use crate::catalog::{Catalog, CatalogError};

const LOCATION_KEY: &str = "vector_store";
const LIBRARY_ID_KEY: &str = "library_id";

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StoreLocation {
    /// In the library folder, in this process (qdrant-edge).
    #[default]
    Embedded,
    /// In a collection on a Qdrant server or cluster.
    Remote(RemoteConfig),
}

impl StoreLocation {
    pub async fn load(catalog: &Catalog) -> Result<Self, CatalogError> {
        catalog.json_setting(LOCATION_KEY).await
    }

    pub async fn save(&self, catalog: &Catalog) -> Result<(), CatalogError> {
        catalog.set_json_setting(LOCATION_KEY, self).await
    }

    pub fn remote(&self) -> Option<&RemoteConfig> {
        match self {
            StoreLocation::Embedded => None,
            StoreLocation::Remote(config) => Some(config),
        }
    }

    /// In words, for messages: "this computer" or the server's address.
    pub fn describe(&self) -> String {
        match self {
            StoreLocation::Embedded => "this computer (embedded Qdrant)".into(),
            StoreLocation::Remote(config) => {
                format!("{} (collection {})", config.shown_url(), config.collection)
            }
        }
    }
}

/// The collection a library uses on a server: one per library, named by an id made
/// once and kept in the catalog, so that many libraries can share one server.
pub(crate) async fn collection_name(catalog: &Catalog) -> Result<String, CatalogError> {
    let id = match catalog.setting(LIBRARY_ID_KEY).await? {
        Some(id) => id,
        None => {
            let id = format!("{:016x}", rand::random::<u64>());
            catalog.set_setting(LIBRARY_ID_KEY, &id).await?;
            id
        }
    };
    Ok(format!("pagetree_{id}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_location_and_collection_persist() {
        let dir = tempfile::tempdir().expect("temp dir");
        let catalog = Catalog::open(&dir.path().join("c.sqlite"))
            .await
            .expect("open");
        assert_eq!(
            StoreLocation::load(&catalog).await.expect("load"),
            StoreLocation::Embedded
        );
        let collection = collection_name(&catalog).await.expect("name");
        assert!(collection.starts_with("pagetree_"));
        assert_eq!(collection_name(&catalog).await.expect("again"), collection);
        let remote = StoreLocation::Remote(RemoteConfig::new("http://q:6334", collection));
        remote.save(&catalog).await.expect("save");
        assert_eq!(StoreLocation::load(&catalog).await.expect("load"), remote);
    }
}
