//! The model file (.gguf) the app serves itself: one `llama-server` at a time, started
//! when the person picks a file (or when the app opens a library that names one), and
//! stopped when the file changes, another server is chosen, or the app exits.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use pagetree::describe::LlmSettings;
use pagetree::local_llm::{LocalModelServer, ServerOptions};
use serde::Serialize;

/// What the app's own server is doing, for the Settings view.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum LocalModelState {
    Off,
    Starting,
    Running,
    Failed,
}

#[derive(Debug, Clone, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct LocalModelStatus {
    pub state: LocalModelState,
    /// The model file, when one was chosen.
    pub file: Option<String>,
    /// The name the server answers to, its URL and process id while it runs.
    pub model: Option<String>,
    pub base_url: Option<String>,
    pub pid: Option<u32>,
    /// Why it is not running, when it failed.
    pub message: Option<String>,
}

enum Slot {
    Off,
    Starting(PathBuf),
    Running(LocalModelServer),
    Failed(PathBuf, String),
}

pub struct LocalModel {
    slot: Mutex<Slot>,
    /// The package's assets, whose `bin/` holds the llama-server it carries.
    assets_dir: Option<PathBuf>,
}

impl LocalModel {
    pub fn new(assets_dir: Option<PathBuf>) -> Self {
        Self {
            slot: Mutex::new(Slot::Off),
            assets_dir,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Slot> {
        self.slot
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn status(&self) -> LocalModelStatus {
        let off = LocalModelStatus {
            state: LocalModelState::Off,
            file: None,
            model: None,
            base_url: None,
            pid: None,
            message: None,
        };
        match &*self.lock() {
            Slot::Off => off,
            Slot::Starting(file) => LocalModelStatus {
                state: LocalModelState::Starting,
                file: Some(file.display().to_string()),
                ..off
            },
            Slot::Running(server) if server.is_running() => LocalModelStatus {
                state: LocalModelState::Running,
                file: Some(server.model_file().display().to_string()),
                model: Some(server.model_name().to_string()),
                base_url: Some(server.base_url()),
                pid: Some(server.pid()),
                message: None,
            },
            Slot::Running(server) => LocalModelStatus {
                state: LocalModelState::Failed,
                file: Some(server.model_file().display().to_string()),
                message: Some("llama-server stopped; the log says why".to_string()),
                ..off
            },
            Slot::Failed(file, why) => LocalModelStatus {
                state: LocalModelState::Failed,
                file: Some(file.display().to_string()),
                message: Some(why.clone()),
                ..off
            },
        }
    }

    /// Serves `file`, stopping the server of any other file first; the one already
    /// serving `file` is kept. Returns the settings that reach it.
    pub async fn start(&self, file: &Path) -> Result<LlmSettings, String> {
        let previous = {
            let mut slot = self.lock();
            if let Slot::Running(server) = &*slot {
                if server.model_file() == file && server.is_running() {
                    return Ok(server.llm_settings());
                }
            }
            std::mem::replace(&mut *slot, Slot::Starting(file.to_path_buf()))
        };
        // Stopped outside the lock: it waits for the process to go.
        drop(previous);
        let options = ServerOptions {
            assets_dir: self.assets_dir.clone(),
            ..ServerOptions::new(file)
        };
        let started = LocalModelServer::start(options).await;
        let mut slot = self.lock();
        let still_wanted = matches!(&*slot, Slot::Starting(wanted) if wanted == file);
        match started {
            Ok(server) if still_wanted => {
                let settings = server.llm_settings();
                *slot = Slot::Running(server);
                Ok(settings)
            }
            // Another file was chosen (or the server stopped) meanwhile: this one goes.
            Ok(_) => Err("another model was chosen while this one was loading".to_string()),
            Err(err) => {
                let why = err.to_string();
                tracing::warn!(file = %file.display(), %why, "the model file could not be served");
                if still_wanted {
                    *slot = Slot::Failed(file.to_path_buf(), why.clone());
                }
                Err(why)
            }
        }
    }

    /// The context window of the server at `url`, when it is ours.
    pub fn context_tokens_at(&self, url: &str) -> Option<usize> {
        match &*self.lock() {
            Slot::Running(server) if same_url(&server.base_url(), url) => {
                Some(server.context_tokens() as usize)
            }
            _ => None,
        }
    }

    /// Stops the server, if one runs, and waits until it is gone.
    pub fn stop(&self) {
        let previous = std::mem::replace(&mut *self.lock(), Slot::Off);
        if let Slot::Running(server) = previous {
            server.stop();
        }
    }
}

fn same_url(a: &str, b: &str) -> bool {
    a.trim().trim_end_matches('/') == b.trim().trim_end_matches('/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_is_no_model_is_reported_and_nothing_runs() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("notes.gguf");
        std::fs::write(&file, "not a model").expect("written");
        let local = LocalModel::new(None);
        let why = tauri::async_runtime::block_on(local.start(&file)).unwrap_err();
        assert!(why.contains("is not a GGUF model file"), "{why}");
        let status = local.status();
        assert_eq!(status.state, LocalModelState::Failed);
        assert_eq!(status.pid, None);
        assert!(status.message.is_some_and(|m| m.contains("GGUF")));
        local.stop();
        assert_eq!(local.status().state, LocalModelState::Off);
    }
}
