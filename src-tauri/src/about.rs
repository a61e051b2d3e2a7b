//! What Help → About shows: the app's version (the workspace's, which the CLI's
//! `--version` prints too), the assets it was built with and where it found them, and
//! where its log is.

use std::path::PathBuf;

use pagetree::assets::{Assets, PinnedAsset};
use serde::Serialize;

/// What the app found when it started, for the About box.
#[derive(Debug, Clone, Default)]
pub struct StartFacts {
    /// The installed package's assets, when it has them.
    pub bundled_assets: Option<PathBuf>,
    pub log_folder: Option<PathBuf>,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct About {
    pub version: String,
    pub assets: Vec<PinnedAsset>,
    /// Where PDFium, ONNX Runtime and the models were found.
    pub assets_folder: Option<String>,
    /// Why PDFs cannot be read yet: which file is missing and how to get it.
    pub assets_problem: Option<String>,
    /// Where the log files are; none when the log goes to standard error only.
    pub log_folder: Option<String>,
}

pub fn about(facts: &StartFacts) -> About {
    let (assets_folder, assets_problem) =
        match Assets::locate(facts.bundled_assets.as_deref(), None) {
            Ok(assets) => (assets.folder().map(|dir| dir.display().to_string()), None),
            Err(err) => (None, Some(err.to_string())),
        };
    About {
        version: env!("CARGO_PKG_VERSION").to_string(),
        assets: pagetree::assets::pinned_assets(),
        assets_folder,
        assets_problem,
        log_folder: facts
            .log_folder
            .as_ref()
            .map(|dir| dir.display().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_names_the_version_the_pinned_assets_and_a_missing_one() {
        let empty = tempfile::tempdir().expect("temp dir");
        // An empty folder first, then wherever scripts/setup.sh put the assets.
        let facts = StartFacts {
            bundled_assets: Some(empty.path().to_path_buf()),
            log_folder: Some(PathBuf::from("/logs")),
        };
        let about = about(&facts);
        assert_eq!(about.version, env!("CARGO_PKG_VERSION"));
        assert_eq!(
            about.version,
            pagetree::VERSION,
            "one version for the app and the CLI"
        );
        assert!(about.assets.iter().any(|asset| asset.name == "PDFium"));
        assert_eq!(about.log_folder.as_deref(), Some("/logs"));
        match (&about.assets_folder, &about.assets_problem) {
            (Some(folder), None) => assert!(!folder.starts_with(&*empty.path().to_string_lossy())),
            (None, Some(problem)) => assert!(problem.contains("was not found"), "{problem}"),
            other => panic!("either a folder or a problem: {other:?}"),
        }
    }
}
