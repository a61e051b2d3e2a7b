//! What a node's vectors are made from. Every node carries its document's card, so a
//! page can be found by the organisation and period it belongs to without its file
//! name; a page is embedded in its own words, a section by its summary.

use std::collections::HashMap;

use crate::card::DocumentCard;
use crate::embed::windows::WindowSplitter;
use crate::embed::{DenseTexts, EmbedError};
use crate::tree::Node;

/// How many section titles a document's root is embedded with: its table of contents,
/// as far as the model's window has room for it.
const ROOT_TITLES: usize = 24;

/// The heading each node of a document sits under: its own title, else its nearest
/// titled section's. A slide of a few words or a page of a chapter is then found by
/// what its section is about. An untitled root is headed by its sections' titles, so
/// that a document is found by what its chapters are about rather than by a summary.
pub(crate) fn headings<'a>(nodes: impl IntoIterator<Item = &'a Node>) -> HashMap<u64, String> {
    let nodes: Vec<&Node> = nodes.into_iter().collect();
    let by_id: HashMap<u64, &Node> = nodes.iter().map(|node| (node.id, *node)).collect();
    let mut headings = HashMap::new();
    if let Some(root) = nodes
        .iter()
        .find(|node| node.is_root() && node.title.is_none())
    {
        let mut titled: Vec<&Node> = nodes
            .iter()
            .copied()
            .filter(|n| n.title.is_some())
            .collect();
        titled.sort_by_key(|n| (n.page_start, std::cmp::Reverse(n.page_end)));
        let mut contents: Vec<&str> = Vec::new();
        for node in titled {
            let title = node.title.as_deref().unwrap_or_default();
            if contents.len() < ROOT_TITLES && !contents.contains(&title) {
                contents.push(title);
            }
        }
        if !contents.is_empty() {
            headings.insert(root.id, contents.join("; "));
        }
    }
    for node in &nodes {
        if headings.contains_key(&node.id) {
            continue;
        }
        let mut current = Some(*node);
        // A tree is shallow; the bound only guards against a malformed one.
        for _ in 0..64 {
            let Some(at) = current else { break };
            if let Some(title) = &at.title {
                headings.insert(node.id, title.clone());
                break;
            }
            current = (!at.is_root())
                .then(|| by_id.get(&(at.parent_id as u64)).copied())
                .flatten();
        }
    }
    headings
}

/// The text of a node's dense vector: the card's short form, then the page's own text
/// (for a page with a text layer) or the node's description, after its heading. The
/// model reads the first window of it, so the identity goes first.
pub(crate) fn dense_text(
    node: &Node,
    card: Option<&DocumentCard>,
    heading: Option<&str>,
    page_text: Option<&str>,
) -> String {
    let body = page_text
        .filter(|text| !text.trim().is_empty())
        .unwrap_or(&node.description);
    format!("{}{body}", lead(card, heading))
}

/// The card's short form and the node's heading, each on a line of its own.
fn lead(card: Option<&DocumentCard>, heading: Option<&str>) -> String {
    let mut lead = identity_lead(card);
    if let Some(heading) = heading.filter(|h| !h.trim().is_empty()) {
        lead.push_str(heading);
        lead.push_str(".\n");
    }
    lead
}

/// What every dense text of a document starts with: the card's short form and a line
/// break, or nothing for a document without one.
pub(crate) fn identity_lead(card: Option<&DocumentCard>) -> String {
    card.map(DocumentCard::identity)
        .filter(|identity| !identity.is_empty())
        .map(|identity| format!("{identity}.\n"))
        .unwrap_or_default()
}

/// The texts of a node's dense vectors: a page with a text layer in up to
/// `max_windows` windows of its own words, each after the card's short form; otherwise
/// the one text of [`dense_text`]. The whole text goes with them (see [`DenseTexts`]).
pub(crate) fn dense_texts(
    node: &Node,
    card: Option<&DocumentCard>,
    heading: Option<&str>,
    page_text: Option<&str>,
    splitter: &WindowSplitter,
    max_windows: usize,
) -> Result<DenseTexts, EmbedError> {
    match page_text.filter(|text| !text.trim().is_empty()) {
        Some(text) => {
            let lead = lead(card, heading);
            Ok(DenseTexts {
                windows: splitter.windows(&lead, text, max_windows)?,
                whole: format!("{lead}{text}"),
            })
        }
        None => {
            let text = dense_text(node, card, heading, None);
            Ok(DenseTexts {
                windows: vec![text.clone()],
                whole: text,
            })
        }
    }
}

/// What BM25 sees of a node: its document's identity (the card's words, or the file
/// name's words where the card does not name the organisation: people name files after
/// what they hold), the description, the keywords, and for pages optionally the text.
pub(crate) fn sparse_text(
    node: &Node,
    card: Option<&DocumentCard>,
    heading: Option<&str>,
    page_text: Option<&str>,
) -> String {
    let identity = match card.filter(|c| c.names_organization()) {
        Some(card) => card.search_words(),
        None => name_words(&node.file_name),
    };
    let mut text = format!(
        "{identity}\n{}\n{}\n{}",
        heading.unwrap_or_default(),
        node.description,
        node.keywords.join(" ")
    );
    if let Some(page_text) = page_text {
        text.push('\n');
        text.push_str(page_text);
    }
    text
}

/// A file name as words: BM25's tokenizer keeps `3M_2018_10K` as one token that no
/// question contains.
fn name_words(file_name: &str) -> String {
    let stem = file_name
        .strip_suffix(".pdf")
        .or_else(|| file_name.strip_suffix(".PDF"))
        .unwrap_or(file_name);
    stem.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{CardField, DocumentKind};

    fn page() -> Node {
        Node {
            id: 1,
            doc_id: 0,
            file_name: "3M_2018_10K.pdf".into(),
            parent_id: -1,
            child_ids: vec![],
            level: 0,
            page_start: 1,
            page_end: 1,
            description: "Capital spending.".into(),
            keywords: vec!["capex".into()],
            card: None,
            title: None,
        }
    }

    fn card() -> DocumentCard {
        DocumentCard {
            organization: Some("3M Company".into()),
            kind: Some(DocumentKind::AnnualReport),
            fiscal_year: Some(2018),
            ..DocumentCard::default()
        }
    }

    #[test]
    fn file_names_become_words() {
        assert_eq!(name_words("3M_2018_10K.pdf"), "3M 2018 10K");
        assert_eq!(
            name_words("FOOTLOCKER_2022_8K_dated-2022-05-20.PDF"),
            "FOOTLOCKER 2022 8K dated 2022 05 20"
        );
        assert_eq!(name_words("notes"), "notes");
    }

    #[test]
    fn sparse_text_carries_the_card_or_else_the_file_name() {
        let node = page();
        let text = sparse_text(&node, None, None, Some("Full page"));
        assert!(
            text.starts_with("3M 2018 10K\n")
                && text.contains("capex")
                && text.ends_with("Full page")
        );
        assert!(!sparse_text(&node, None, None, None).contains("Full page"));
        let carded = sparse_text(&node, Some(&card()), None, None);
        assert!(
            carded.starts_with("3M Company · 10-K annual report"),
            "{carded}"
        );
        assert!(
            carded.contains("FY2018") && !carded.contains("10K"),
            "{carded}"
        );
    }

    #[test]
    fn dense_text_is_the_page_in_its_own_words_after_the_card() {
        let node = page();
        let text = dense_text(
            &node,
            Some(&card()),
            None,
            Some("Purchases of PP&E were $1,577"),
        );
        assert_eq!(
            text,
            "3M Company · 10-K annual report · fiscal year 2018.\nPurchases of PP&E were $1,577"
        );
        assert_eq!(
            dense_text(&node, None, None, Some("  ")),
            "Capital spending."
        );
        assert_eq!(dense_text(&node, None, None, None), "Capital spending.");
    }

    #[test]
    fn a_period_guessed_for_an_article_stays_out_of_its_dense_text() {
        let article = DocumentCard {
            fiscal_year: Some(2026),
            date: Some("2026-12-01".into()),
            unsure: vec![CardField::FiscalYear, CardField::Date],
            ..DocumentCard::default()
        };
        let text = dense_text(
            &page(),
            Some(&article),
            None,
            Some("Jacksonville is the largest city"),
        );
        assert_eq!(text, "Jacksonville is the largest city");
    }

    #[test]
    fn a_page_is_embedded_under_its_sections_heading() {
        let mut section = page();
        section.id = 99;
        section.child_ids = vec![page().id];
        section.title = Some("Capital expenditures".into());
        let mut leaf = page();
        leaf.parent_id = 99;
        let headings = headings([&leaf, &section]);
        assert_eq!(
            headings.get(&leaf.id).map(String::as_str),
            Some("Capital expenditures")
        );
        let text = dense_text(
            &leaf,
            None,
            headings.get(&leaf.id).map(String::as_str),
            Some("PP&E 1,577"),
        );
        assert_eq!(text, "Capital expenditures.\nPP&E 1,577");
        let sparse = sparse_text(&leaf, None, Some("Capital expenditures"), None);
        assert!(sparse.contains("Capital expenditures"), "{sparse}");
    }
}
