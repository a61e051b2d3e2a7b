//! The context a strategy hands to the language model: the selected nodes expanded to
//! pages, in document order, each page behind a `<<file, page N>>` marker.

use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use tiktoken_rs::CoreBPE;

use super::SelectedNode;

/// Token counts use OpenAI's cl100k_base encoding (GPT-4 and GPT-3.5): a real LLM
/// tokenizer, shipped inside the tiktoken-rs crate, so counting works offline.
pub(crate) const TOKENIZER_NAME: &str = "cl100k_base";

fn tokenizer() -> Option<&'static CoreBPE> {
    static BPE: OnceLock<Option<CoreBPE>> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::cl100k_base().ok()).as_ref()
}

pub fn count_tokens(text: &str) -> usize {
    match tokenizer() {
        Some(bpe) => bpe.encode_ordinary(text).len(),
        // Never happens with the embedded table; a rough estimate beats a panic.
        None => text.len().div_ceil(4),
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ContextPage {
    pub doc_id: i64,
    pub file_name: String,
    /// 1-based.
    pub page: u32,
    /// The number printed on the page (its PDF page label), when the PDF has labels.
    #[serde(default)]
    pub page_label: Option<String>,
    pub tokens: usize,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Context {
    pub text: String,
    pub pages: Vec<ContextPage>,
    pub tokens: usize,
    pub tokenizer: String,
    /// Nodes left out to fit the token budget, lowest score first.
    pub dropped_nodes: Vec<u64>,
    /// Set when the budget cut the context, in words.
    pub truncation: Option<String>,
}

/// One page's block of context text, as it will be handed over.
struct PageBlock {
    file_name: String,
    label: Option<String>,
    block: String,
    tokens: usize,
}

type PageKey = (i64, u32);

/// Builds the context from `selected` (any order) and a page-text lookup. With a budget,
/// the lowest-scored nodes are dropped first; a single node still over the budget keeps
/// its leading pages.
pub fn assemble(
    selected: &[SelectedNode],
    page_text: &dyn Fn(i64, u32) -> Option<String>,
    budget: Option<usize>,
) -> Context {
    assemble_labelled(selected, page_text, &|_, _| None, budget)
}

/// A page's printed label when it is worth showing beside its PDF page number: only
/// when it says something else ("47" beside page 52, not "52").
pub fn label_beside(label: Option<&str>, page: u32) -> Option<&str> {
    label.filter(|label| *label != page.to_string())
}

/// [`assemble`], with each page's printed label (see [`ContextPage::page_label`]) in
/// its marker and its listing: a question saying "page 47" means the printed number,
/// and the model must see which page that is.
pub fn assemble_labelled(
    selected: &[SelectedNode],
    page_text: &dyn Fn(i64, u32) -> Option<String>,
    page_label: &dyn Fn(i64, u32) -> Option<String>,
    budget: Option<usize>,
) -> Context {
    let mut by_score: Vec<&SelectedNode> = selected.iter().collect();
    by_score.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mut pages: HashMap<PageKey, PageBlock> = HashMap::new();
    let mut kept: Vec<&SelectedNode> = Vec::new();
    let mut dropped = Vec::new();
    let mut total = 0usize;
    let mut truncation = None;
    for node in by_score {
        let mut added: Vec<(PageKey, PageBlock)> = Vec::new();
        let mut node_tokens = 0;
        for page in node.page_start..=node.page_end {
            if pages.contains_key(&(node.doc_id, page)) {
                continue;
            }
            let text = page_text(node.doc_id, page).unwrap_or_default();
            let label = page_label(node.doc_id, page);
            let block = format!(
                "<<{}, page {page}{}>>\n{}\n\n",
                node.file_name,
                label_beside(label.as_deref(), page)
                    .map(|label| format!(", printed page {label}"))
                    .unwrap_or_default(),
                text.trim()
            );
            let tokens = count_tokens(&block);
            if let Some(budget) = budget {
                if total + node_tokens + tokens > budget {
                    if kept.is_empty() && added.is_empty() {
                        // Not even one page fits: keep it anyway, the caller asked for something.
                        node_tokens += tokens;
                        added.push((
                            (node.doc_id, page),
                            PageBlock {
                                file_name: node.file_name.clone(),
                                label: label.clone(),
                                block,
                                tokens,
                            },
                        ));
                    }
                    if kept.is_empty() {
                        truncation = Some(format!(
                            "the best node ({}, pages {}-{}) alone exceeds the {budget}-token budget; only its first {} page(s) are included",
                            node.file_name,
                            node.page_start,
                            node.page_end,
                            added.len()
                        ));
                    }
                    break;
                }
            }
            node_tokens += tokens;
            added.push((
                (node.doc_id, page),
                PageBlock {
                    file_name: node.file_name.clone(),
                    label,
                    block,
                    tokens,
                },
            ));
        }
        let complete = added.len()
            == (node.page_start..=node.page_end)
                .filter(|p| !pages.contains_key(&(node.doc_id, *p)))
                .count();
        if complete || kept.is_empty() {
            total += node_tokens;
            pages.extend(added);
            kept.push(node);
        } else {
            dropped.push(node.id);
        }
    }
    if !dropped.is_empty() && truncation.is_none() {
        truncation = Some(format!(
            "{} lower-scored node(s) were left out to fit the {}-token budget",
            dropped.len(),
            budget.unwrap_or(0)
        ));
    }
    // Documents in the order of their best node, pages in page order.
    let mut document_order: Vec<i64> = Vec::new();
    for node in &kept {
        if !document_order.contains(&node.doc_id) {
            document_order.push(node.doc_id);
        }
    }
    let mut text = String::new();
    let mut listed = Vec::new();
    for doc_id in document_order {
        let numbers: BTreeSet<u32> = pages
            .keys()
            .filter(|(d, _)| *d == doc_id)
            .map(|(_, p)| *p)
            .collect();
        for page in numbers {
            if let Some(page_block) = pages.get(&(doc_id, page)) {
                text.push_str(&page_block.block);
                listed.push(ContextPage {
                    doc_id,
                    file_name: page_block.file_name.clone(),
                    page,
                    page_label: page_block.label.clone(),
                    tokens: page_block.tokens,
                });
            }
        }
    }
    Context {
        tokens: listed.iter().map(|p| p.tokens).sum(),
        text,
        pages: listed,
        tokenizer: TOKENIZER_NAME.to_string(),
        dropped_nodes: dropped,
        truncation,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: u64, doc_id: i64, pages: (u32, u32), score: f32) -> SelectedNode {
        SelectedNode {
            id,
            doc_id,
            file_name: format!("doc{doc_id}.pdf"),
            level: 0,
            page_start: pages.0,
            page_end: pages.1,
            score,
        }
    }

    fn text(doc: i64, page: u32) -> Option<String> {
        Some(format!("Text of document {doc} page {page}. ").repeat(20))
    }

    #[test]
    fn pages_come_in_document_order_with_markers_and_no_duplicates() {
        let selected = [
            node(1, 2, (3, 4), 0.5),
            node(2, 1, (1, 1), 0.9),
            node(3, 2, (4, 5), 0.4),
        ];
        let context = assemble(&selected, &text, None);
        let order: Vec<(i64, u32)> = context.pages.iter().map(|p| (p.doc_id, p.page)).collect();
        assert_eq!(order, vec![(1, 1), (2, 3), (2, 4), (2, 5)]);
        assert!(context.text.starts_with("<<doc1.pdf, page 1>>\n"));
        assert_eq!(context.text.matches("<<doc2.pdf, page 4>>").count(), 1);
        assert_eq!(context.tokens, count_tokens(&context.text));
        assert!(context.truncation.is_none());
    }

    #[test]
    fn the_budget_drops_the_lowest_scored_nodes_first_and_says_so() {
        let selected = [
            node(1, 1, (1, 1), 0.9),
            node(2, 1, (2, 2), 0.1),
            node(3, 1, (3, 3), 0.5),
        ];
        let one_page = assemble(&[node(9, 1, (1, 1), 1.0)], &text, None).tokens;
        let context = assemble(&selected, &text, Some(one_page * 2 + 1));
        let pages: Vec<u32> = context.pages.iter().map(|p| p.page).collect();
        assert_eq!(pages, vec![1, 3]);
        assert_eq!(context.dropped_nodes, vec![2]);
        assert!(context
            .truncation
            .as_deref()
            .unwrap_or("")
            .contains("left out"));
        assert!(context.tokens <= one_page * 2 + 1);
    }

    #[test]
    fn a_single_node_over_budget_keeps_its_first_pages() {
        let context = assemble(&[node(1, 1, (1, 10), 1.0)], &text, Some(10));
        assert_eq!(context.pages.len(), 1);
        assert!(context
            .truncation
            .as_deref()
            .unwrap_or("")
            .contains("alone exceeds"));
    }

    #[test]
    fn a_page_label_is_in_the_marker_and_the_listing_when_it_differs() {
        let label = |_: i64, page: u32| match page {
            1 => Some("xii".to_string()),
            2 => Some("2".to_string()),
            _ => None,
        };
        let selected = [node(1, 1, (1, 3), 1.0)];
        let context = assemble_labelled(&selected, &text, &label, None);
        assert!(context
            .text
            .starts_with("<<doc1.pdf, page 1, printed page xii>>\n"));
        assert!(context.text.contains("<<doc1.pdf, page 2>>\n"));
        assert!(context.text.contains("<<doc1.pdf, page 3>>\n"));
        let labels: Vec<Option<&str>> = context
            .pages
            .iter()
            .map(|p| p.page_label.as_deref())
            .collect();
        assert_eq!(labels, vec![Some("xii"), Some("2"), None]);
    }

    #[test]
    fn counts_tokens_with_a_real_tokenizer() {
        assert_eq!(count_tokens("hello world"), 2);
    }
}
