//! What Help → About shows: the app's version (the workspace's, which the CLI's
//! `--version` prints too), the assets it was built with and where it found them, and
//! where its log is.

use std::path::{Path, PathBuf};

use pagetree::assets::PinnedAsset;
use serde::Serialize;

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

/// About, from where the library found its assets (or why it could not) and the log
/// folder.
pub fn about(assets: Result<Option<PathBuf>, String>, log_folder: Option<&Path>) -> About {
    let (assets_folder, assets_problem) = match assets {
        Ok(folder) => (folder.map(|dir| dir.display().to_string()), None),
        Err(problem) => (None, Some(problem)),
    };
    About {
        version: pagetree::VERSION.to_string(),
        assets: pagetree::assets::pinned_assets(),
        assets_folder,
        assets_problem,
        log_folder: log_folder.map(|dir| dir.display().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_app_reports_the_version_the_cli_does() {
        let about = about(Ok(None), None);
        assert_eq!(
            about.version,
            env!("CARGO_PKG_VERSION"),
            "one workspace version for the engine, the CLI and the app"
        );
        assert!(about.assets.iter().any(|asset| asset.name == "PDFium"));
    }

    #[test]
    fn about_says_where_the_assets_and_the_log_are_or_what_is_missing() {
        let found = about(
            Ok(Some(PathBuf::from("/usr/lib/PageTree/assets"))),
            Some(Path::new("/logs")),
        );
        assert_eq!(
            found.assets_folder.as_deref(),
            Some("/usr/lib/PageTree/assets")
        );
        assert_eq!(found.assets_problem, None);
        assert_eq!(found.log_folder.as_deref(), Some("/logs"));

        let missing = about(Err("PDFium was not found".into()), None);
        assert_eq!(missing.assets_folder, None);
        assert_eq!(
            missing.assets_problem.as_deref(),
            Some("PDFium was not found")
        );
        assert_eq!(missing.log_folder, None);
    }
}
