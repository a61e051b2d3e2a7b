//! Node payloads read by earlier searches, kept for the next ones: every search starts
//! at the same roots and upper sections. Node ids are never reused (documents get
//! AUTOINCREMENT ids and a node's payload is written once), so nothing here goes stale.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::tree::Node;

/// Enough for every node of a library of about 200k nodes; a larger library starts
/// the cache over when it fills, which costs one search a few more reads.
pub(crate) const DEFAULT_CAPACITY: usize = 200_000;

pub struct NodeCache {
    nodes: Mutex<HashMap<u64, Node>>,
    capacity: usize,
}

impl NodeCache {
    pub fn new(capacity: usize) -> Self {
        Self {
            nodes: Mutex::new(HashMap::new()),
            capacity,
        }
    }

    /// The cached nodes among `ids`, and the ids that are not cached.
    pub fn split(&self, ids: &[u64]) -> (Vec<Node>, Vec<u64>) {
        let nodes = self.nodes.lock().unwrap_or_else(|p| p.into_inner());
        let mut found = Vec::new();
        let mut missing = Vec::new();
        for id in ids {
            match nodes.get(id) {
                Some(node) => found.push(node.clone()),
                None => missing.push(*id),
            }
        }
        (found, missing)
    }

    pub fn insert(&self, read: &[Node]) {
        let mut nodes = self.nodes.lock().unwrap_or_else(|p| p.into_inner());
        if nodes.len() + read.len() > self.capacity {
            nodes.clear();
        }
        for node in read {
            nodes.insert(node.id, node.clone());
        }
    }

    pub fn len(&self) -> usize {
        self.nodes.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for NodeCache {
    fn default() -> Self {
        Self::new(DEFAULT_CAPACITY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::lone_page;

    #[test]
    fn cached_nodes_come_back_and_the_rest_are_named() {
        let cache = NodeCache::new(10);
        cache.insert(&[lone_page(1), lone_page(2)]);
        let (found, missing) = cache.split(&[2, 3, 1]);
        assert_eq!(found.iter().map(|n| n.id).collect::<Vec<_>>(), [2, 1]);
        assert_eq!(missing, [3]);
    }

    #[test]
    fn a_full_cache_starts_over() {
        let cache = NodeCache::new(3);
        cache.insert(&[lone_page(1), lone_page(2), lone_page(3)]);
        cache.insert(&[lone_page(4)]);
        assert_eq!(cache.len(), 1);
        assert_eq!(cache.split(&[4]).1, Vec::<u64>::new());
    }
}
