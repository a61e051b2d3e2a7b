//! `pagetree docs` and `pagetree tree`.

use super::terminal::say;
use std::collections::HashMap;

use anyhow::Result;
use pagetree::catalog::DocumentRecord;
use pagetree::embed::DenseModel;
use pagetree::tree::Node;

/// The library's documents; each says which model embedded it (the library's).
pub fn print_documents(documents: &[DocumentRecord], model: DenseModel, json: bool) -> Result<()> {
    if json {
        let mut rows = Vec::with_capacity(documents.len());
        for document in documents {
            let mut row = serde_json::to_value(document)?;
            if let Some(fields) = row.as_object_mut() {
                fields.insert("dense_model".into(), model.id().into());
            }
            rows.push(row);
        }
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    if documents.is_empty() {
        say!("The library is empty. Add PDFs with `pagetree ingest FILE…`.");
        return Ok(());
    }
    say!("Embedded by {}.", model.label());
    say!(
        "{:>4}  {:<32} {:>6}  {:<9} {:<10} {:<48} note",
        "id",
        "name",
        "pages",
        "status",
        "language",
        "what it is"
    );
    for document in documents {
        let note = document
            .error
            .as_deref()
            .or(document.warnings.as_deref())
            .unwrap_or("");
        let ocr = ocr_note(document);
        let card = document
            .card
            .as_ref()
            .map(|c| c.short_form())
            .unwrap_or_default();
        say!(
            "{:>4}  {:<32} {:>6}  {:<9} {:<10} {:<48} {}",
            document.id,
            super::terminal::line(&document.name),
            document
                .page_count
                .map(|p| p.to_string())
                .unwrap_or_else(|| "-".into()),
            format!("{:?}", document.status).to_lowercase(),
            document.language.as_deref().unwrap_or("-"),
            card,
            format!("{ocr}{note}")
        );
    }
    Ok(())
}

/// How many of a document's pages OCR read, and how many scans it left unread.
fn ocr_note(document: &DocumentRecord) -> String {
    let mut parts = Vec::new();
    if let Some(read) = document.pages_read_by_ocr.filter(|&n| n > 0) {
        parts.push(format!("{read} page(s) read by OCR"));
    }
    if let Some(needed) = document.pages_needing_ocr.filter(|&n| n > 0) {
        parts.push(format!("{needed} scanned page(s) need OCR"));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("[{}] ", parts.join(", "))
    }
}

pub fn print_tree(document: &DocumentRecord, nodes: &[Node], json: bool) -> Result<()> {
    let root = nodes.iter().find(|n| n.is_root()).map(|n| n.id);
    if json {
        let value = serde_json::json!({"document": document, "root_id": root, "nodes": nodes});
        println!("{}", serde_json::to_string_pretty(&value)?);
        return Ok(());
    }
    let Some(root) = root else {
        say!(
            "{} has no tree ({}).",
            document.name,
            document.error.as_deref().unwrap_or("it is not ready")
        );
        return Ok(());
    };
    let by_id: HashMap<u64, &Node> = nodes.iter().map(|n| (n.id, n)).collect();
    let mut stack = vec![(root, 0usize)];
    while let Some((id, depth)) = stack.pop() {
        let Some(node) = by_id.get(&id) else { continue };
        let pages = if node.page_start == node.page_end {
            format!("p.{}", node.page_start)
        } else {
            format!("pp.{}-{}", node.page_start, node.page_end)
        };
        let summary: String = match &node.title {
            Some(title) => format!("{}  ·  {}", super::terminal::line(title), node.description),
            None => node.description.clone(),
        }
        .chars()
        .take(90)
        .collect();
        say!("{}{pages}  {summary}", "  ".repeat(depth));
        for child in node.child_ids.iter().rev() {
            stack.push((*child, depth + 1));
        }
    }
    Ok(())
}
