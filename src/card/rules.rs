//! Reads a card by rules from a document's front matter.

use super::{DocumentCard, FrontMatter};

/// A card read without an LLM.
pub fn read_card(front: &FrontMatter) -> DocumentCard {
    let _ = front;
    DocumentCard::default()
}
