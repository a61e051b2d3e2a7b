//! A new library's embedding model, chosen by the language of its first document unless
//! someone chose it: all-MiniLM-L6-v2 reads English only, so a library that starts with
//! a Russian or Spanish document takes multilingual-e5-small, and one that starts in
//! English takes the two side by side, which find English filings' evidence more often
//! than either (see [`crate::embed::pair`]).

use std::path::Path;

use crate::embed::DenseModel;
use crate::settings::LibrarySettings;
use crate::{Library, Result};

impl Library {
    /// Whether the next document added may still choose the model: the library holds
    /// none, nobody chose its model, it would embed with MiniLM, and no model folder of
    /// one's own is set. Cheap enough to ask before every file.
    pub async fn may_settle_model(&self) -> Result<bool> {
        let settings = self.settings();
        Ok(!settings.dense_model_chosen
            && settings.dense_model == DenseModel::MiniLm
            && self.model_dir().is_none()
            && !self.catalog().has_documents().await?)
    }

    /// Before `first` is added to a library whose model may still be chosen (see
    /// [`Library::may_settle_model`]), when multilingual-e5-small is installed: a
    /// document in English makes the library e5's and MiniLM's together, one in another
    /// language e5's alone (MiniLM would add nothing to its questions, at a fifth more
    /// ingestion time). Returns what was decided, in words for the user, or none when
    /// nothing changed. A file whose language cannot be read (no text, or none at all)
    /// changes nothing: its ingestion says what is wrong with it.
    pub async fn settle_model_for(&mut self, first: &Path) -> Result<Option<String>> {
        if !self.may_settle_model().await? {
            return Ok(None);
        }
        let assets = self.assets()?.clone();
        if let Err(missing) = assets.e5() {
            tracing::info!(%missing, "a first document in another language keeps MiniLM");
            return Ok(None);
        }
        let pdfium = assets.pdfium_library.clone();
        let path = first.to_path_buf();
        let language = tokio::task::spawn_blocking(move || {
            let front = crate::pdf::extract_front_matter(&pdfium, &path).ok()?;
            crate::language::detect_document(front.first_pages.iter().map(String::as_str))
        })
        .await
        .ok()
        .flatten();
        let Some(language) = language else {
            return Ok(None);
        };
        let english = language == "english";
        let model = if english {
            DenseModel::E5SmallMiniLm
        } else {
            DenseModel::E5Small
        };
        let settings = LibrarySettings {
            dense_model: model,
            ..self.settings().clone()
        };
        self.update_settings(settings).await?;
        tracing::info!(language, %model, "a new library's embedding model");
        let why = if english {
            "which together find English pages more often than MiniLM alone and also read Russian and Spanish"
        } else {
            "which reads it (MiniLM reads English only)"
        };
        Ok(Some(format!(
            "the first document is in {}, so this library finds pages by meaning with {}, {why}; to use MiniLM instead, run `pagetree reindex --model {}` or choose it in Settings",
            capitalized(language),
            model.label(),
            DenseModel::MiniLm.id(),
        )))
    }
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::capitalized;

    #[test]
    fn a_language_is_named_as_in_a_sentence() {
        assert_eq!(capitalized("russian"), "Russian");
        assert_eq!(capitalized(""), "");
    }
}
