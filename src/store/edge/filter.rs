//! Which points a search or a deletion may touch, in the embedded engine's terms.

use ahash::AHashSet;
use qdrant_edge::{
    Condition, FieldCondition, Filter, HasIdCondition, Match, PointId, ValueVariants,
};

use crate::store::schema::{self, Selection};
use crate::store::{Candidates, StoreError};

pub(super) fn candidates_filter(candidates: &Candidates) -> Result<Filter, StoreError> {
    filter(Selection::of(candidates))
}

pub(super) fn doc_filter(doc_id: i64) -> Result<Filter, StoreError> {
    filter(Selection::document(doc_id))
}

fn filter(selection: Selection) -> Result<Filter, StoreError> {
    let conditions = |list: Vec<schema::Condition>| -> Result<_, StoreError> {
        let list = list
            .into_iter()
            .map(condition)
            .collect::<Result<Vec<_>, _>>()?;
        Ok((!list.is_empty()).then_some(list))
    };
    Ok(Filter {
        must: conditions(selection.must)?,
        should: conditions(selection.should)?,
        min_should: None,
        must_not: None,
    })
}

fn condition(condition: schema::Condition) -> Result<Condition, StoreError> {
    Ok(match condition {
        schema::Condition::HasId(ids) => {
            let set: AHashSet<PointId> = ids.into_iter().map(PointId::NumId).collect();
            Condition::HasId(HasIdCondition::from(set))
        }
        schema::Condition::Is(name, value) => Condition::Field(FieldCondition::new_match(
            field(name)?,
            Match::new_value(ValueVariants::Integer(value)),
        )),
        schema::Condition::In(name, values) => Condition::Field(FieldCondition::new_match(
            field(name)?,
            Match::new_any(qdrant_edge::AnyVariants::Integers(
                values.into_iter().collect(),
            )),
        )),
    })
}

pub(super) fn field(name: &str) -> Result<qdrant_edge::JsonPath, StoreError> {
    name.try_into()
        .map_err(|_| StoreError::Engine(format!("bad field name {name}")))
}
