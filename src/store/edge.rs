//! The embedded store: Qdrant's in-process engine (qdrant-edge), one folder per library.

mod config;
mod filter;
mod guard;
mod point;
mod wal;

use std::path::Path;
use std::sync::Arc;

use async_trait::async_trait;
use qdrant_edge::{
    EdgeOptimizersConfig, EdgeShard, Filter, NamedQuery, OperationError, PointId,
    PointInsertOperations, PointOperations, QueryEnum, QueryRequest, ScoringQuery, ScrollRequest,
    SearchParams, UpdateOperation, VectorInternal, WithPayloadInterface, WithVector,
};

use super::{
    Candidates, DenseLayout, Fusion, IndexedNode, QueryVectors, ScoredNode, SimilarityLists,
    StoreError, VectorStore, DENSE_VECTOR, SPARSE_VECTOR,
};
use crate::disk;
use crate::tree::Node;
use config::{ensure_field_indexes, new_index_config, remove_orphaned_temp_segments, SEGMENTS};
use filter::{candidates_filter, doc_filter};
use point::{numeric_id, payload_to_node, point_vectors, query_vectors, to_point};

const UPSERT_BATCH: usize = 256;
const SCROLL_PAGE: usize = 1_024;

pub struct EdgeStore {
    shard: Arc<guard::Shard>,
    layout: DenseLayout,
    /// The index folder, whose disk is checked for room before each write.
    path: std::path::PathBuf,
}

impl EdgeStore {
    /// Opens the index in `path`, creating it for `dimension`-sized dense vectors that
    /// keep every window of a node when the folder holds none yet.
    pub fn open(path: &Path, dimension: usize) -> Result<Self, StoreError> {
        Self::open_as(path, dimension, DenseLayout::Windows)
    }

    /// Opens the index in `path`, creating it in `new_layout` when the folder holds none
    /// yet; an existing index keeps the layout it was made with.
    pub(crate) fn open_as(
        path: &Path,
        dimension: usize,
        new_layout: DenseLayout,
    ) -> Result<Self, StoreError> {
        let open_error = |err: OperationError| StoreError::Open {
            path: path.display().to_string(),
            detail: err.to_string(),
        };
        disk::ensure_room(path, disk::ONE_WRITE, disk::Task::Open)?;
        std::fs::create_dir_all(path).map_err(|err| StoreError::Open {
            path: path.display().to_string(),
            detail: err.to_string(),
        })?;
        let fresh = !path.join("edge_config.json").exists();
        let shard = if fresh {
            EdgeShard::new(path, new_index_config(dimension, new_layout)).map_err(open_error)?
        } else {
            // Housekeeping only: a log that could not be trimmed still opens.
            if let Err(err) = wal::trim_write_ahead_log(path) {
                tracing::warn!(%err, "could not trim the index's write-ahead log");
            }
            remove_orphaned_temp_segments(path);
            EdgeShard::load(path, None).map_err(open_error)?
        };
        ensure_field_indexes(&shard)?;
        // Libraries made before this setting get it too; it is persisted once.
        let optimizers = shard.config().optimizers.clone();
        if optimizers.default_segment_number.is_none() {
            shard
                .set_optimizers_config(EdgeOptimizersConfig {
                    default_segment_number: Some(SEGMENTS),
                    ..optimizers
                })
                .map_err(open_error)?;
        }
        let dense_params = shard.config().vectors.get(DENSE_VECTOR).cloned();
        let stored = dense_params
            .as_ref()
            .map(|params| params.size)
            .unwrap_or(dimension);
        let layout = match dense_params.and_then(|params| params.multivector_config) {
            Some(_) => DenseLayout::Windows,
            None => DenseLayout::Single,
        };
        if stored != dimension {
            return Err(StoreError::DimensionMismatch {
                stored,
                model: dimension,
            });
        }
        Ok(Self {
            shard: Arc::new(guard::Shard::new(shard)),
            layout,
            path: path.to_path_buf(),
        })
    }

    async fn blocking<T, F>(&self, work: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&EdgeShard) -> Result<T, StoreError> + Send + 'static,
    {
        let shard = Arc::clone(&self.shard);
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || {
            guard::catch(|| work(&shard)).unwrap_or_else(|panic| Err(engine_panic(&path, panic)))
        })
        .await
        .map_err(|err| StoreError::Engine(format!("the index worker stopped: {err}")))?
    }

    /// The best `limit` points passing `filter` by each vector, the two searches run
    /// side by side: the engine runs a query's searches one after the other, each
    /// through every segment in turn, so on its own it keeps one core busy.
    async fn side_by_side(
        &self,
        query: &QueryVectors,
        filter: Filter,
        limit: usize,
        exact: bool,
    ) -> Result<(Vec<(u64, f32)>, Vec<(u64, f32)>), StoreError> {
        let (dense, sparse) = query_vectors(query, self.layout)?;
        let dense_filter = filter.clone();
        futures::try_join!(
            self.blocking(move |shard| {
                similarities(shard, dense, DENSE_VECTOR, limit, dense_filter, exact)
            }),
            self.blocking(move |shard| {
                similarities(shard, sparse, SPARSE_VECTOR, limit, filter, exact)
            }),
        )
    }

    /// The best `limit` points by each vector: side by side on blocking threads for a
    /// large call, on the calling thread for a small one.
    async fn similarities_of_both(
        &self,
        query: &QueryVectors,
        filter: Filter,
        limit: usize,
        exact: bool,
        side_by_side: bool,
    ) -> Result<(Vec<(u64, f32)>, Vec<(u64, f32)>), StoreError> {
        if side_by_side {
            return self.side_by_side(query, filter, limit, exact).await;
        }
        let (dense, sparse) = query_vectors(query, self.layout)?;
        // Handing a small call to a blocking thread cost about 50 us (criterion, 20
        // candidates), more than it saves.
        let dense = similarities(
            &self.shard,
            dense,
            DENSE_VECTOR,
            limit,
            filter.clone(),
            exact,
        )?;
        let sparse = similarities(&self.shard, sparse, SPARSE_VECTOR, limit, filter, exact)?;
        Ok((dense, sparse))
    }

    fn read_nodes(shard: &EdgeShard, ids: &[PointId]) -> Result<Vec<Node>, StoreError> {
        shard
            .retrieve(ids, Some(WithPayloadInterface::Bool(true)), None)
            .map_err(engine)?
            .into_iter()
            .map(|record| payload_to_node(record.payload))
            .collect()
    }

    fn scroll_all(shard: &EdgeShard, filter: Filter) -> Result<Vec<Node>, StoreError> {
        let mut nodes: Vec<Node> = Self::scroll_points(shard, filter, false)?
            .into_iter()
            .map(|point| point.node)
            .collect();
        nodes.sort_by_key(|node| node.id);
        Ok(nodes)
    }

    fn scroll_points(
        shard: &EdgeShard,
        filter: Filter,
        with_dense: bool,
    ) -> Result<Vec<IndexedNode>, StoreError> {
        let mut nodes = Vec::new();
        let mut offset = None;
        loop {
            let (records, next) = shard
                .scroll(ScrollRequest {
                    offset,
                    limit: Some(SCROLL_PAGE),
                    filter: Some(filter.clone()),
                    with_payload: Some(WithPayloadInterface::Bool(true)),
                    with_vector: WithVector::Bool(with_dense),
                    order_by: None,
                })
                .map_err(engine)?;
            for record in records {
                let (dense, sparse) = point_vectors(record.vector);
                nodes.push(IndexedNode {
                    node: payload_to_node(record.payload)?,
                    dense,
                    sparse,
                });
            }
            match next {
                Some(next) => offset = Some(next),
                None => break,
            }
        }
        Ok(nodes)
    }
}

#[async_trait]
impl VectorStore for EdgeStore {
    fn dense_layout(&self) -> DenseLayout {
        self.layout
    }

    async fn upsert(&self, nodes: Vec<IndexedNode>) -> Result<(), StoreError> {
        // Checked at every write as well, so that a disk another program fills during
        // an ingestion stops it with a message rather than a signal.
        disk::ensure_room(&self.path, disk::ONE_WRITE, disk::Task::Write)?;
        let layout = self.layout;
        self.blocking(move |shard| {
            for chunk in nodes.chunks(UPSERT_BATCH) {
                let points = chunk
                    .iter()
                    .map(|node| to_point(node, layout))
                    .collect::<Result<Vec<_>, _>>()?;
                shard
                    .update(UpdateOperation::PointOperation(
                        PointOperations::UpsertPoints(PointInsertOperations::PointsList(points)),
                    ))
                    .map_err(engine)?;
            }
            Ok(())
        })
        .await
    }

    async fn delete_document(&self, doc_id: i64) -> Result<(), StoreError> {
        disk::ensure_room(&self.path, disk::ONE_WRITE, disk::Task::Write)?;
        self.blocking(move |shard| {
            shard
                .update(UpdateOperation::PointOperation(
                    PointOperations::DeletePointsByFilter(doc_filter(doc_id)?),
                ))
                .map_err(engine)
        })
        .await
    }

    async fn document_nodes(&self, doc_id: i64) -> Result<Vec<Node>, StoreError> {
        self.blocking(move |shard| Self::scroll_all(shard, doc_filter(doc_id)?))
            .await
    }

    async fn document_points(&self, doc_id: i64) -> Result<Vec<IndexedNode>, StoreError> {
        self.blocking(move |shard| {
            super::checked_points(Self::scroll_points(shard, doc_filter(doc_id)?, true)?)
        })
        .await
    }

    async fn nodes(&self, ids: &[u64]) -> Result<Vec<Node>, StoreError> {
        let ids: Vec<PointId> = ids.iter().map(|&id| PointId::NumId(id)).collect();
        // A search step reads the payloads of a handful of nodes: handing that to a
        // blocking thread costs more than the read, as with small similarity calls.
        if ids.len() < SIDE_BY_SIDE_FROM {
            return Self::read_nodes(&self.shard, &ids);
        }
        self.blocking(move |shard| Self::read_nodes(shard, &ids))
            .await
    }

    async fn count(&self, doc_id: Option<i64>) -> Result<usize, StoreError> {
        self.blocking(move |shard| {
            let filter = doc_id.map(doc_filter).transpose()?;
            shard
                .count(qdrant_edge::CountRequest {
                    filter,
                    exact: true,
                })
                .map_err(engine)
        })
        .await
    }

    async fn flush(&self) -> Result<(), StoreError> {
        // EdgeShard::flush panics if the WAL is busy (only one writer uses it at a time:
        // the library lock and `&self` ordering guarantee that) or a write fails, which
        // `blocking` turns into an error; it runs off the runtime.
        self.blocking(|shard| {
            shard.flush();
            Ok(())
        })
        .await
    }

    async fn optimize(&self) -> Result<(), StoreError> {
        let path = self.path.clone();
        let needed = tokio::task::spawn_blocking(move || disk::for_rewrite(&path))
            .await
            .map_err(|err| StoreError::Engine(err.to_string()))?;
        disk::ensure_room(&self.path, needed, disk::Task::Optimize)?;
        self.blocking(|shard| shard.optimize().map(|_| ()).map_err(engine))
            .await
    }

    async fn hybrid_scores(
        &self,
        query: &QueryVectors,
        candidates: &Candidates,
        limit: usize,
        fusion: Fusion,
    ) -> Result<Vec<ScoredNode>, StoreError> {
        let filter = candidates_filter(candidates)?;
        let prefetch_limit = candidates.prefetch_limit(limit);
        // Pages named by id are few enough to score on the calling thread (narrowing a
        // section); a document's or the library's are not.
        let side_by_side = !matches!(
            candidates,
            Candidates::Ids(ids) | Candidates::BestOf(ids) if ids.len() < SIDE_BY_SIDE_FROM
        );
        let (dense, sparse) = self
            .similarities_of_both(query, filter, prefetch_limit, false, side_by_side)
            .await?;
        // Fused here, every point is at hand and already in canonical order.
        let mut ranked = super::fusion::fuse_rankings(dense, sparse, fusion);
        ranked.truncate(limit);
        Ok(ranked)
    }

    async fn similarity_lists(
        &self,
        query: &QueryVectors,
        candidates: &Candidates,
        limit: usize,
        exact: bool,
    ) -> Result<SimilarityLists, StoreError> {
        let filter = candidates_filter(candidates)?;
        let limit = limit.max(1);
        let (dense, sparse) = self
            .similarities_of_both(query, filter, limit, exact, limit >= SIDE_BY_SIDE_FROM)
            .await?;
        Ok(SimilarityLists { dense, sparse })
    }
}

/// A similarity call asking for at least this many points, or a hybrid call over at
/// least this many named points or over a filter, runs its dense and sparse searches
/// side by side; fewer run on the calling thread, as does reading fewer payloads.
const SIDE_BY_SIDE_FROM: usize = 256;

/// The similarity to the query of the best `limit` points passing `filter` by one
/// vector: by exact search, or through the vector's index.
fn similarities(
    shard: &EdgeShard,
    vector: VectorInternal,
    using: &str,
    limit: usize,
    filter: Filter,
    exact: bool,
) -> Result<Vec<(u64, f32)>, StoreError> {
    let request = QueryRequest {
        prefetches: Vec::new(),
        query: Some(ScoringQuery::Vector(QueryEnum::Nearest(NamedQuery {
            query: vector,
            using: Some(using.to_string()),
        }))),
        filter: Some(filter),
        score_threshold: None,
        limit,
        offset: 0,
        params: exact.then(|| SearchParams {
            exact: true,
            ..SearchParams::default()
        }),
        with_vector: WithVector::Bool(false),
        with_payload: WithPayloadInterface::Bool(false),
    };
    shard
        .query(request)
        .map_err(engine)?
        .into_iter()
        .map(|point| Ok((numeric_id(point.id)?, point.score)))
        .collect()
}

fn engine(err: OperationError) -> StoreError {
    StoreError::Engine(err.to_string())
}

/// What a panic in the engine means: a full disk, said as such, or the engine's words.
fn engine_panic(path: &Path, message: String) -> StoreError {
    if disk::is_no_space(&message) {
        return StoreError::Disk(disk::no_room(path, disk::ONE_WRITE, disk::Task::Write));
    }
    StoreError::Engine(message)
}

#[cfg(test)]
mod tests {
    use super::config::{field_params, update_field_index, TEMP_SEGMENTS};
    use super::filter::field;
    use super::*;
    use crate::store::schema::{INDEXED_FIELDS, RETIRED_FIELDS};
    use crate::store::FusionMethod;
    use qdrant_edge::external::ordered_float::OrderedFloat;
    use qdrant_edge::{
        CreateIndex, FieldIndexOperations, Fusion as EdgeFusion, PayloadFieldSchema,
        PayloadSchemaParams, PayloadSchemaType, Prefetch,
    };

    impl EdgeStore {
        /// The engine's own fused query (its prefetches fused by its RRF or DBSF, not by
        /// [`crate::store::fusion`]), which [`VectorStore::hybrid_scores`] must equal
        /// wherever no two similarities tie. The engine has no min-max fusion, and its
        /// DBSF no weights, so those fusions have nothing to be compared with.
        async fn engine_fused(
            &self,
            query: &QueryVectors,
            candidates: &Candidates,
            limit: usize,
            fusion: Fusion,
        ) -> Result<Vec<ScoredNode>, StoreError> {
            let filter = candidates_filter(candidates)?;
            let prefetch_limit = candidates.prefetch_limit(limit);
            let (dense, sparse) = query_vectors(query, self.layout)?;
            let request = QueryRequest {
                prefetches: vec![
                    prefetch(dense, DENSE_VECTOR, prefetch_limit, filter.clone()),
                    prefetch(sparse, SPARSE_VECTOR, prefetch_limit, filter),
                ],
                query: Some(ScoringQuery::Fusion(engine_fusion(fusion))),
                filter: None,
                score_threshold: None,
                limit: 2 * prefetch_limit,
                offset: 0,
                params: None,
                with_vector: WithVector::Bool(false),
                with_payload: WithPayloadInterface::Bool(false),
            };
            let ranked = self
                .shard
                .query(request)
                .map_err(engine)?
                .into_iter()
                .map(|point| {
                    Ok(ScoredNode {
                        id: numeric_id(point.id)?,
                        score: point.score,
                    })
                })
                .collect::<Result<Vec<_>, StoreError>>()?;
            Ok(crate::store::best_of_fused(ranked, limit))
        }
    }

    fn engine_fusion(fusion: Fusion) -> EdgeFusion {
        match fusion.method {
            FusionMethod::Rrf => EdgeFusion::Rrf {
                k: fusion.rrf_k,
                weights: Some(vec![
                    OrderedFloat(fusion.dense_weight),
                    OrderedFloat(fusion.sparse_weight),
                ]),
            },
            FusionMethod::Dbsf if (fusion.dense_weight, fusion.sparse_weight) == (1.0, 1.0) => {
                EdgeFusion::Dbsf
            }
            FusionMethod::Dbsf | FusionMethod::MinMax => {
                panic!("the engine has no {fusion:?}")
            }
        }
    }

    fn prefetch(vector: VectorInternal, using: &str, limit: usize, filter: Filter) -> Prefetch {
        Prefetch {
            prefetches: Vec::new(),
            query: Some(ScoringQuery::Vector(QueryEnum::Nearest(NamedQuery {
                query: vector,
                using: Some(using.to_string()),
            }))),
            limit,
            params: None,
            filter: Some(filter),
            score_threshold: None,
        }
    }

    fn segment_setting(dir: &Path) -> serde_json::Value {
        let config = std::fs::read_to_string(dir.join("edge_config.json")).expect("config");
        let config: serde_json::Value = serde_json::from_str(&config).expect("json");
        config["optimizers"]["default_segment_number"].clone()
    }

    #[test]
    fn new_and_older_indexes_keep_eight_segments_before_merging() {
        let dir = tempfile::tempdir().expect("temp dir");
        drop(EdgeStore::open(dir.path(), 8).expect("new"));
        assert_eq!(segment_setting(dir.path()), serde_json::json!(SEGMENTS));

        // An index written before the setting existed gets it when opened.
        let path = dir.path().join("edge_config.json");
        let older = std::fs::read_to_string(&path).expect("config").replace(
            &format!("\"default_segment_number\":{SEGMENTS}"),
            "\"default_segment_number\":null",
        );
        std::fs::write(&path, older).expect("write");
        assert_eq!(segment_setting(dir.path()), serde_json::Value::Null);
        drop(EdgeStore::open(dir.path(), 8).expect("older"));
        assert_eq!(segment_setting(dir.path()), serde_json::json!(SEGMENTS));
    }

    #[tokio::test]
    async fn what_an_interrupted_optimize_left_is_removed_on_opening() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = EdgeStore::open(dir.path(), 2).expect("new");
        store
            .upsert(vec![page_with_windows(1, vec![axis(2, 0)])])
            .await
            .expect("upsert");
        store.flush().await.expect("flush");
        drop(store);
        // A half-built segment, as a kill during optimize leaves it.
        let orphan = dir.path().join(TEMP_SEGMENTS).join("segment-half-built");
        std::fs::create_dir_all(&orphan).expect("orphan");
        std::fs::write(orphan.join("vectors.dat"), vec![7u8; 1 << 20]).expect("write");

        let reopened = EdgeStore::open(dir.path(), 2).expect("reopen");
        assert!(!orphan.exists(), "the orphaned segment is gone");
        assert_eq!(
            reopened.count(None).await.expect("count"),
            1,
            "the points stay"
        );
    }

    fn page_with_windows(id: u64, windows: Vec<Vec<f32>>) -> IndexedNode {
        IndexedNode {
            node: crate::tree::lone_page(id),
            dense: windows,
            sparse: crate::store::Sparse::default(),
        }
    }

    fn axis(dimension: usize, at: usize) -> Vec<f32> {
        let mut vector = vec![0.0; dimension];
        vector[at] = 1.0;
        vector
    }

    #[tokio::test]
    async fn a_page_is_found_by_its_best_window_and_keeps_every_window() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = EdgeStore::open(dir.path(), 4).expect("new");
        assert_eq!(store.dense_layout(), DenseLayout::Windows);
        // Page 1 says what the query asks only in its third window; page 2 half of it
        // in its first.
        let half = vec![0.6, 0.8, 0.0, 0.0];
        store
            .upsert(vec![
                page_with_windows(1, vec![axis(4, 2), axis(4, 3), axis(4, 0)]),
                page_with_windows(2, vec![half.clone()]),
            ])
            .await
            .expect("upsert");
        let query = QueryVectors {
            dense: axis(4, 0),
            sparse: crate::store::Sparse::default(),
        };
        let lists = store
            .similarity_lists(&query, &Candidates::AllNodes, 10, true)
            .await
            .expect("search");
        assert_eq!(lists.dense.len(), 2);
        assert_eq!(lists.dense[0].0, 1);
        assert!((lists.dense[0].1 - 1.0).abs() < 1e-5, "{lists:?}");
        assert!((lists.dense[1].1 - 0.6).abs() < 1e-5, "{lists:?}");
        let points = store.document_points(1).await.expect("points");
        assert_eq!(points[0].dense.len(), 3);
        assert_eq!(points[0].dense[2], axis(4, 0));
    }

    #[tokio::test]
    async fn an_index_made_before_windows_keeps_one_vector_a_node() {
        let dir = tempfile::tempdir().expect("temp dir");
        drop(EdgeShard::new(dir.path(), new_index_config(4, DenseLayout::Single)).expect("old"));
        let store = EdgeStore::open(dir.path(), 4).expect("reopen");
        assert_eq!(store.dense_layout(), DenseLayout::Single);
        store
            .upsert(vec![page_with_windows(1, vec![axis(4, 2), axis(4, 0)])])
            .await
            .expect("upsert");
        let query = QueryVectors {
            dense: axis(4, 2),
            sparse: crate::store::Sparse::default(),
        };
        let scores = store.raw_scores(&query, &[1]).await.expect("scores");
        assert!((scores[0].dense - 1.0).abs() < 1e-5, "{scores:?}");
        let points = store.document_points(1).await.expect("points");
        assert_eq!(points[0].dense, [axis(4, 2)]);
    }

    /// Every fusion the engine has, in the settings it can run.
    const FUSIONS: [Fusion; 4] = [
        Fusion::rrf(2, 1.0, 1.0),
        Fusion::rrf(60, 2.0, 0.5),
        Fusion::rrf(5, 0.0, 1.0),
        Fusion::rrf(2, 1.0, 1.0).with_method(FusionMethod::Dbsf),
    ];

    /// Three documents without tied sparse weights (see
    /// [`Generator::document_without_ties`](crate::synthetic::Generator::document_without_ties)).
    async fn store_without_ties(dir: &Path) -> (EdgeStore, Vec<IndexedNode>) {
        let store = EdgeStore::open(dir, 16).expect("store");
        let mut generator = crate::synthetic::Generator::new(11, 16).expect("generator");
        let mut points = Vec::new();
        for (doc_id, pages) in [(1, 120), (2, 40), (3, 200)] {
            let nodes = generator.document_without_ties(doc_id, "ties.pdf", pages);
            points.extend(nodes.clone());
            store.upsert(nodes).await.expect("upsert");
        }
        (store, points)
    }

    #[tokio::test]
    async fn searches_run_side_by_side_rank_as_the_engines_fused_query() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (store, points) = store_without_ties(dir.path()).await;
        let mut generator = crate::synthetic::Generator::new(5, 16).expect("generator");
        let leaves: Vec<u64> = points
            .iter()
            .filter(|p| p.node.level == 0)
            .map(|p| p.node.id)
            .collect();
        for optimized in [false, true] {
            if optimized {
                store.optimize().await.expect("optimize");
            }
            for _ in 0..4 {
                let query = generator.query();
                let candidate_sets = [
                    Candidates::Ids(leaves[..37].to_vec()),
                    Candidates::BestOf(leaves[40..200].to_vec()),
                    Candidates::LeavesOf(vec![1, 3]),
                    Candidates::Sections(vec![2, 3]),
                    Candidates::AllLeaves,
                    Candidates::AllRoots,
                ];
                for candidates in &candidate_sets {
                    for fusion in FUSIONS {
                        for limit in [1, 8, 32] {
                            let ours = store
                                .hybrid_scores(&query, candidates, limit, fusion)
                                .await
                                .expect("side by side");
                            let engine = store
                                .engine_fused(&query, candidates, limit, fusion)
                                .await
                                .expect("engine");
                            assert_eq!(ours, engine, "{candidates:?} {fusion:?} top {limit}");
                            // What searches fuse themselves, from the raw scores of the
                            // nodes they hold, must be the engine's fusion too.
                            if let Candidates::Ids(ids) = candidates {
                                let raw = store.raw_scores(&query, ids).await.expect("raw");
                                let mut local = crate::store::fusion::fuse(&raw, fusion);
                                local.truncate(limit);
                                assert_eq!(local, engine, "raw scores, {fusion:?} top {limit}");
                            }
                        }
                    }
                }

                // Large enough to run side by side, and the same as small calls give.
                let every_point: Vec<u64> = points.iter().map(|p| p.node.id).collect();
                assert!(every_point.len() >= SIDE_BY_SIDE_FROM);
                let at_once = store
                    .raw_scores(&query, &every_point)
                    .await
                    .expect("side by side");
                let mut in_small_calls = Vec::new();
                for chunk in every_point.chunks(SIDE_BY_SIDE_FROM / 2) {
                    in_small_calls.extend(store.raw_scores(&query, chunk).await.expect("small"));
                }
                in_small_calls.sort_by_key(|scores| scores.id);
                assert_eq!(at_once.len(), every_point.len());
                assert_eq!(at_once, in_small_calls);
            }
        }
    }

    fn closed_log_segments(index: &Path) -> usize {
        std::fs::read_dir(index.join("wal"))
            .expect("log")
            .filter(|entry| {
                entry
                    .as_ref()
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .starts_with("closed-")
            })
            .count()
    }

    #[tokio::test]
    async fn a_trimmed_write_ahead_log_keeps_the_points_and_the_order_of_updates() {
        let dir = tempfile::tempdir().expect("temp dir");
        // Segments so small that every update closes one.
        let mut config = new_index_config(8, DenseLayout::Windows);
        config.wal_options = Some(qdrant_edge::WalOptions {
            segment_capacity: 4_096,
            ..qdrant_edge::WalOptions::default()
        });
        drop(EdgeShard::new(dir.path(), config).expect("shard"));
        let mut generator = crate::synthetic::Generator::new(7, 8).expect("generator");
        let store = EdgeStore::open(dir.path(), 8).expect("open");
        for doc_id in 1..=4 {
            let file = format!("{doc_id}.pdf");
            store
                .upsert(generator.document(doc_id, &file, 12))
                .await
                .expect("upsert");
        }
        let stored = store.count(None).await.expect("count");
        drop(store);
        assert!(closed_log_segments(dir.path()) >= 3);

        let store = EdgeStore::open(dir.path(), 8).expect("reopen");
        assert_eq!(closed_log_segments(dir.path()), 1);
        assert_eq!(store.count(None).await.expect("count"), stored);
        // The engine skips an update numbered below the points it rewrites, so these
        // only land if the trimmed log numbers on from where it stopped.
        store
            .upsert(generator.document(1, "renamed.pdf", 12))
            .await
            .expect("rewrite");
        store.delete_document(2).await.expect("delete");
        drop(store);

        let store = EdgeStore::open(dir.path(), 8).expect("third open");
        let rewritten = store.document_nodes(1).await.expect("nodes");
        assert!(!rewritten.is_empty());
        assert!(rewritten.iter().all(|node| node.file_name == "renamed.pdf"));
        assert_eq!(store.count(Some(2)).await.expect("count"), 0);
        assert_eq!(store.count(None).await.expect("count"), stored - stored / 4);
    }

    fn field_indexes(store: &EdgeStore) -> Vec<(String, Option<PayloadSchemaParams>)> {
        let mut fields: Vec<_> = store
            .shard
            .info()
            .payload_schema
            .into_iter()
            .map(|(path, info)| (path.to_string(), info.params))
            .collect();
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        fields
    }

    fn wanted_indexes() -> Vec<(String, Option<PayloadSchemaParams>)> {
        let mut fields: Vec<_> = INDEXED_FIELDS
            .iter()
            .map(|name| (name.to_string(), Some(field_params(name))))
            .collect();
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        fields
    }

    #[tokio::test]
    async fn older_field_indexes_are_rebuilt_and_searches_still_filter() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = EdgeStore::open(dir.path(), 8).expect("new");
        assert_eq!(field_indexes(&store), wanted_indexes());
        let mut generator = crate::synthetic::Generator::new(3, 8).expect("generator");
        store
            .upsert(generator.document(1, "a.pdf", 9))
            .await
            .expect("upsert");
        store
            .upsert(generator.document(2, "b.pdf", 30))
            .await
            .expect("upsert");
        store.optimize().await.expect("optimize");

        // As earlier versions indexed them: plain integer fields, "id" among them.
        for name in INDEXED_FIELDS.iter().chain(&RETIRED_FIELDS) {
            let path = field(name).expect("field");
            for operation in [
                FieldIndexOperations::DeleteIndex(path.clone()),
                FieldIndexOperations::CreateIndex(CreateIndex {
                    field_name: path,
                    field_schema: Some(PayloadFieldSchema::FieldType(PayloadSchemaType::Integer)),
                }),
            ] {
                update_field_index(&store.shard, operation).expect("older index");
            }
        }
        assert_eq!(field_indexes(&store).len(), 4);
        drop(store);

        let store = EdgeStore::open(dir.path(), 8).expect("older");
        assert_eq!(field_indexes(&store), wanted_indexes());
        let query = generator.query();
        let roots = store
            .raw_scores_of(&query, &Candidates::AllRoots, 10)
            .await
            .expect("roots");
        assert_eq!(roots.len(), 2);
        let pages = store
            .hybrid_scores(&query, &Candidates::LeavesOf(vec![1]), 20, FUSION)
            .await
            .expect("pages");
        assert_eq!(pages.len(), 9);
        let sections = store
            .hybrid_scores(&query, &Candidates::Sections(vec![2]), 50, FUSION)
            .await
            .expect("sections");
        let nodes = store.document_nodes(2).await.expect("nodes");
        assert_eq!(sections.len(), nodes.iter().filter(|n| n.level > 0).count());
    }

    const FUSION: Fusion = Fusion::rrf(2, 1.0, 1.0);
}
