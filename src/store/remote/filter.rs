//! Which points a search or a deletion may touch, in the server's terms.

use qdrant_client::qdrant::{Condition, Filter, PointId};

use crate::store::schema::{self, Selection};
use crate::store::Candidates;

pub(super) fn candidates_filter(candidates: &Candidates) -> Filter {
    filter(Selection::of(candidates))
}

pub(super) fn document_filter(doc_id: i64) -> Filter {
    filter(Selection::document(doc_id))
}

pub(super) fn filter(selection: Selection) -> Filter {
    Filter {
        must: selection.must.into_iter().map(condition).collect(),
        should: selection.should.into_iter().map(condition).collect(),
        ..Filter::default()
    }
}

pub(super) fn condition(condition: schema::Condition) -> Condition {
    match condition {
        schema::Condition::HasId(ids) => Condition::has_id(ids.into_iter().map(PointId::from)),
        schema::Condition::Is(field, value) => Condition::matches(field, value),
        schema::Condition::In(field, values) => Condition::matches(field, values),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::ROOT_PARENT;
    use qdrant_client::qdrant::{condition::ConditionOneOf, r#match::MatchValue};

    fn matched_fields(filter: &[Condition]) -> Vec<(String, MatchValue)> {
        filter
            .iter()
            .filter_map(|condition| match &condition.condition_one_of {
                Some(ConditionOneOf::Field(field)) => {
                    Some((field.key.clone(), field.r#match.clone()?.match_value?))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn leaves_are_level_zero_of_the_given_documents() {
        let filter = candidates_filter(&Candidates::LeavesOf(vec![1, 2]));
        let fields = matched_fields(&filter.must);
        assert!(fields.contains(&("doc_id".into(), MatchValue::from(vec![1_i64, 2]))));
        assert!(fields.contains(&("level".into(), MatchValue::from(0_i64))));
        assert!(filter.should.is_empty());
    }

    #[test]
    fn sections_are_parents_or_roots_of_the_given_documents() {
        let filter = candidates_filter(&Candidates::Sections(vec![5]));
        assert_eq!(
            matched_fields(&filter.must),
            [("doc_id".into(), MatchValue::from(vec![5_i64]))]
        );
        let should = matched_fields(&filter.should);
        assert!(should.contains(&("parent_id".into(), MatchValue::from(ROOT_PARENT))));
        assert!(should.iter().any(|(key, value)| key == schema::LEVEL
            && *value == MatchValue::from((1..=schema::MAX_LEVEL).collect::<Vec<i64>>())));
    }
}
