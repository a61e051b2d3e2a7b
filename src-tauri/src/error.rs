//! What a failed command sends to the UI: one message written for people, shown as is.

use serde::{Serialize, Serializer};

#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    #[error(transparent)]
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
