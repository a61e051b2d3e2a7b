//! A new library's embedding model, chosen by the language of its first document unless
//! someone chose it: all-MiniLM-L6-v2 reads English only, so a library that starts with
//! a Russian or Spanish document would find its pages by their words alone.

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
    /// [`Library::may_settle_model`]): a document in another language than English
    /// makes the library multilingual-e5-small's, when that model is installed. Returns
    /// what was decided, in words for the user, or none when nothing changed. A file
    /// that cannot be read changes nothing: its ingestion says what is wrong with it.
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
        let Some(language) = language.filter(|language| *language != "english") else {
            return Ok(None);
        };
        let settings = LibrarySettings {
            dense_model: DenseModel::E5Small,
            ..self.settings().clone()
        };
        self.update_settings(settings).await?;
        tracing::info!(language, "a new library takes multilingual-e5-small");
        Ok(Some(format!(
            "the first document is in {}, so this library finds pages by meaning with {}, which reads it (MiniLM reads English only); to use MiniLM instead, run `pagetree reindex --model {}` or choose it in Settings",
            capitalized(language),
            DenseModel::E5Small.label(),
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
