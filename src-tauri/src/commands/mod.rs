//! The commands the UI invokes (ui/README.md, "The shell contract"): thin wrappers that
//! turn the engine's results into JSON and its errors into sentences.

pub mod history;
pub mod library;
pub mod local_model;
pub mod search;
pub mod settings;
