//! The page tree of one document: leaves are pages, each parent groups `width`
//! consecutive nodes, and the single root has `parent_id = -1`.

use serde::{Deserialize, Serialize};

/// What one node says about its pages: the text searched and shown, and its keywords.
/// Pages get theirs from a describer, parents from their children's (see
/// `describe::build_tree`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Description {
    pub description: String,
    pub keywords: Vec<String>,
}

pub const ROOT_PARENT: i64 = -1;
pub(crate) const MIN_GROUP_WIDTH: usize = 3;
pub(crate) const MAX_GROUP_WIDTH: usize = 5;
/// Four children per parent keeps trees shallow (a 300-page filing is 5 levels deep)
/// while each summary still covers few enough pages to stay specific: of the widths
/// allowed, it finds the most evidence for the context tokens spent.
pub(crate) const DEFAULT_GROUP_WIDTH: usize = 4;
/// Bits of a node id that number the nodes inside their document; the rest hold the
/// document id, so ids are unique across a library without a counter.
const LOCAL_ID_BITS: u32 = 24;

/// One node of a document tree, exactly as it is stored as a point's payload.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Node {
    pub id: u64,
    pub doc_id: i64,
    pub file_name: String,
    pub parent_id: i64,
    pub child_ids: Vec<u64>,
    /// 0 for pages; a parent is one above its highest child.
    pub level: u32,
    /// 1-based and inclusive.
    pub page_start: u32,
    pub page_end: u32,
    pub description: String,
    pub keywords: Vec<String>,
    /// The section's heading as the document gives it (its outline or a heading on its
    /// first page), on sections and on pages that are a section of their own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The document's card, on its root only: what a reader of the index (or another
    /// client of a shared Qdrant collection) needs to know which document a tree is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<crate::card::DocumentCard>,
}

impl Node {
    pub fn is_root(&self) -> bool {
        self.parent_id == ROOT_PARENT
    }

    pub fn is_leaf(&self) -> bool {
        self.child_ids.is_empty()
    }
}

pub(crate) fn node_id(doc_id: i64, local_index: usize) -> u64 {
    ((doc_id as u64) << LOCAL_ID_BITS) | local_index as u64
}

/// A one-page document's only node, for tests that need some node.
#[cfg(test)]
pub(crate) fn lone_page(id: u64) -> Node {
    Node {
        id,
        doc_id: 1,
        file_name: "a.pdf".into(),
        parent_id: ROOT_PARENT,
        child_ids: Vec::new(),
        level: 0,
        page_start: 1,
        page_end: 1,
        description: String::new(),
        keywords: Vec::new(),
        card: None,
        title: None,
    }
}

/// The node of page `page` (from 1): [`leaves`] numbers a document's pages first.
pub(crate) fn page_node_id(doc_id: i64, page: u32) -> u64 {
    node_id(doc_id, (page as usize).saturating_sub(1))
}

/// The page (from 1) of a page's node: the inverse of [`page_node_id`].
pub(crate) fn page_of_leaf(node_id: u64) -> u32 {
    (node_id & (MAX_NODES_PER_DOCUMENT as u64 - 1)) as u32 + 1
}

/// The root of a document of `node_count` nodes: parents are appended level by level
/// after the pages, so the root comes last.
pub(crate) fn root_node_id(doc_id: i64, node_count: u32) -> u64 {
    node_id(doc_id, (node_count as usize).saturating_sub(1))
}

/// The document a node belongs to.
pub fn doc_id_of(node_id: u64) -> i64 {
    (node_id >> LOCAL_ID_BITS) as i64
}

/// How many nodes one document may have (pages and parents together).
pub(crate) const MAX_NODES_PER_DOCUMENT: usize = 1 << LOCAL_ID_BITS;

/// One step of grouping a level into the next.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Group {
    /// A new parent over these consecutive positions of the level.
    Parent(std::ops::Range<usize>),
    /// A single leftover node moves up unchanged.
    Carried(usize),
}

/// Splits a level of `len` nodes into consecutive groups of `width`.
pub(crate) fn group_level(len: usize, width: usize) -> Vec<Group> {
    let width = width.clamp(MIN_GROUP_WIDTH, MAX_GROUP_WIDTH);
    let mut groups = Vec::new();
    let mut start = 0;
    while start < len {
        let end = (start + width).min(len);
        if end - start == 1 {
            groups.push(Group::Carried(start));
        } else {
            groups.push(Group::Parent(start..end));
        }
        start = end;
    }
    groups
}

/// The parents of a tree over `pages` pages, level by level: each parent is the list of
/// the node indexes it groups. Indexes follow creation order: pages first (page p is
/// p - 1), then parents level by level, so a parent's index is known before it exists.
pub(crate) fn tree_shape(pages: usize, width: usize) -> Vec<Vec<Vec<usize>>> {
    let mut levels = Vec::new();
    let mut level: Vec<usize> = (0..pages).collect();
    let mut next_index = pages;
    while level.len() > 1 {
        let mut parents = Vec::new();
        let mut next_level = Vec::new();
        for group in group_level(level.len(), width) {
            match group {
                Group::Carried(position) => next_level.push(level[position]),
                Group::Parent(range) => {
                    parents.push(level[range].to_vec());
                    next_level.push(next_index);
                    next_index += 1;
                }
            }
        }
        levels.push(parents);
        level = next_level;
    }
    levels
}

/// The page (leaf) nodes of a document, before any parent exists.
pub(crate) fn leaves(doc_id: i64, file_name: &str, pages: Vec<Description>) -> Vec<Node> {
    pages
        .into_iter()
        .enumerate()
        .map(|(index, page)| Node {
            id: node_id(doc_id, index),
            doc_id,
            file_name: file_name.to_string(),
            parent_id: ROOT_PARENT,
            child_ids: Vec::new(),
            level: 0,
            page_start: index as u32 + 1,
            page_end: index as u32 + 1,
            description: page.description,
            keywords: page.keywords,
            card: None,
            title: None,
        })
        .collect()
}

/// Appends the parent over `children` (indexes into `nodes`) and links them to it.
pub(crate) fn add_parent(
    nodes: &mut Vec<Node>,
    children: &[usize],
    description: String,
    title: Option<String>,
) {
    let index = nodes.len();
    let doc_id = nodes[children[0]].doc_id;
    let mut parent = parent_of(
        node_id(doc_id, index),
        &children.iter().map(|&i| &nodes[i]).collect::<Vec<_>>(),
        description,
    );
    parent.title = title;
    for &child in children {
        nodes[child].parent_id = parent.id as i64;
    }
    nodes.push(parent);
}

fn parent_of(id: u64, children: &[&Node], description: String) -> Node {
    let mut keywords: Vec<String> = Vec::new();
    for child in children {
        for keyword in &child.keywords {
            if !keywords.contains(keyword) {
                keywords.push(keyword.clone());
            }
        }
    }
    Node {
        id,
        doc_id: children[0].doc_id,
        file_name: children[0].file_name.clone(),
        parent_id: ROOT_PARENT,
        child_ids: children.iter().map(|c| c.id).collect(),
        level: children.iter().map(|c| c.level).max().unwrap_or(0) + 1,
        page_start: children.iter().map(|c| c.page_start).min().unwrap_or(1),
        page_end: children.iter().map(|c| c.page_end).max().unwrap_or(1),
        description,
        keywords,
        card: None,
        title: None,
    }
}

/// Checks the invariants every stored tree must hold; returns what is wrong, in words.
pub fn check_invariants(nodes: &[Node], page_count: u32) -> Result<(), String> {
    use std::collections::HashMap;
    let by_id: HashMap<u64, &Node> = nodes.iter().map(|n| (n.id, n)).collect();
    let roots: Vec<&Node> = nodes.iter().filter(|n| n.is_root()).collect();
    if roots.len() != 1 {
        return Err(format!("{} roots instead of one", roots.len()));
    }
    let mut covered = vec![0u32; page_count as usize];
    for node in nodes {
        if !node.is_root() {
            let parent = by_id.get(&(node.parent_id as u64)).ok_or_else(|| {
                format!("node {} has a missing parent {}", node.id, node.parent_id)
            })?;
            if !parent.child_ids.contains(&node.id) {
                return Err(format!(
                    "parent {} does not list child {}",
                    parent.id, node.id
                ));
            }
            if node.page_start < parent.page_start || node.page_end > parent.page_end {
                return Err(format!("node {} pages lie outside its parent's", node.id));
            }
            if let Some(missing) = node.keywords.iter().find(|k| !parent.keywords.contains(k)) {
                return Err(format!(
                    "parent {} lacks its child's keyword {missing:?}",
                    parent.id
                ));
            }
        }
        if node.is_leaf() {
            if node.page_start != node.page_end {
                return Err(format!("leaf {} spans more than one page", node.id));
            }
            let index = node.page_start as usize - 1;
            let slot = covered.get_mut(index).ok_or_else(|| {
                format!(
                    "leaf {} is page {} of {page_count}",
                    node.id, node.page_start
                )
            })?;
            *slot += 1;
        }
    }
    if let Some(page) = covered.iter().position(|&count| count != 1) {
        return Err(format!(
            "page {} is covered {} times",
            page + 1,
            covered[page]
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_consecutive_nodes_and_carries_a_single_leftover() {
        assert_eq!(
            group_level(7, 3),
            vec![Group::Parent(0..3), Group::Parent(3..6), Group::Carried(6)]
        );
        assert_eq!(
            group_level(5, 4),
            vec![Group::Parent(0..4), Group::Carried(4)]
        );
        assert_eq!(
            group_level(6, 4),
            vec![Group::Parent(0..4), Group::Parent(4..6)]
        );
    }

    #[test]
    fn shape_numbers_parents_after_the_pages_level_by_level() {
        // 7 pages, width 3: parents 7 = (0,1,2) and 8 = (3,4,5); page 6 is carried up;
        // the root 9 groups 7, 8 and 6.
        assert_eq!(
            tree_shape(7, 3),
            vec![vec![vec![0, 1, 2], vec![3, 4, 5]], vec![vec![7, 8, 6]]]
        );
        assert!(
            tree_shape(1, 4).is_empty(),
            "a one-page document is its own root"
        );
    }

    #[test]
    fn page_and_root_ids_follow_the_numbering_of_a_built_tree() {
        let blank = Description {
            description: String::new(),
            keywords: Vec::new(),
        };
        let mut nodes = leaves(3, "a.pdf", vec![blank; 23]);
        for parents in tree_shape(23, 4) {
            for children in &parents {
                add_parent(&mut nodes, children, String::new(), None);
            }
        }
        let root = nodes.iter().find(|n| n.is_root()).expect("a root");
        assert_eq!(root_node_id(3, nodes.len() as u32), root.id);
        for page in [1, 17, 23] {
            let leaf = nodes
                .iter()
                .find(|n| n.is_leaf() && n.page_start == page)
                .expect("the page's leaf");
            assert_eq!(page_node_id(3, page), leaf.id);
            assert_eq!(page_of_leaf(leaf.id), page);
        }
    }

    #[test]
    fn width_is_clamped_to_three_to_five() {
        assert_eq!(
            group_level(4, 1),
            vec![Group::Parent(0..3), Group::Carried(3)]
        );
        assert_eq!(
            group_level(6, 9),
            vec![Group::Parent(0..5), Group::Carried(5)]
        );
    }

    #[test]
    fn invariant_checker_catches_a_page_covered_twice() {
        let leaf = |id: u64, page: u32| Node {
            id,
            doc_id: 0,
            file_name: "a".into(),
            parent_id: 9,
            child_ids: vec![],
            level: 0,
            page_start: page,
            page_end: page,
            description: String::new(),
            keywords: vec![],
            card: None,
            title: None,
        };
        let root = Node {
            id: 9,
            parent_id: ROOT_PARENT,
            child_ids: vec![1, 2],
            page_start: 1,
            page_end: 2,
            level: 1,
            ..leaf(9, 1)
        };
        let err = check_invariants(&[leaf(1, 1), leaf(2, 1), root], 2).expect_err("page 1 twice");
        assert!(err.contains("page 1 is covered 2 times"), "{err}");
    }
}
