//! What a failed command sends to the UI: one message written for people, shown as is.

use pagetree::library::LibraryError;
use serde::{Serialize, Serializer};

#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    #[error("{}", words(.0))]
    Engine(#[from] pagetree::Error),
    #[error(transparent)]
    Catalog(#[from] pagetree::catalog::CatalogError),
    #[error("{0}")]
    Message(String),
}

impl CommandError {
    pub fn message(text: impl Into<String>) -> Self {
        Self::Message(text.into())
    }
}

impl Serialize for CommandError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_string())
    }
}

pub type CommandResult<T> = Result<T, CommandError>;

/// An engine error in the app's words: where it has a remedy, the place in the app that
/// applies it (the CLI names its flags and commands instead).
pub fn words(err: &pagetree::Error) -> String {
    let remedy = match err {
        pagetree::Error::Library(LibraryError::NoLlm) => "set one in Settings".to_string(),
        pagetree::Error::Library(LibraryError::StoreElsewhere { .. }) => {
            "to move them there, choose that server in Settings and save".to_string()
        }
        pagetree::Error::Library(LibraryError::ModelChangeRemote(_)) => {
            "Settings moves it here when you choose this computer's store".to_string()
        }
        pagetree::Error::Library(LibraryError::ModelMismatch { requested, .. }) => {
            format!("choosing {} in Settings does that", requested.label())
        }
        _ => return err.to_string(),
    };
    format!("{err}; {remedy}")
}
