//! Checks every store must pass, whatever engine is behind it.

use pagetree::store::{
    fusion, Candidates, DenseLayout, Fusion, FusionMethod, IndexedNode, VectorStore,
};
use pagetree::synthetic::Generator;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

pub const DIMENSION: usize = 64;

/// Writes three synthetic documents into `store` and returns their points. Sparse
/// weights are made continuous (BM25 weights are; raw term counts tie all the time),
/// so that no two nodes share a similarity and every ranking has one right order.
pub async fn fill(store: &dyn VectorStore, seed: u64) -> Vec<IndexedNode> {
    let mut generator = Generator::new(seed, DIMENSION).expect("generator");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut points = Vec::new();
    for (doc, pages) in [(1, 40), (2, 17), (3, 90)] {
        let mut nodes = generator.document(doc, "contract.pdf", pages);
        for node in &mut nodes {
            for value in &mut node.sparse.values {
                *value *= rng.random_range(0.5..1.5);
            }
            // Some pages are long: embedded in several windows, found by the best one.
            if node.node.level == 0 && node.node.id % 3 == 0 {
                node.dense.push(generator.unit_vector());
                node.dense.push(generator.unit_vector());
            }
        }
        points.extend(nodes.clone());
        store.upsert(nodes).await.expect("upsert");
    }
    store.flush().await.expect("flush");
    points
}

/// `fusion::fuse` over `raw_scores` must give exactly what the store's own fused query
/// gives for the same candidates (ids, order and scores), and the raw dense similarity
/// must be the exact cosine, for candidate sets of every size and several fusions.
/// A server fuses by RRF itself; the embedded store's `hybrid_scores` is our fusion
/// too, so for it this checks the two ways of asking agree, and the store's unit tests
/// (`store::edge`) compare our fusion with the engine's own fused query.
pub async fn assert_local_fusion_matches_the_engine(
    store: &dyn VectorStore,
    points: &[IndexedNode],
) {
    let mut generator = Generator::new(99, DIMENSION).expect("generator");
    let mut rng = StdRng::seed_from_u64(5);
    let fusions = [
        Fusion::rrf(2, 1.0, 1.0),
        Fusion::rrf(60, 1.0, 1.0),
        Fusion::rrf(2, 2.0, 0.5),
        Fusion::rrf(5, 0.0, 1.0),
        Fusion::rrf(2, 1.0, 1.0).with_method(FusionMethod::Dbsf),
        Fusion::rrf(2, 0.7, 0.3).with_method(FusionMethod::MinMax),
    ];
    for round in 0..12 {
        let query = generator.query();
        let size = [1, 5, 40, points.len()][round % 4];
        let mut ids: Vec<u64> = points.iter().map(|p| p.node.id).collect();
        ids.shuffle(&mut rng);
        ids.truncate(size);
        // An id nobody stored is simply absent from both.
        ids.push(u64::MAX / 2);

        let raw = store.raw_scores(&query, &ids).await.expect("raw scores");
        assert_eq!(raw.len(), size, "every stored candidate is scored");
        assert!(raw.windows(2).all(|w| w[0].id < w[1].id), "id order");
        for scores in &raw {
            let point = points
                .iter()
                .find(|p| p.node.id == scores.id)
                .expect("a point");
            let windows = match store.dense_layout() {
                DenseLayout::Windows => point.dense.len(),
                DenseLayout::Single => 1,
            };
            let cosine: f32 = point.dense[..windows]
                .iter()
                .map(|window| window.iter().zip(&query.dense).map(|(a, b)| a * b).sum())
                .fold(f32::MIN, f32::max);
            assert!(
                (scores.dense - cosine).abs() < 1e-4,
                "node {}: dense {} against the best window's exact cosine {cosine}",
                scores.id,
                scores.dense
            );
            let shares_a_term = point
                .sparse
                .indices
                .iter()
                .any(|i| query.sparse.indices.contains(i));
            assert_eq!(scores.sparse.is_some(), shares_a_term, "node {}", scores.id);
        }

        for fusion in fusions {
            let engine = store
                .hybrid_scores(&query, &Candidates::Ids(ids.clone()), ids.len(), fusion)
                .await
                .expect("hybrid scores");
            let local = fusion::fuse(&raw, fusion);
            assert_eq!(
                local, engine,
                "round {round}, {fusion:?}, {size} candidates"
            );
        }
    }
}

/// A cut ranking is the same on every call (the engine cuts equal fused scores in no
/// fixed order), the filters for the whole store select what the per-document ones do,
/// and a cut raw-scores answer says so by its length.
pub async fn assert_rankings_are_stable_and_filters_agree(
    store: &dyn VectorStore,
    points: &[IndexedNode],
) {
    let mut generator = Generator::new(7, DIMENSION).expect("generator");
    let fusion = Fusion::rrf(2, 1.0, 1.0);
    let documents = vec![1, 2, 3];
    let roots: Vec<u64> = points
        .iter()
        .filter(|p| p.node.parent_id == pagetree::tree::ROOT_PARENT)
        .map(|p| p.node.id)
        .collect();
    assert_eq!(roots.len(), documents.len());
    for _ in 0..6 {
        let query = generator.query();
        for k in [3, 5, 8] {
            let by_document = Candidates::LeavesOf(documents.clone());
            let first = store
                .hybrid_scores(&query, &by_document, k, fusion)
                .await
                .expect("ranking");
            assert_eq!(first.len(), k);
            for _ in 0..10 {
                let again = store
                    .hybrid_scores(&query, &by_document, k, fusion)
                    .await
                    .expect("ranking");
                assert_eq!(again, first, "top {k} changed between calls");
            }
            let all = store
                .hybrid_scores(&query, &Candidates::AllLeaves, k, fusion)
                .await
                .expect("ranking");
            assert_eq!(all, first, "every page is every document's page");
        }
        let every_root = store
            .raw_scores_of(&query, &Candidates::AllRoots, roots.len() + 1)
            .await
            .expect("roots");
        let by_id = store.raw_scores(&query, &roots).await.expect("roots");
        assert_eq!(every_root, by_id);
        let cut = store
            .raw_scores_of(&query, &Candidates::AllRoots, roots.len() - 1)
            .await
            .expect("roots");
        assert_eq!(cut.len(), roots.len() - 1, "a cut answer is full");
    }
}
