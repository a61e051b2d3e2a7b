//! What a stored point is, whichever engine holds it: the vectors' names, the payload
//! fields searches filter on, which nodes each kind of [`Candidates`] selects, and how a
//! node becomes a payload and back. Each store translates these into its engine's
//! types; keeping them here is what lets the embedded store and a server answer alike.

use serde_json::{Map, Value};

use super::{Candidates, StoreError};
use crate::tree::{Node, ROOT_PARENT};

pub const DENSE_VECTOR: &str = "dense";
pub const SPARSE_VECTOR: &str = "sparse";

pub(crate) const DOC_ID: &str = "doc_id";
pub(crate) const PARENT_ID: &str = "parent_id";
pub(crate) const LEVEL: &str = "level";

/// The payload fields searches filter on; each is only ever matched by value.
pub(crate) const INDEXED_FIELDS: [&str; 3] = [PARENT_ID, DOC_ID, LEVEL];
/// Indexed by earlier versions and never filtered on: a node's id is its point id, so
/// id filters go through the engine's point-id condition instead.
pub(crate) const RETIRED_FIELDS: [&str; 1] = ["id"];

/// Above any tree's height: parents and roots are the nodes with a level in
/// `1..=MAX_LEVEL`. A match on a list of values, not a range, since the level index
/// is built for lookups only (see the embedded store's field indexes).
pub(crate) const MAX_LEVEL: i64 = 64;

/// One condition on a point, in no engine's terms.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Condition {
    /// The point id is one of these node ids.
    HasId(Vec<u64>),
    /// The integer field has this value.
    Is(&'static str, i64),
    /// The integer field has one of these values.
    In(&'static str, Vec<i64>),
}

/// Which points pass: all of `must`, and at least one of `should` when there is any.
/// Empty means every point.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Selection {
    pub must: Vec<Condition>,
    pub should: Vec<Condition>,
}

impl Selection {
    fn must(conditions: Vec<Condition>) -> Self {
        Self {
            must: conditions,
            should: Vec::new(),
        }
    }

    /// The points `candidates` allows.
    pub fn of(candidates: &Candidates) -> Self {
        match candidates {
            Candidates::Ids(ids) | Candidates::BestOf(ids) => {
                Self::must(vec![Condition::HasId(ids.clone())])
            }
            Candidates::LeavesOf(doc_ids) => Self::must(vec![documents(doc_ids), leaves()]),
            Candidates::AllLeaves => Self::must(vec![leaves()]),
            Candidates::NodesOf(doc_ids) => Self::must(vec![documents(doc_ids)]),
            Candidates::AllNodes => Self::default(),
            Candidates::AllRoots => Self::must(vec![roots()]),
            // A one-page document's root is its only page, at level 0.
            Candidates::Sections(doc_ids) => Self {
                must: vec![documents(doc_ids)],
                should: vec![Condition::In(LEVEL, (1..=MAX_LEVEL).collect()), roots()],
            },
        }
    }

    /// Every point of one document.
    pub fn document(doc_id: i64) -> Self {
        Self::must(vec![Condition::Is(DOC_ID, doc_id)])
    }
}

/// Leaves are the nodes nobody lists as a parent, which the tree builder gives level 0.
fn leaves() -> Condition {
    Condition::Is(LEVEL, 0)
}

fn roots() -> Condition {
    Condition::Is(PARENT_ID, ROOT_PARENT)
}

fn documents(doc_ids: &[i64]) -> Condition {
    Condition::In(DOC_ID, doc_ids.to_vec())
}

/// A node as a point's payload: its fields as a JSON object.
pub(crate) fn to_payload(node: &Node) -> Result<Map<String, Value>, StoreError> {
    match serde_json::to_value(node) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(StoreError::BadPayload("a node is not a JSON object".into())),
        Err(err) => Err(StoreError::BadPayload(err.to_string())),
    }
}

/// The node a point's payload holds.
pub(crate) fn from_payload(payload: Map<String, Value>) -> Result<Node, StoreError> {
    if payload.is_empty() {
        return Err(StoreError::BadPayload("a point has no payload".into()));
    }
    serde_json::from_value(Value::Object(payload))
        .map_err(|err| StoreError::BadPayload(err.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_survives_the_trip_through_a_payload() {
        let node = crate::tree::lone_page(7);
        let payload = to_payload(&node).expect("payload");
        for field in INDEXED_FIELDS {
            assert!(payload[field].is_i64(), "{field} is an integer field");
        }
        assert_eq!(from_payload(payload).expect("node"), node);
    }

    #[test]
    fn a_point_without_payload_is_reported() {
        let err = from_payload(Map::new()).unwrap_err();
        assert!(err.to_string().contains("no payload"), "{err}");
    }

    #[test]
    fn no_search_filters_on_a_retired_field() {
        let every_kind = [
            Candidates::Ids(vec![1]),
            Candidates::BestOf(vec![1]),
            Candidates::LeavesOf(vec![1]),
            Candidates::Sections(vec![1]),
            Candidates::AllRoots,
            Candidates::AllLeaves,
            Candidates::NodesOf(vec![1]),
            Candidates::AllNodes,
        ];
        let selections = every_kind
            .iter()
            .map(Selection::of)
            .chain([Selection::document(1)]);
        for selection in selections {
            for condition in selection.must.iter().chain(&selection.should) {
                if let Condition::Is(field, _) | Condition::In(field, _) = condition {
                    assert!(INDEXED_FIELDS.contains(field), "{field} is not indexed");
                }
            }
        }
    }

    #[test]
    fn sections_are_parents_or_roots_of_the_given_documents() {
        let selection = Selection::of(&Candidates::Sections(vec![5]));
        assert_eq!(selection.must, [Condition::In(DOC_ID, vec![5])]);
        assert_eq!(
            selection.should,
            [
                Condition::In(LEVEL, (1..=MAX_LEVEL).collect()),
                Condition::Is(PARENT_ID, ROOT_PARENT)
            ]
        );
    }
}
