//! Rebuilding the embedded index in today's layout from what the library holds (stored
//! nodes, page texts and cards), without reading a PDF again: an index made before pages
//! were embedded in windows keeps one vector a node and cannot take more in place.
//!
//! The same rebuild re-embeds a library with another dense model.
//!
//! The new index is written beside the live one and swapped in only once it is
//! complete, so a crash at any point leaves one whole index: the old one, or the new.
//! A model change is written down as pending while its index is built, and made the
//! library's model only with the index that holds its vectors.

use std::io;
use std::path::{Path, PathBuf};

use crate::catalog::{Catalog, DocumentStatus};
use crate::embed::DenseModel;
use crate::error::Result;
use crate::ingest::{Progress, Stage};
use crate::library::open_edge_folder;
use crate::library::{Library, LibraryError, DIMENSION_SETTING};
use crate::settings::LibrarySettings;
use crate::store::location::StoreLocation;
use crate::store::{DenseLayout, VectorStore};

/// The model a rebuild under way is embedding with (a catalog setting).
const PENDING_MODEL: &str = "pending_dense_model";
/// The dimension of the pending model's vectors, recorded with it: models differ (e5
/// and MiniLM side by side make vectors twice as long as either's).
const PENDING_DIMENSION: &str = "pending_dense_dimension";

/// Where the new index is written until it is complete.
const STAGING_SUFFIX: &str = "rebuilding";
/// Where the old index waits, for a moment, while the new one takes its place.
const RETIRED_SUFFIX: &str = "retired";

impl Library {
    /// Whether the settings ask for windows that the index cannot keep.
    pub(crate) async fn needs_rebuild_for_windows(&self) -> Result<bool> {
        Ok(self.settings().page_windows > 1
            && self.store().await?.dense_layout() == DenseLayout::Single)
    }

    /// Writes every ready document's points into a new embedded index in today's
    /// layout, with dense and BM25 vectors made again, and swaps it in. Returns the
    /// number of points written.
    pub(crate) async fn rebuild_index(&mut self, progress: &dyn Progress) -> Result<usize> {
        if !matches!(self.location(), StoreLocation::Embedded) {
            return Err(LibraryError::RebuildRemote(self.location().describe()).into());
        }
        self.rebuild_embedded(None, false, progress).await
    }

    /// Rebuilds every ready document's tree to follow its structure (its outline, read
    /// again from its file where that is still there, or the headings of its stored
    /// pages), keeping the pages' descriptions, into a new index swapped in when
    /// complete. Returns the number of points written.
    pub async fn rebuild_trees(&mut self, progress: &dyn Progress) -> Result<usize> {
        if !matches!(self.location(), StoreLocation::Embedded) {
            return Err(LibraryError::RebuildRemote(self.location().describe()).into());
        }
        self.rebuild_embedded(None, true, progress).await
    }

    /// Makes `model` the library's dense model: a library without documents simply
    /// records it (wherever its vectors live), one with documents is re-embedded (see
    /// [`Library::change_dense_model`]). Returns the number of points written.
    pub async fn switch_dense_model(
        &mut self,
        model: DenseModel,
        progress: &dyn Progress,
    ) -> Result<usize> {
        if model == self.settings().dense_model {
            return Ok(0);
        }
        if !self.catalog().has_documents().await? {
            let settings = LibrarySettings {
                dense_model: model,
                dense_model_chosen: true,
                ..self.settings().clone()
            };
            self.update_settings(settings).await?;
            return Ok(0);
        }
        self.change_dense_model(model, progress).await
    }

    /// Re-embeds every document with `model` into a new index and makes it the
    /// library's model. Returns the number of points written.
    pub(crate) async fn change_dense_model(
        &mut self,
        model: DenseModel,
        progress: &dyn Progress,
    ) -> Result<usize> {
        if !matches!(self.location(), StoreLocation::Embedded) {
            return Err(LibraryError::ModelChangeRemote(self.location().describe()).into());
        }
        let previous = self.settings().dense_model;
        self.use_dense_model(model);
        let written = self.rebuild_embedded(Some(model), false, progress).await;
        if written.is_err() {
            self.use_dense_model(previous);
            if let Err(err) = self.catalog().remove_setting(PENDING_MODEL).await {
                tracing::warn!(%err, "the failed model change stays marked until the next start");
            }
        }
        written
    }

    async fn rebuild_embedded(
        &mut self,
        model: Option<DenseModel>,
        trees: bool,
        progress: &dyn Progress,
    ) -> Result<usize> {
        let live = self.index_dir();
        let measured = live.clone();
        let needed = tokio::task::spawn_blocking(move || crate::disk::for_rewrite(&measured))
            .await
            .map_err(|err| crate::store::StoreError::Engine(err.to_string()))?;
        crate::disk::ensure_room(&live, needed, crate::disk::Task::Rebuild)?;
        let staging = sibling(&live, STAGING_SUFFIX);
        let retired = sibling(&live, RETIRED_SUFFIX);
        let old = self.store().await?;
        // The old index is open with its own dimension; the new one takes the model's.
        let dimension = match model {
            Some(_) => self.dense().await?.dimension(),
            None => self.dimension().await?,
        };
        let staging_path = staging.clone();
        let new = tokio::task::spawn_blocking(move || {
            open_edge_folder(&staging_path, dimension, true, DenseLayout::Windows)
        })
        .await
        .map_err(|err| crate::store::StoreError::Engine(err.to_string()))??;
        // Written only once the staging folder exists: see `settle_interrupted_rebuild`.
        match model {
            Some(model) => {
                self.catalog()
                    .set_setting(PENDING_DIMENSION, &dimension.to_string())
                    .await?;
                self.catalog()
                    .set_setting(PENDING_MODEL, model.id())
                    .await?
            }
            None => self.catalog().remove_setting(PENDING_MODEL).await?,
        }
        let documents = self
            .catalog()
            .documents_with_status(DocumentStatus::Ready)
            .await?;
        let windows = self.settings().page_windows;
        let mut written = 0;
        let mut node_counts: Vec<(i64, usize)> = Vec::new();
        for (index, document) in documents.iter().enumerate() {
            progress.stage(&document.file_name, Stage::Indexing, index, documents.len());
            let mut points = old.document_points(document.id).await?;
            if trees {
                points = self.retreed(document, points).await?;
                node_counts.push((document.id, points.len()));
            }
            let points = self.revectored(document, points, Some(windows)).await?;
            written += points.len();
            new.upsert(points).await?;
        }
        new.flush().await?;
        new.optimize().await?;
        drop(new);
        drop(old);
        self.close_store();
        swap_in(&live, &staging, &retired).map_err(|err| LibraryError::Folder {
            path: live.display().to_string(),
            detail: format!("the rebuilt index could not replace the old one: {err}"),
        })?;
        // The roots are found by the node counts: they change with the index.
        self.catalog().set_node_counts(&node_counts).await?;
        if model.is_some() {
            let settings = self.settings().clone();
            settings.save(self.catalog()).await?;
            self.catalog()
                .set_setting(DIMENSION_SETTING, &dimension.to_string())
                .await?;
            self.catalog().remove_setting(PENDING_MODEL).await?;
            self.catalog().remove_setting(PENDING_DIMENSION).await?;
        }
        tracing::info!(
            points = written,
            windows,
            "rebuilt the index with page windows"
        );
        Ok(written)
    }
}

fn sibling(live: &Path, suffix: &str) -> PathBuf {
    let mut name = live.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{suffix}"));
    live.with_file_name(name)
}

/// Puts the complete index in `staging` where `live` is.
fn swap_in(live: &Path, staging: &Path, retired: &Path) -> io::Result<()> {
    if retired.exists() {
        std::fs::remove_dir_all(retired)?;
    }
    std::fs::rename(live, retired)?;
    std::fs::rename(staging, live)?;
    std::fs::remove_dir_all(retired)
}

/// What became of a rebuild that a crash interrupted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Interrupted {
    /// No rebuild was under way, or it had finished.
    Nothing,
    /// The new index was incomplete and was thrown away.
    Discarded,
}

/// Finishes a swap that a crash interrupted, or throws away a rebuild that never
/// finished; called before the embedded index at `live` is opened.
pub(crate) fn recover_interrupted_rebuild(live: &Path) -> io::Result<Interrupted> {
    let staging = sibling(live, STAGING_SUFFIX);
    let retired = sibling(live, RETIRED_SUFFIX);
    if !live.exists() && retired.exists() {
        // The old index was moved aside, so the new one was complete.
        if staging.exists() {
            tracing::warn!("finishing an index rebuild that was interrupted");
            std::fs::rename(&staging, live)?;
        } else {
            std::fs::rename(&retired, live)?;
        }
    }
    if live.exists() && retired.exists() {
        std::fs::remove_dir_all(&retired)?;
    }
    if live.exists() && staging.exists() {
        tracing::warn!("removing an index rebuild that was interrupted");
        std::fs::remove_dir_all(&staging)?;
        return Ok(Interrupted::Discarded);
    }
    Ok(Interrupted::Nothing)
}

/// Puts right the index at `live` after a crash, and the library's model with it: a
/// model change still pending took effect if its index was swapped in (no staging
/// folder is left, and the pending mark is written only once there is one), and did not
/// if its index was thrown away.
pub(crate) async fn settle_interrupted_rebuild(
    live: &Path,
    catalog: &Catalog,
    settings: &mut LibrarySettings,
) -> Result<()> {
    let path = live.to_path_buf();
    let outcome = tokio::task::spawn_blocking(move || recover_interrupted_rebuild(&path))
        .await
        .map_err(|err| crate::store::StoreError::Engine(err.to_string()))?
        .map_err(|err| crate::store::StoreError::Open {
            path: live.display().to_string(),
            detail: format!("an interrupted rebuild could not be resolved: {err}"),
        })?;
    let Some(pending) = catalog.setting(PENDING_MODEL).await? else {
        return Ok(());
    };
    if outcome == Interrupted::Nothing {
        if let Ok(model) = pending.parse::<DenseModel>() {
            tracing::warn!(%model, "finishing a change of embedding model that was interrupted");
            settings.dense_model = model;
            settings.save(catalog).await?;
            if let Some(dimension) = catalog.setting(PENDING_DIMENSION).await? {
                catalog.set_setting(DIMENSION_SETTING, &dimension).await?;
            }
        }
    }
    catalog.remove_setting(PENDING_MODEL).await?;
    catalog.remove_setting(PENDING_DIMENSION).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder_with(path: &Path, marker: &str) {
        std::fs::create_dir_all(path).expect("folder");
        std::fs::write(path.join("marker"), marker).expect("marker");
    }

    fn marker(path: &Path) -> String {
        std::fs::read_to_string(path.join("marker")).expect("marker")
    }

    #[test]
    fn a_swap_cut_off_at_any_step_leaves_one_whole_index() {
        let dir = tempfile::tempdir().expect("temp dir");
        let live = dir.path().join("index");
        let staging = sibling(&live, STAGING_SUFFIX);
        let retired = sibling(&live, RETIRED_SUFFIX);

        // Cut off while the new index was being written: the old one stays.
        folder_with(&live, "old");
        folder_with(&staging, "half");
        assert_eq!(
            recover_interrupted_rebuild(&live).expect("recover"),
            Interrupted::Discarded
        );
        assert_eq!(marker(&live), "old");
        assert!(!staging.exists());

        // Cut off between the two renames: the complete new index goes in.
        std::fs::rename(&live, &retired).expect("retire");
        folder_with(&staging, "new");
        assert_eq!(
            recover_interrupted_rebuild(&live).expect("recover"),
            Interrupted::Nothing
        );
        assert_eq!(marker(&live), "new");
        assert!(!retired.exists() && !staging.exists());

        // Cut off before the old index was removed.
        folder_with(&retired, "old");
        recover_interrupted_rebuild(&live).expect("recover");
        assert_eq!(marker(&live), "new");
        assert!(!retired.exists());
    }

    #[tokio::test]
    async fn a_model_change_cut_off_takes_effect_only_with_its_index() {
        let dir = tempfile::tempdir().expect("temp dir");
        let catalog = Catalog::open(&dir.path().join("catalog.sqlite"))
            .await
            .expect("catalog");
        let live = dir.path().join("index");
        let staging = sibling(&live, STAGING_SUFFIX);
        let mut settings = LibrarySettings {
            dense_model: DenseModel::MiniLm,
            ..LibrarySettings::default()
        };
        settings.save(&catalog).await.expect("save");

        catalog
            .set_setting(DIMENSION_SETTING, "384")
            .await
            .expect("dimension");
        let pending = |catalog: &Catalog| {
            let catalog = catalog.clone();
            async move {
                catalog
                    .set_setting(PENDING_DIMENSION, "768")
                    .await
                    .expect("pending dimension");
                catalog
                    .set_setting(PENDING_MODEL, DenseModel::E5SmallMiniLm.id())
                    .await
                    .expect("pending");
            }
        };
        let dimension = |catalog: &Catalog| {
            let catalog = catalog.clone();
            async move { catalog.setting(DIMENSION_SETTING).await.expect("read") }
        };

        // Cut off while the new index was being written: the old model stays, with
        // the old index's dimension.
        folder_with(&live, "old");
        folder_with(&staging, "half");
        pending(&catalog).await;
        settle_interrupted_rebuild(&live, &catalog, &mut settings)
            .await
            .expect("settle");
        assert_eq!(settings.dense_model, DenseModel::MiniLm);
        assert_eq!(dimension(&catalog).await.as_deref(), Some("384"));
        assert_eq!(catalog.setting(PENDING_MODEL).await.expect("read"), None);
        assert_eq!(
            catalog.setting(PENDING_DIMENSION).await.expect("read"),
            None
        );

        // Cut off after the new index took the old one's place: the new model holds,
        // and the index opens with the new vectors' dimension.
        pending(&catalog).await;
        settle_interrupted_rebuild(&live, &catalog, &mut settings)
            .await
            .expect("settle");
        assert_eq!(settings.dense_model, DenseModel::E5SmallMiniLm);
        let stored = LibrarySettings::load(&catalog).await.expect("load");
        assert_eq!(stored.dense_model, DenseModel::E5SmallMiniLm);
        assert_eq!(dimension(&catalog).await.as_deref(), Some("768"));
        assert_eq!(catalog.setting(PENDING_MODEL).await.expect("read"), None);
    }

    #[test]
    fn a_finished_swap_replaces_the_index() {
        let dir = tempfile::tempdir().expect("temp dir");
        let live = dir.path().join("index");
        let staging = sibling(&live, STAGING_SUFFIX);
        folder_with(&live, "old");
        folder_with(&staging, "new");
        swap_in(&live, &staging, &sibling(&live, RETIRED_SUFFIX)).expect("swap");
        assert_eq!(marker(&live), "new");
        assert_eq!(std::fs::read_dir(dir.path()).expect("list").count(), 1);
    }
}
