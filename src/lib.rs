//! PageTree engine: PDF libraries indexed as page trees, searched with adaptive
//! hierarchical retrieval. The desktop shell and the CLI are thin layers over this crate.

/// The version of PageTree (the engine, the CLI and the app share it).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub mod assets;
pub mod card;
pub mod catalog;
pub mod chat;
pub mod describe;
pub mod disk;
pub mod embed;
pub mod error;
pub mod eval;
pub mod files;
pub mod history;
pub mod index_text;
pub mod ingest;
pub mod language;
pub mod library;
pub mod llm;
pub mod local_llm;
pub mod migrate;
mod model_choice;
pub mod ocr;
pub mod owner;
pub mod pdf;
pub mod plot;
pub mod private_files;
pub mod rebuild;
pub mod redact;
pub mod render;
pub mod search;
pub mod secret;
pub mod settings;
pub mod statements;
pub mod store;
pub mod structure;
pub mod synthetic;
pub mod text_clean;
pub mod tree;
pub mod word_bag;

pub use error::{Error, Result};
pub use library::Library;
