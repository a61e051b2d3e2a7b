//! The searches a remote store sends, as requests the server runs.

use qdrant_client::qdrant::{
    PrefetchQueryBuilder, Query, QueryBatchPoints, QueryBatchPointsBuilder, QueryPointsBuilder,
    RrfBuilder, SearchParamsBuilder, VectorInput,
};

use super::filter::candidates_filter;
use super::point::dense_input;
use crate::store::{
    Candidates, DenseLayout, Fusion, QueryVectors, StoreError, DENSE_VECTOR, SPARSE_VECTOR,
};

/// A dense and a sparse search over `candidates`, each returning up to `limit` matches
/// with their similarities: exact, or through the indexes.
pub(super) fn similarities_request(
    collection: &str,
    query: &QueryVectors,
    layout: DenseLayout,
    candidates: &Candidates,
    limit: usize,
    exact: bool,
) -> Result<QueryBatchPoints, StoreError> {
    let filter = candidates_filter(candidates);
    let limit = u64::try_from(limit.max(1))
        .map_err(|_| StoreError::Engine(format!("bad limit {limit}")))?;
    let search = |input: VectorInput, using: &str| {
        QueryPointsBuilder::new(collection)
            .query(Query::new_nearest(input))
            .using(using)
            .filter(filter.clone())
            .params(SearchParamsBuilder::default().exact(exact))
            .limit(limit)
            .with_payload(false)
            .build()
    };
    Ok(QueryBatchPointsBuilder::new(
        collection,
        vec![
            search(dense_input(query, layout), DENSE_VECTOR),
            search(
                VectorInput::new_sparse(query.sparse.indices.clone(), query.sparse.values.clone()),
                SPARSE_VECTOR,
            ),
        ],
    )
    .build())
}

/// The query the embedded store runs, in the server's terms: a dense and a sparse
/// prefetch over the same candidates, fused by weighted RRF with an explicit `k`.
pub(super) fn hybrid_request(
    collection: &str,
    query: &QueryVectors,
    layout: DenseLayout,
    candidates: &Candidates,
    limit: usize,
    fusion: Fusion,
) -> Result<qdrant_client::qdrant::QueryPoints, StoreError> {
    let filter = candidates_filter(candidates);
    let prefetch_limit = candidates.prefetch_limit(limit);
    let as_u64 =
        |n: usize| u64::try_from(n).map_err(|_| StoreError::Engine(format!("bad limit {n}")));
    let rrf_k = u32::try_from(fusion.rrf_k)
        .map_err(|_| StoreError::Engine(format!("bad RRF k {}", fusion.rrf_k)))?;
    Ok(QueryPointsBuilder::new(collection)
        .add_prefetch(
            PrefetchQueryBuilder::default()
                .query(Query::new_nearest(dense_input(query, layout)))
                .using(DENSE_VECTOR)
                .filter(filter.clone())
                .limit(as_u64(prefetch_limit)?),
        )
        .add_prefetch(
            PrefetchQueryBuilder::default()
                .query(Query::new_nearest(VectorInput::new_sparse(
                    query.sparse.indices.clone(),
                    query.sparse.values.clone(),
                )))
                .using(SPARSE_VECTOR)
                .filter(filter)
                .limit(as_u64(prefetch_limit)?),
        )
        .query(Query::new_rrf(
            RrfBuilder::with_k(rrf_k).weights(vec![fusion.dense_weight, fusion.sparse_weight]),
        ))
        .limit(as_u64(candidates.fused_limit(limit))?)
        .with_payload(false)
        .build())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Sparse;

    #[test]
    fn the_hybrid_query_fuses_two_prefetches_with_our_k_and_weights() {
        let query = QueryVectors {
            dense: vec![0.1, 0.2],
            sparse: Sparse {
                indices: vec![4],
                values: vec![1.0],
            },
        };
        let fusion = Fusion::rrf(2, 0.7, 0.3);
        let request = hybrid_request(
            "c",
            &query,
            DenseLayout::Windows,
            &Candidates::Ids(vec![1, 2, 3]),
            2,
            fusion,
        )
        .expect("request");
        assert_eq!(request.prefetch.len(), 2);
        assert_eq!(
            request
                .prefetch
                .iter()
                .map(|p| (p.using.clone(), p.limit))
                .collect::<Vec<_>>(),
            [
                (Some(DENSE_VECTOR.to_string()), Some(3)),
                (Some(SPARSE_VECTOR.to_string()), Some(3))
            ]
        );
        // Every fused point comes back; the store itself cuts at 2 (ties in order).
        assert_eq!(request.limit, Some(6));
        let rrf = match request.query.and_then(|q| q.variant) {
            Some(qdrant_client::qdrant::query::Variant::Rrf(rrf)) => rrf,
            other => panic!("an RRF query, not {other:?}"),
        };
        assert_eq!(rrf.k, Some(2));
        assert_eq!(rrf.weights, [0.7, 0.3]);
    }
}
