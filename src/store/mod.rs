//! Where the nodes' vectors live. The embedded engine (qdrant-edge) is the default; a
//! remote Qdrant server implements the same trait.

pub mod edge;
pub mod fusion;
pub mod location;
pub mod remote;
pub(crate) mod schema;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::tree::Node;

pub use schema::{DENSE_VECTOR, SPARSE_VECTOR};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("the vector index at {path} cannot be opened: {detail}")]
    Open { path: String, detail: String },
    #[error("this library was indexed with {stored}-dimensional vectors but the embedding model gives {model}; use the model the library was built with, or start a new library")]
    DimensionMismatch { stored: usize, model: usize },
    #[error("the vector index failed: {0}")]
    Engine(String),
    #[error("a stored point is not a PageTree node: {0}")]
    BadPayload(String),
    #[error("the Qdrant server at {url} cannot be reached ({detail}); check the address and that the server is running")]
    Unreachable { url: String, detail: String },
    #[error("the Qdrant server at {url} did not answer within {seconds} s ({attempts} tries); it may be overloaded, or raise the timeout")]
    Timeout {
        url: String,
        seconds: u64,
        attempts: u32,
    },
    #[error("the Qdrant server at {url} refused the request ({detail}); check its API key")]
    Refused { url: String, detail: String },
    #[error("the Qdrant server at {url} failed: {detail}")]
    Remote { url: String, detail: String },
    #[error(transparent)]
    Disk(#[from] crate::disk::NoRoom),
}

/// A sparse vector in our own terms, so callers need not know the engine's types.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Sparse {
    pub indices: Vec<u32>,
    pub values: Vec<f32>,
}

impl From<qdrant_edge::SparseVector> for Sparse {
    fn from(vector: qdrant_edge::SparseVector) -> Self {
        Self {
            indices: vector.indices,
            values: vector.values,
        }
    }
}

/// A node with the vectors it is found by.
#[derive(Debug, Clone)]
pub struct IndexedNode {
    pub node: Node,
    /// One vector per window of the node's text (see [`crate::embed::windows`]): a page
    /// longer than the model's window has several, a section one. The node's dense
    /// similarity is that of its best window (MaxSim). A store made before windows
    /// keeps the first only.
    pub dense: Vec<Vec<f32>>,
    pub sparse: Sparse,
}

impl IndexedNode {
    /// The first window's vector: all a single-vector store keeps.
    pub(crate) fn first_window(&self) -> &[f32] {
        self.dense.first().map(Vec::as_slice).unwrap_or(&[])
    }
}

/// How a store keeps a node's dense vectors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DenseLayout {
    /// One vector a node, its text's first window (libraries made before windows).
    Single,
    /// Every window of a node, compared with the query by the best one (MaxSim).
    Windows,
}

impl DenseLayout {
    /// The layout a new index needs to keep `windows` windows a page.
    pub(crate) fn for_windows(windows: usize) -> Self {
        if windows > 1 {
            Self::Windows
        } else {
            Self::Single
        }
    }
}

/// The query, embedded once per search.
#[derive(Debug, Clone)]
pub struct QueryVectors {
    pub dense: Vec<f32>,
    pub sparse: Sparse,
}

/// How the dense and the sparse ranking of the same candidates become one.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Fusion {
    /// Missing from JSON (settings and history written before there was a choice)
    /// means RRF, the only fusion there was.
    #[serde(default)]
    pub method: FusionMethod,
    /// RRF's `k`: `score = Σ w / (k + rank)`, ranks from 0. Unused by the other methods.
    pub rrf_k: usize,
    pub dense_weight: f32,
    pub sparse_weight: f32,
}

impl Fusion {
    /// Weighted RRF with this `k`.
    pub const fn rrf(rrf_k: usize, dense_weight: f32, sparse_weight: f32) -> Self {
        Self {
            method: FusionMethod::Rrf,
            rrf_k,
            dense_weight,
            sparse_weight,
        }
    }

    /// The same weights, fused by `method`.
    pub const fn with_method(self, method: FusionMethod) -> Self {
        Self {
            method,
            rrf_k: self.rrf_k,
            dense_weight: self.dense_weight,
            sparse_weight: self.sparse_weight,
        }
    }
}

/// How [`Fusion`] combines the two rankings (see [`fusion`] for the formulas).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum FusionMethod {
    /// Reciprocal rank fusion: only ranks count, so a curve of fused scores has nearly
    /// the same shape for every question.
    #[default]
    Rrf,
    /// Distribution-based score fusion (Qdrant's DBSF): each list's similarities are
    /// normalised by their mean ± 3 standard deviations, then summed with the weights.
    Dbsf,
    /// Each list's similarities scaled to [0, 1] by its minimum and maximum, then summed
    /// with the weights.
    MinMax,
}

impl FusionMethod {
    pub const ALL: [FusionMethod; 3] =
        [FusionMethod::Rrf, FusionMethod::Dbsf, FusionMethod::MinMax];

    /// The name the CLI, the settings and reports use.
    pub fn name(self) -> &'static str {
        match self {
            FusionMethod::Rrf => "rrf",
            FusionMethod::Dbsf => "dbsf",
            FusionMethod::MinMax => "min-max",
        }
    }
}

impl std::fmt::Display for FusionMethod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for FusionMethod {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|method| method.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| format!("unknown fusion \"{text}\": use rrf, dbsf or min-max"))
    }
}

/// Which points one scoring step may rank.
#[derive(Debug, Clone)]
pub enum Candidates {
    /// Exactly these node ids, every one ranked by both vectors.
    Ids(Vec<u64>),
    /// The best of these node ids: as for [`Candidates::LeavesOf`], each vector passes
    /// on only as many as the query asks for before the fusion.
    BestOf(Vec<u64>),
    /// Every page (leaf) of these documents.
    LeavesOf(Vec<i64>),
    /// Every section summary (parents and roots) of these documents.
    Sections(Vec<i64>),
    /// Every root in the store, whatever its document's state: for a search over the
    /// whole library, which drops the roots it does not search afterwards. A payload
    /// filter on `parent_id` costs the engine far less than thousands of ids, each
    /// looked up in every segment.
    AllRoots,
    /// Every page in the store, on the same terms as [`Candidates::AllRoots`].
    AllLeaves,
    /// Every node (pages, sections and roots) of these documents.
    NodesOf(Vec<i64>),
    /// Every node in the store, on the same terms as [`Candidates::AllRoots`].
    AllNodes,
}

impl Candidates {
    /// How many points each prefetch passes on to the fusion: all of an explicit id
    /// list (so that every candidate gets a fused score), else as many as are wanted.
    pub(crate) fn prefetch_limit(&self, limit: usize) -> usize {
        match self {
            Candidates::Ids(ids) => ids.len().max(1),
            Candidates::BestOf(_)
            | Candidates::LeavesOf(_)
            | Candidates::Sections(_)
            | Candidates::AllRoots
            | Candidates::AllLeaves
            | Candidates::NodesOf(_)
            | Candidates::AllNodes => limit.max(1),
        }
    }

    /// How many fused points to ask the engine for: every point either prefetch passes
    /// on. The engine cuts points of equal fused score in no fixed order (RRF ties
    /// whenever one node's dense rank is another's sparse rank), so a store takes them
    /// all, puts them in [`canonical_order`] and cuts at `limit` itself; else the same
    /// top-k search could return a different last page from one run to the next.
    pub(crate) fn fused_limit(&self, limit: usize) -> usize {
        2 * self.prefetch_limit(limit)
    }
}

/// How similar one node is to the query by each half of the hybrid score, before the
/// two rankings are fused.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RawScores {
    pub id: u64,
    /// Cosine similarity of the dense vectors.
    pub dense: f32,
    /// BM25 (IDF-weighted) score; none when the node shares no term with the query,
    /// since the engine leaves such a node out of the sparse ranking altogether.
    pub sparse: Option<f32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ScoredNode {
    pub id: u64,
    pub score: f32,
}

/// A document's points as [`VectorStore::document_points`] promises them: each with
/// its dense vector, in id order.
pub(crate) fn checked_points(mut points: Vec<IndexedNode>) -> Result<Vec<IndexedNode>, StoreError> {
    if points
        .iter()
        .any(|point| point.dense.is_empty() || point.dense.iter().any(Vec::is_empty))
    {
        return Err(StoreError::BadPayload("a point has no dense vector".into()));
    }
    points.sort_by_key(|point| point.node.id);
    Ok(points)
}

/// Best first, and equal scores by id, so that a ranking does not depend on how an
/// engine happens to order ties (which differs between the embedded store and a
/// server, and with the order the points were written in). Strategies that compare a
/// node with its children must see the same order on every store, so every store
/// returns its rankings in this order.
pub(crate) fn canonical_order(nodes: &mut [ScoredNode]) {
    nodes.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.id.cmp(&b.id)));
}

/// A fused ranking asked for with [`Candidates::fused_limit`], as `hybrid_scores`
/// promises it: in [`canonical_order`], the best `limit`.
pub(crate) fn best_of_fused(mut ranked: Vec<ScoredNode>, limit: usize) -> Vec<ScoredNode> {
    canonical_order(&mut ranked);
    ranked.truncate(limit);
    ranked
}

#[async_trait]
pub trait VectorStore: Send + Sync {
    /// Whether the store keeps every window of a node or its first only.
    fn dense_layout(&self) -> DenseLayout;
    async fn upsert(&self, nodes: Vec<IndexedNode>) -> Result<(), StoreError>;
    async fn delete_document(&self, doc_id: i64) -> Result<(), StoreError>;
    /// Every node of a document, in id order.
    async fn document_nodes(&self, doc_id: i64) -> Result<Vec<Node>, StoreError>;
    async fn nodes(&self, ids: &[u64]) -> Result<Vec<Node>, StoreError>;
    /// Every point of a document with both its vectors, in id order: to rebuild sparse
    /// vectors without embedding again, or to copy the document to another store.
    async fn document_points(&self, doc_id: i64) -> Result<Vec<IndexedNode>, StoreError>;
    async fn count(&self, doc_id: Option<i64>) -> Result<usize, StoreError>;
    /// Makes everything written so far durable.
    async fn flush(&self) -> Result<(), StoreError>;
    /// Builds search indexes after bulk writes.
    async fn optimize(&self) -> Result<(), StoreError>;
    /// One hybrid query: dense and sparse prefetches over `candidates`, fused by
    /// `fusion`, best first with ties in [`canonical_order`]. A store may run the two
    /// searches itself and fuse them with [`fusion::fuse_rankings`], which gives what the
    /// engine's RRF gives wherever two similarities do not tie.
    async fn hybrid_scores(
        &self,
        query: &QueryVectors,
        candidates: &Candidates,
        limit: usize,
        fusion: Fusion,
    ) -> Result<Vec<ScoredNode>, StoreError>;
    /// The query's similarity to each of `ids` by both vectors, computed exactly (never
    /// through the approximate index), in id order; ids not stored are left out. A
    /// search fuses any subset of these itself ([`fusion::fuse`] gives what
    /// `hybrid_scores` over that subset would), so a node is scored once per search and
    /// any number of rankings cost one store call.
    async fn raw_scores(
        &self,
        query: &QueryVectors,
        ids: &[u64],
    ) -> Result<Vec<RawScores>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        self.raw_scores_of(query, &Candidates::Ids(ids.to_vec()), ids.len())
            .await
    }
    /// As [`VectorStore::raw_scores`], for `candidates`, each vector's list cut at
    /// `limit`. Fewer than `limit` nodes back means every candidate was scored; exactly
    /// `limit` means some may be missing, and a node's sparse similarity may have been
    /// cut from its list, so the caller must not use such an answer.
    async fn raw_scores_of(
        &self,
        query: &QueryVectors,
        candidates: &Candidates,
        limit: usize,
    ) -> Result<Vec<RawScores>, StoreError> {
        let lists = self
            .similarity_lists(query, candidates, limit, true)
            .await?;
        Ok(join_similarities(lists.dense, lists.sparse))
    }
    /// The best `limit` of `candidates` by each vector on its own, with their
    /// similarities: computed exactly, or through the vectors' indexes (approximate,
    /// and far cheaper over a whole library).
    async fn similarity_lists(
        &self,
        query: &QueryVectors,
        candidates: &Candidates,
        limit: usize,
        exact: bool,
    ) -> Result<SimilarityLists, StoreError>;
}

/// One dense and one sparse ranking of the same candidates: (node id, similarity), each
/// node at most once per list. A node sharing no term with the query is in no sparse
/// list.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SimilarityLists {
    pub dense: Vec<(u64, f32)>,
    pub sparse: Vec<(u64, f32)>,
}

/// Joins a dense and a sparse similarity list (each id at most once) into raw scores in
/// id order. Points without a dense similarity are not nodes of ours and are left out.
pub(crate) fn join_similarities(dense: Vec<(u64, f32)>, sparse: Vec<(u64, f32)>) -> Vec<RawScores> {
    let sparse: std::collections::HashMap<u64, f32> = sparse.into_iter().collect();
    let mut joined: Vec<RawScores> = dense
        .into_iter()
        .map(|(id, dense)| RawScores {
            id,
            dense,
            sparse: sparse.get(&id).copied(),
        })
        .collect();
    joined.sort_by_key(|scores| scores.id);
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rankings_are_best_first_with_ties_by_id() {
        let mut ranked: Vec<ScoredNode> = [(9, 0.5), (3, 0.9), (7, 0.5), (1, 0.1)]
            .into_iter()
            .map(|(id, score)| ScoredNode { id, score })
            .collect();
        canonical_order(&mut ranked);
        let ids: Vec<u64> = ranked.iter().map(|n| n.id).collect();
        assert_eq!(ids, [3, 7, 9, 1]);
    }

    #[test]
    fn document_points_need_their_dense_vectors_and_come_in_id_order() {
        let point = |id: u64, dense: Vec<f32>| IndexedNode {
            node: crate::tree::lone_page(id),
            dense: vec![dense],
            sparse: Sparse::default(),
        };
        let sorted = checked_points(vec![point(2, vec![1.0]), point(1, vec![1.0])])
            .expect("complete points");
        assert_eq!(sorted.iter().map(|p| p.node.id).collect::<Vec<_>>(), [1, 2]);
        assert!(checked_points(vec![point(1, Vec::new())]).is_err());
    }
}
