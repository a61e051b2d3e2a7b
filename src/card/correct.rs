//! A person's corrections of a document's card, and the re-indexing they need: every
//! node of the document carries the card in its vectors.

use super::{DocumentCard, FrontMatter};
use crate::catalog::DocumentRecord;
use crate::error::Result;
use crate::library::Library;

impl Library {
    /// Applies `assignments` (`field=value`) to `document`'s card, stores it and
    /// re-indexes the document. Nothing is stored unless every assignment is valid.
    pub async fn correct_card(
        &self,
        document: &DocumentRecord,
        assignments: &[String],
    ) -> Result<DocumentRecord> {
        let mut card = document.card.clone().unwrap_or_default();
        for assignment in assignments {
            card.correct(assignment)?;
        }
        self.catalog().set_card(document.id, &card).await?;
        let corrected = self.catalog().resolve(&document.id.to_string()).await?;
        if corrected.node_count.unwrap_or(0) > 0 {
            self.reindex_document(&corrected).await?;
        }
        tracing::info!(document = %document.name, "card corrected: {}", card.short_form());
        Ok(corrected)
    }

    /// Reads `document`'s card again from its PDF by the rules (for documents ingested
    /// before cards existed), keeping the fields a person corrected.
    pub async fn reread_card(&self, document: &DocumentRecord) -> Result<DocumentRecord> {
        let pdfium = self.assets()?.pdfium_library.clone();
        let path = std::path::PathBuf::from(&document.path);
        let front =
            tokio::task::spawn_blocking(move || crate::pdf::extract_front_matter(&pdfium, &path))
                .await
                .map_err(|err| crate::pdf::PdfError::Corrupt {
                    file: document.file_name.clone(),
                    detail: format!("the reader stopped: {err}"),
                })??;
        let front = self.with_stored_first_pages(document, front).await?;
        let mut card = super::read_card(&front);
        if let Some(previous) = &document.card {
            keep_corrections(&mut card, previous);
        }
        self.catalog().set_card(document.id, &card).await?;
        let updated = self.catalog().resolve(&document.id.to_string()).await?;
        if updated.node_count.unwrap_or(0) > 0 {
            self.reindex_document(&updated).await?;
        }
        Ok(updated)
    }

    /// `front` with the first pages as the library holds them: a scanned page's text is
    /// what OCR read at ingestion, which the PDF itself does not have.
    async fn with_stored_first_pages(
        &self,
        document: &DocumentRecord,
        mut front: FrontMatter,
    ) -> Result<FrontMatter> {
        let keys: Vec<(i64, u32)> = (1..=super::FRONT_PAGES as u32)
            .map(|page| (document.id, page))
            .collect();
        let stored = self.catalog().page_texts(&keys).await?;
        for (index, key) in keys.iter().enumerate() {
            let Some(text) = stored.get(key).filter(|text| !text.trim().is_empty()) else {
                continue;
            };
            match front.first_pages.get_mut(index) {
                Some(page) => *page = text.clone(),
                None => break,
            }
        }
        Ok(front)
    }
}

/// Copies the fields a person set from `previous` into `card`.
fn keep_corrections(card: &mut DocumentCard, previous: &DocumentCard) {
    use super::CardField::*;
    for field in &previous.corrected {
        match field {
            Title => card.title = previous.title.clone(),
            Organization => card.organization = previous.organization.clone(),
            Aliases => card.aliases = previous.aliases.clone(),
            Kind => card.kind = previous.kind,
            FiscalYear => card.fiscal_year = previous.fiscal_year,
            FiscalQuarter => card.fiscal_quarter = previous.fiscal_quarter,
            PeriodEnd => card.period_end = previous.period_end.clone(),
            Date => card.date = previous.date.clone(),
        }
        card.unsure.retain(|f| f != field);
    }
    card.corrected = previous.corrected.clone();
}
