//! A node as the server stores it, and a query's dense vector as it compares one.

use std::collections::HashMap;

use qdrant_client::qdrant::vector_output::Vector as OutputVector;
use qdrant_client::qdrant::{
    point_id::PointIdOptions, NamedVectors, PointId, PointStruct, RetrievedPoint, Value,
    VectorInput, VectorsOutput,
};
use qdrant_client::Payload;

use crate::store::schema;
use crate::store::{
    DenseLayout, IndexedNode, QueryVectors, Sparse, StoreError, DENSE_VECTOR, SPARSE_VECTOR,
};
use crate::tree::Node;

/// The query's dense vector as the collection compares it: against windows, a
/// multivector of one, so that MaxSim gives its similarity to the best window.
pub(super) fn dense_input(query: &QueryVectors, layout: DenseLayout) -> VectorInput {
    match layout {
        DenseLayout::Single => VectorInput::new_dense(query.dense.clone()),
        DenseLayout::Windows => VectorInput::new_multi(vec![query.dense.clone()]),
    }
}

pub(super) fn to_point(
    indexed: &IndexedNode,
    layout: DenseLayout,
) -> Result<PointStruct, StoreError> {
    let payload = Payload::from(schema::to_payload(&indexed.node)?);
    let vectors = NamedVectors::default()
        .add_vector(
            DENSE_VECTOR,
            match layout {
                DenseLayout::Single => {
                    qdrant_client::qdrant::Vector::new_dense(indexed.first_window().to_vec())
                }
                DenseLayout::Windows => {
                    qdrant_client::qdrant::Vector::new_multi(indexed.dense.clone())
                }
            },
        )
        .add_vector(
            SPARSE_VECTOR,
            qdrant_client::qdrant::Vector::new_sparse(
                indexed.sparse.indices.clone(),
                indexed.sparse.values.clone(),
            ),
        );
    Ok(PointStruct::new(indexed.node.id, vectors, payload))
}

pub(super) fn payload_to_node(payload: HashMap<String, Value>) -> Result<Node, StoreError> {
    match serde_json::Value::from(Payload::from(payload)) {
        serde_json::Value::Object(map) => schema::from_payload(map),
        _ => Err(StoreError::BadPayload(
            "a point's payload is not an object".into(),
        )),
    }
}

pub(super) fn retrieved_to_indexed(point: RetrievedPoint) -> Result<IndexedNode, StoreError> {
    let (dense, sparse) = point
        .vectors
        .as_ref()
        .map(split_vectors)
        .unwrap_or_default();
    Ok(IndexedNode {
        node: payload_to_node(point.payload)?,
        dense,
        sparse,
    })
}

pub(super) fn split_vectors(vectors: &VectorsOutput) -> (Vec<Vec<f32>>, Sparse) {
    let dense = match vectors.get_vector_by_name(DENSE_VECTOR) {
        Some(OutputVector::Dense(dense)) => vec![dense.data],
        Some(OutputVector::MultiDense(windows)) => windows
            .vectors
            .into_iter()
            .map(|window| window.data)
            .collect(),
        _ => Vec::new(),
    };
    let sparse = match vectors.get_vector_by_name(SPARSE_VECTOR) {
        Some(OutputVector::Sparse(sparse)) => Sparse {
            indices: sparse.indices,
            values: sparse.values,
        },
        _ => Sparse::default(),
    };
    (dense, sparse)
}

pub(super) fn numeric_id(id: Option<PointId>) -> Result<u64, StoreError> {
    match id.and_then(|id| id.point_id_options) {
        Some(PointIdOptions::Num(id)) => Ok(id),
        Some(PointIdOptions::Uuid(uuid)) => Err(StoreError::BadPayload(format!(
            "unexpected point id {uuid}: this collection was not written by PageTree"
        ))),
        None => Err(StoreError::BadPayload("a point has no id".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::ROOT_PARENT;

    fn sample_node() -> Node {
        Node {
            id: crate::tree::node_id(7, 3),
            doc_id: 7,
            file_name: "3M_2018_10K.pdf".into(),
            parent_id: ROOT_PARENT,
            child_ids: vec![crate::tree::node_id(7, 0), crate::tree::node_id(7, 1)],
            level: 1,
            page_start: 1,
            page_end: 2,
            description: "Capital expenditure — «Отчёт» 2018".into(),
            keywords: vec!["capex".into(), "3m".into()],
            title: Some("Capital expenditure".into()),
            card: Some(crate::card::DocumentCard {
                organization: Some("3M Company".into()),
                kind: Some(crate::card::DocumentKind::AnnualReport),
                fiscal_year: Some(2018),
                ..crate::card::DocumentCard::default()
            }),
        }
    }

    fn indexed(node: Node) -> IndexedNode {
        IndexedNode {
            node,
            dense: vec![vec![0.25, -0.5, 1.0], vec![1.0, 0.0, 0.0]],
            sparse: Sparse {
                indices: vec![3, 99],
                values: vec![1.5, 0.5],
            },
        }
    }

    #[test]
    fn a_node_survives_the_trip_through_a_point() {
        let node = sample_node();
        let point = to_point(&indexed(node.clone()), DenseLayout::Windows).expect("point");
        assert_eq!(numeric_id(point.id.clone()).expect("id"), node.id);
        assert_eq!(payload_to_node(point.payload).expect("node"), node);
    }

    #[test]
    fn both_vectors_are_written_under_their_names() {
        let point = to_point(&indexed(sample_node()), DenseLayout::Windows).expect("point");
        let Some(qdrant_client::qdrant::vectors::VectorsOptions::Vectors(named)) =
            point.vectors.and_then(|v| v.vectors_options)
        else {
            panic!("named vectors");
        };
        let mut names: Vec<&str> = named.vectors.keys().map(String::as_str).collect();
        names.sort_unstable();
        assert_eq!(names, [DENSE_VECTOR, SPARSE_VECTOR]);
    }

    #[test]
    fn windows_are_written_as_a_multivector_or_as_the_first_window_alone() {
        let dense_of = |layout| {
            let point = to_point(&indexed(sample_node()), layout).expect("point");
            let Some(qdrant_client::qdrant::vectors::VectorsOptions::Vectors(mut named)) =
                point.vectors.and_then(|v| v.vectors_options)
            else {
                panic!("named vectors");
            };
            named.vectors.remove(DENSE_VECTOR).expect("dense").vector
        };
        use qdrant_client::qdrant::vector::Vector as InputVector;
        match dense_of(DenseLayout::Windows) {
            Some(InputVector::MultiDense(windows)) => assert_eq!(windows.vectors.len(), 2),
            other => panic!("a multivector, not {other:?}"),
        }
        match dense_of(DenseLayout::Single) {
            Some(InputVector::Dense(first)) => assert_eq!(first.data, [0.25, -0.5, 1.0]),
            other => panic!("a dense vector, not {other:?}"),
        }
        let query = QueryVectors {
            dense: vec![0.1, 0.2],
            sparse: Sparse::default(),
        };
        let variant = |layout| dense_input(&query, layout).variant;
        assert!(matches!(
            variant(DenseLayout::Windows),
            Some(qdrant_client::qdrant::vector_input::Variant::MultiDense(_))
        ));
        assert!(matches!(
            variant(DenseLayout::Single),
            Some(qdrant_client::qdrant::vector_input::Variant::Dense(_))
        ));
    }

    #[test]
    fn a_point_without_payload_is_reported() {
        let err = payload_to_node(HashMap::new()).unwrap_err();
        assert!(err.to_string().contains("no payload"), "{err}");
    }

    #[test]
    fn a_uuid_point_is_not_taken_for_a_node() {
        let id = PointId::from("4f1c6a3e-0000-4000-8000-000000000000".to_string());
        assert!(numeric_id(Some(id)).is_err());
    }
}
