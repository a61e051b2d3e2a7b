//! The part of each document's tree that a search touched, for drawing its trace: the
//! nodes it scored or chose and every ancestor above them, without the descriptions and
//! keywords (a trace over a whole library touches every root, so whole trees would be
//! megabytes).

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Serialize;

use crate::error::Result;
use crate::library::Library;
use crate::tree::{doc_id_of, Node, ROOT_PARENT};

/// How many characters of a node's description name it in a trace.
const TITLE_CHARS: usize = 80;

/// One node of a trace outline.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OutlineNode {
    pub id: u64,
    /// `-1` for the root.
    pub parent_id: i64,
    /// 0 for pages.
    pub level: u32,
    pub page_start: u32,
    pub page_end: u32,
    /// The start of the node's description, on one line.
    pub title: String,
}

/// One document a search touched, with the touched part of its tree.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OutlineDocument {
    pub doc_id: i64,
    pub name: String,
    pub page_count: u32,
    /// Touched nodes and their ancestors, parents before children, siblings in page order.
    pub nodes: Vec<OutlineNode>,
}

impl Library {
    /// The nodes `ids` and all their ancestors, grouped by document (in order of first
    /// appearance in `ids`). Ids of removed documents or nodes are left out.
    pub async fn trace_outline(&self, ids: &[u64]) -> Result<Vec<OutlineDocument>> {
        let store = self.store().await?;
        let mut found: HashMap<u64, Node> = HashMap::new();
        let mut wanted: Vec<u64> = unique(ids);
        // Each round fetches one level of parents; trees are a handful of levels deep.
        while !wanted.is_empty() {
            let nodes = store.nodes(&wanted).await?;
            let mut parents = Vec::new();
            for node in nodes {
                if node.parent_id != ROOT_PARENT {
                    let parent = node.parent_id as u64;
                    if !found.contains_key(&parent) {
                        parents.push(parent);
                    }
                }
                found.insert(node.id, node);
            }
            wanted = unique(&parents)
                .into_iter()
                .filter(|id| !found.contains_key(id))
                .collect();
        }
        let documents: HashMap<i64, _> = self
            .catalog()
            .documents()
            .await?
            .into_iter()
            .map(|d| (d.id, d))
            .collect();
        let mut order: Vec<i64> = Vec::new();
        for &id in ids {
            let doc = doc_id_of(id);
            if !order.contains(&doc) && documents.contains_key(&doc) {
                order.push(doc);
            }
        }
        let mut by_doc: BTreeMap<i64, Vec<Node>> = BTreeMap::new();
        for node in found.into_values() {
            by_doc.entry(node.doc_id).or_default().push(node);
        }
        Ok(order
            .into_iter()
            .filter_map(|doc_id| {
                let record = documents.get(&doc_id)?;
                let nodes = by_doc.remove(&doc_id)?;
                Some(OutlineDocument {
                    doc_id,
                    name: record.name.clone(),
                    page_count: record.page_count.unwrap_or(0),
                    nodes: depth_first(nodes),
                })
            })
            .collect())
    }
}

fn unique(ids: &[u64]) -> Vec<u64> {
    let mut seen = HashSet::new();
    ids.iter().copied().filter(|id| seen.insert(*id)).collect()
}

/// Parents before their children, siblings in page order; a node whose parent is missing
/// starts a tree of its own.
fn depth_first(nodes: Vec<Node>) -> Vec<OutlineNode> {
    let ids: HashSet<u64> = nodes.iter().map(|n| n.id).collect();
    let mut children: HashMap<i64, Vec<&Node>> = HashMap::new();
    let mut tops: Vec<&Node> = Vec::new();
    for node in &nodes {
        if node.parent_id != ROOT_PARENT && ids.contains(&(node.parent_id as u64)) {
            children.entry(node.parent_id).or_default().push(node);
        } else {
            tops.push(node);
        }
    }
    let by_pages = |a: &&Node, b: &&Node| {
        (a.page_start, std::cmp::Reverse(a.page_end), a.id).cmp(&(
            b.page_start,
            std::cmp::Reverse(b.page_end),
            b.id,
        ))
    };
    tops.sort_by(by_pages);
    for kids in children.values_mut() {
        kids.sort_by(by_pages);
    }
    let mut out = Vec::with_capacity(nodes.len());
    let mut stack: Vec<&Node> = tops.into_iter().rev().collect();
    while let Some(node) = stack.pop() {
        out.push(OutlineNode {
            id: node.id,
            parent_id: node.parent_id,
            level: node.level,
            page_start: node.page_start,
            page_end: node.page_end,
            title: title(&node.description),
        });
        if let Some(kids) = children.get(&(node.id as i64)) {
            stack.extend(kids.iter().rev());
        }
    }
    out
}

fn title(description: &str) -> String {
    let line = description.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= TITLE_CHARS {
        return line;
    }
    let cut: String = line.chars().take(TITLE_CHARS).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::lone_page;

    fn node(id: u64, parent: i64, level: u32, pages: (u32, u32), text: &str) -> Node {
        Node {
            parent_id: parent,
            level,
            page_start: pages.0,
            page_end: pages.1,
            description: text.into(),
            ..lone_page(id)
        }
    }

    #[test]
    fn parents_come_before_children_and_siblings_in_page_order() {
        let nodes = vec![
            node(1, 10, 0, (2, 2), "second page"),
            node(0, 10, 0, (1, 1), "first page"),
            node(10, -1, 1, (1, 2), "the root"),
            node(7, 99, 0, (9, 9), "orphan"),
        ];
        let ids: Vec<u64> = depth_first(nodes).iter().map(|n| n.id).collect();
        assert_eq!(ids, vec![10, 0, 1, 7]);
    }

    #[test]
    fn a_title_is_one_line_cut_at_a_word() {
        assert_eq!(title("Total\nrevenue   grew"), "Total revenue grew");
        let long = "word ".repeat(40);
        let cut = title(&long);
        assert!(cut.ends_with('…'), "{cut}");
        assert!(cut.chars().count() <= TITLE_CHARS + 1);
        assert!(!cut.contains("wo…"), "cut inside a word: {cut}");
    }
}
