//! The app's log: to standard error (where a terminal or the end-to-end tests read it)
//! and, for a user who started the app from a menu, to a file in the platform's log
//! folder, a new one each day and the last week's kept. Lines name files, pages and
//! settings, never keys (they are redacted types) or what documents say.

use std::path::{Path, PathBuf};

use tracing_appender::rolling::{RollingFileAppender, Rotation};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{fmt, EnvFilter};

/// The log files' names: `pagetree.<date>.log`.
pub const LOG_FILE_PREFIX: &str = "pagetree";
const DAYS_KEPT: usize = 7;

/// Starts logging; returns the folder the log files go to, unless it could not be
/// made (then the app logs to standard error only, and says why there).
pub fn init(folder: Option<&Path>) -> Option<PathBuf> {
    let (appender, problem) = match folder.map(file_appender) {
        Some(Ok(appender)) => (Some(appender), None),
        Some(Err(problem)) => (None, Some(problem)),
        None => (None, None),
    };
    let written_to = appender.as_ref().and(folder).map(Path::to_path_buf);
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| "info,pagetree=info".into());
    tracing_subscriber::registry()
        .with(filter)
        .with(fmt::layer().with_writer(std::io::stderr))
        .with(appender.map(|file| fmt::layer().with_ansi(false).with_writer(file)))
        .init();
    if let Some(problem) = problem {
        tracing::warn!(%problem, "the log is written to standard error only");
    }
    written_to
}

fn file_appender(folder: &Path) -> Result<RollingFileAppender, String> {
    create_private_folder(folder)
        .map_err(|err| format!("cannot make the log folder {}: {err}", folder.display()))?;
    RollingFileAppender::builder()
        .rotation(Rotation::DAILY)
        .filename_prefix(LOG_FILE_PREFIX)
        .filename_suffix("log")
        .max_log_files(DAYS_KEPT)
        .build(folder)
        .map_err(|err| format!("cannot open a log file in {}: {err}", folder.display()))
}

/// The log folder is the user's alone, as the library is.
fn create_private_folder(folder: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(folder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_files_go_to_a_private_folder_with_a_dated_name() {
        let dir = tempfile::tempdir().expect("temp dir");
        let folder = dir.path().join("logs");
        let appender = file_appender(&folder).expect("appender");
        drop(appender);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&folder)
                .expect("folder")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        let names: Vec<String> = std::fs::read_dir(&folder)
            .expect("listed")
            .map(|entry| {
                entry
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        assert!(
            names[0].starts_with("pagetree.") && names[0].ends_with(".log"),
            "{names:?}"
        );
    }

    #[test]
    fn a_folder_that_cannot_be_made_is_said_in_words() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("a-file");
        std::fs::write(&file, b"x").expect("write");
        let problem = file_appender(&file.join("logs")).expect_err("under a file");
        assert!(
            problem.starts_with("cannot make the log folder"),
            "{problem}"
        );
    }
}
