//! The embedded store keeps the promises every store makes (see `common::contract`).

mod common;

use common::contract::{
    assert_local_fusion_matches_the_engine, assert_rankings_are_stable_and_filters_agree, fill,
    DIMENSION,
};
use pagetree::store::edge::EdgeStore;
use pagetree::store::VectorStore;

#[tokio::test]
async fn the_embedded_engine_keeps_the_store_contract_before_and_after_optimize() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = EdgeStore::open(dir.path(), DIMENSION).expect("store");
    let points = fill(&store, 3).await;
    assert_local_fusion_matches_the_engine(&store, &points).await;
    assert_rankings_are_stable_and_filters_agree(&store, &points).await;
    // Once optimized (an HNSW graph, the exact search must not go through it).
    store.optimize().await.expect("optimize");
    assert_local_fusion_matches_the_engine(&store, &points).await;
    assert_rankings_are_stable_and_filters_agree(&store, &points).await;
}
