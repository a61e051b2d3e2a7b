//! A node as the embedded engine stores it, and a query as it compares one.

use std::collections::HashMap;

use qdrant_edge::{
    PointId, SparseVector, TypedMultiDenseVector, VectorInternal, VectorPersisted,
    VectorStructPersisted,
};

use crate::store::schema::{self, DENSE_VECTOR, SPARSE_VECTOR};
use crate::store::{DenseLayout, IndexedNode, QueryVectors, Sparse, StoreError};
use crate::tree::Node;

/// The query's vectors as the index compares them: against windows, the query is a
/// multivector of one, so that MaxSim gives its similarity to the best window.
pub(super) fn query_vectors(
    query: &QueryVectors,
    layout: DenseLayout,
) -> Result<(VectorInternal, VectorInternal), StoreError> {
    let dense = match layout {
        DenseLayout::Single => VectorInternal::from(query.dense.clone()),
        DenseLayout::Windows => VectorInternal::from(
            TypedMultiDenseVector::<f32>::try_from_flatten(query.dense.clone(), query.dense.len())
                .map_err(|err| StoreError::Engine(format!("bad query vector: {err}")))?,
        ),
    };
    Ok((
        dense,
        VectorInternal::from(SparseVector {
            indices: query.sparse.indices.clone(),
            values: query.sparse.values.clone(),
        }),
    ))
}

pub(super) fn to_point(
    indexed: &IndexedNode,
    layout: DenseLayout,
) -> Result<qdrant_edge::PointStructPersisted, StoreError> {
    let payload = qdrant_edge::Payload(schema::to_payload(&indexed.node)?);
    let sparse = SparseVector::new(
        indexed.sparse.indices.clone(),
        indexed.sparse.values.clone(),
    )
    .map_err(|err| StoreError::Engine(format!("bad sparse vector: {err}")))?;
    let vectors = HashMap::from([
        (
            DENSE_VECTOR.to_string(),
            match layout {
                DenseLayout::Single => VectorPersisted::Dense(indexed.first_window().to_vec()),
                DenseLayout::Windows => VectorPersisted::MultiDense(indexed.dense.clone()),
            },
        ),
        (SPARSE_VECTOR.to_string(), VectorPersisted::Sparse(sparse)),
    ]);
    Ok(qdrant_edge::PointStructPersisted {
        id: PointId::NumId(indexed.node.id),
        vector: VectorStructPersisted::Named(vectors),
        payload: Some(payload),
    })
}

pub(super) fn payload_to_node(payload: Option<qdrant_edge::Payload>) -> Result<Node, StoreError> {
    schema::from_payload(payload.map(|payload| payload.0).unwrap_or_default())
}

/// A stored point's dense windows (one for an index made before windows; none when
/// they were not asked for) and its sparse vector.
pub(super) fn point_vectors(
    vectors: Option<qdrant_edge::VectorStructInternal>,
) -> (Vec<Vec<f32>>, Sparse) {
    let Some(qdrant_edge::VectorStructInternal::Named(mut vectors)) = vectors else {
        return (Vec::new(), Sparse::default());
    };
    let dense = match vectors.remove(DENSE_VECTOR) {
        Some(VectorInternal::Dense(dense)) => vec![dense],
        Some(VectorInternal::MultiDense(windows)) => {
            windows.multi_vectors().map(<[f32]>::to_vec).collect()
        }
        _ => Vec::new(),
    };
    let sparse = match vectors.remove(SPARSE_VECTOR) {
        Some(VectorInternal::Sparse(sparse)) => Sparse::from(sparse),
        _ => Sparse::default(),
    };
    (dense, sparse)
}

pub(super) fn numeric_id(id: PointId) -> Result<u64, StoreError> {
    match id {
        PointId::NumId(id) => Ok(id),
        other => Err(StoreError::BadPayload(format!(
            "unexpected point id {other}"
        ))),
    }
}
