//! A Qdrant server or cluster as the store, over gRPC (qdrant-client). The collection
//! has the same named vectors, payload indexes and hybrid query as the embedded store,
//! so the strategies cannot tell the two apart.

use std::collections::HashMap;
use std::future::Future;
use std::time::Duration;

use async_trait::async_trait;
use qdrant_client::qdrant::vector_output::Vector as OutputVector;
use qdrant_client::qdrant::{
    point_id::PointIdOptions, Condition, CountPointsBuilder, CreateCollectionBuilder,
    CreateFieldIndexCollectionBuilder, DeletePointsBuilder, Distance, FieldType, Filter,
    GetPointsBuilder, Modifier, MultiVectorComparator, MultiVectorConfig, NamedVectors, PointId,
    PointStruct, PrefetchQueryBuilder, Query, QueryBatchPoints, QueryBatchPointsBuilder,
    QueryPointsBuilder, RetrievedPoint, RrfBuilder, ScrollPointsBuilder, SearchParamsBuilder,
    SparseVectorParamsBuilder, SparseVectorsConfigBuilder, UpsertPointsBuilder, Value, VectorInput,
    VectorParamsBuilder, VectorsConfigBuilder, VectorsOutput,
};
use qdrant_client::{Payload, Qdrant, QdrantError};
use serde::{Deserialize, Serialize};

use super::schema::{self, Selection, INDEXED_FIELDS};
use super::{
    Candidates, DenseLayout, Fusion, FusionMethod, IndexedNode, QueryVectors, ScoredNode,
    SimilarityLists, Sparse, StoreError, VectorStore, DENSE_VECTOR, SPARSE_VECTOR,
};
use crate::llm::ApiKey;
use crate::tree::Node;

const UPSERT_BATCH: usize = 256;
const SCROLL_PAGE: u32 = 1_024;

/// How a library's collection is spread over a cluster. The defaults suit one server;
/// README.md gives the values for a three-node cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClusterSettings {
    /// Shards of the collection; none lets the server choose (one per node).
    pub shard_number: Option<u32>,
    /// Copies of each shard.
    pub replication_factor: u32,
    /// Copies that must confirm a write before it counts.
    pub write_consistency_factor: u32,
}

impl Default for ClusterSettings {
    fn default() -> Self {
        Self {
            shard_number: None,
            replication_factor: 1,
            write_consistency_factor: 1,
        }
    }
}

impl ClusterSettings {
    /// Checks the values a person can type; returns the problem in words.
    pub fn validate(&self) -> Result<(), String> {
        if self.shard_number == Some(0) {
            return Err("the number of shards must be at least 1".into());
        }
        if self.replication_factor == 0 {
            return Err("the replication factor must be at least 1".into());
        }
        if self.write_consistency_factor == 0
            || self.write_consistency_factor > self.replication_factor
        {
            return Err(format!(
                "the write consistency factor must be between 1 and the replication factor ({})",
                self.replication_factor
            ));
        }
        Ok(())
    }
}

/// Where a remote library's points live. Kept in the catalog; the API key is not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RemoteConfig {
    /// The server's gRPC address, e.g. `http://qdrant.internal:6334` (https for TLS).
    pub url: String,
    pub collection: String,
    #[serde(default)]
    pub cluster: ClusterSettings,
    /// Seconds one request may take before it is retried.
    #[serde(default = "default_timeout_secs")]
    pub timeout_secs: u64,
}

fn default_timeout_secs() -> u64 {
    30
}

impl RemoteConfig {
    /// The server's address as messages and logs show it: without a user or password.
    pub fn shown_url(&self) -> String {
        crate::redact::credentials(&self.url).into_owned()
    }

    /// What to warn about when `api_key` would go to this server over plain `http://`
    /// on another machine; nothing without a key or over https.
    pub fn key_warning(&self, api_key: &ApiKey) -> Option<String> {
        (!api_key.expose().is_empty())
            .then(|| crate::redact::key_in_clear("Qdrant", &self.url))
            .flatten()
    }

    pub fn new(url: impl Into<String>, collection: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            collection: collection.into(),
            cluster: ClusterSettings::default(),
            timeout_secs: default_timeout_secs(),
        }
    }
}

/// How often a request that failed for a passing reason (unreachable, too slow,
/// overloaded) is tried in all, and the pause before the second try (doubling after).
const ATTEMPTS: u32 = 3;
const FIRST_PAUSE: Duration = Duration::from_millis(250);

pub struct RemoteStore {
    client: Qdrant,
    config: RemoteConfig,
    /// What the collection keeps of a node's windows; a new collection keeps them all.
    layout: DenseLayout,
}

impl RemoteStore {
    /// Connects and checks that the server answers; creates nothing.
    pub async fn connect(config: RemoteConfig, api_key: &ApiKey) -> Result<Self, StoreError> {
        let key = (!api_key.expose().is_empty()).then(|| api_key.expose().to_string());
        if let Some(warning) = config.key_warning(api_key) {
            tracing::warn!("{warning}");
        }
        let client = Qdrant::from_url(&config.url)
            .api_key(key)
            .timeout(Duration::from_secs(config.timeout_secs.max(1)))
            .connect_timeout(Duration::from_secs(config.timeout_secs.clamp(1, 10)))
            // The check logs a warning on its own; reachability is checked below and
            // reported in our words.
            .skip_compatibility_check()
            .build()
            .map_err(|err| StoreError::Unreachable {
                url: config.shown_url(),
                detail: crate::redact::credentials(&err.to_string()).into_owned(),
            })?;

        let store = Self {
            client,
            config,
            layout: DenseLayout::Windows,
        };
        let reply = store
            .retrying("check the server", || store.client.health_check())
            .await?;
        // The health check is open to all; listing collections is not, so a wrong or
        // missing API key shows here rather than at the first write.
        store
            .retrying("check the API key", || store.client.list_collections())
            .await?;
        tracing::info!(url = %store.config.shown_url(), version = %reply.version, "connected to Qdrant");
        Ok(store)
    }

    /// Connects and makes sure the collection exists for `dimension`-sized dense
    /// vectors (a new one in `new_layout`); `fresh` first drops whatever the collection
    /// held (a migration target).
    pub async fn open(
        config: RemoteConfig,
        api_key: &ApiKey,
        dimension: usize,
        fresh: bool,
        new_layout: DenseLayout,
    ) -> Result<Self, StoreError> {
        let mut store = Self::connect(config, api_key).await?;
        let name = store.config.collection.clone();
        let exists = store
            .retrying("look up the collection", || {
                store.client.collection_exists(&name)
            })
            .await?;
        if exists && fresh {
            store
                .retrying("clear the collection", || {
                    store.client.delete_collection(&name)
                })
                .await?;
        }
        if !exists || fresh {
            store.create_collection(dimension, new_layout).await?;
            store.layout = new_layout;
        } else {
            store.layout = store.check_dimension(dimension).await?;
        }
        Ok(store)
    }

    pub fn config(&self) -> &RemoteConfig {
        &self.config
    }

    async fn create_collection(
        &self,
        dimension: usize,
        layout: DenseLayout,
    ) -> Result<(), StoreError> {
        let name = &self.config.collection;
        let dimension = u64::try_from(dimension)
            .map_err(|_| StoreError::Engine(format!("bad dimension {dimension}")))?;
        let request = || {
            let mut vectors = VectorsConfigBuilder::default();
            let dense = VectorParamsBuilder::new(dimension, Distance::Cosine);
            let dense = match layout {
                DenseLayout::Single => dense,
                DenseLayout::Windows => dense.multivector_config(MultiVectorConfig {
                    comparator: MultiVectorComparator::MaxSim.into(),
                }),
            };
            vectors.add_named_vector_params(DENSE_VECTOR, dense);
            let mut sparse = SparseVectorsConfigBuilder::default();
            sparse.add_named_vector_params(
                SPARSE_VECTOR,
                SparseVectorParamsBuilder::default().modifier(Modifier::Idf),
            );
            let cluster = self.config.cluster;
            let mut builder = CreateCollectionBuilder::new(name)
                .vectors_config(vectors)
                .sparse_vectors_config(sparse)
                .replication_factor(cluster.replication_factor)
                .write_consistency_factor(cluster.write_consistency_factor);
            if let Some(shards) = cluster.shard_number {
                builder = builder.shard_number(shards);
            }
            self.client.create_collection(builder)
        };
        self.retrying("create the collection", request).await?;
        // Collections made by earlier versions also index the retired fields
        // (`schema::RETIRED_FIELDS`). Opening leaves that index alone: nothing reads it,
        // and dropping it would ask a key that may only read for a write.
        for field in INDEXED_FIELDS {
            self.retrying("index the payload", || {
                self.client.create_field_index(
                    CreateFieldIndexCollectionBuilder::new(name, field, FieldType::Integer)
                        .wait(true),
                )
            })
            .await?;
        }
        Ok(())
    }

    /// Checks the collection's dimension, and tells whether it keeps windows.
    async fn check_dimension(&self, dimension: usize) -> Result<DenseLayout, StoreError> {
        use qdrant_client::qdrant::vectors_config::Config;
        let name = &self.config.collection;
        let info = self
            .retrying("read the collection", || self.client.collection_info(name))
            .await?;
        let stored = info
            .result
            .and_then(|info| info.config)
            .and_then(|config| config.params)
            .and_then(|params| params.vectors_config)
            .and_then(|vectors| vectors.config)
            .and_then(|config| match config {
                Config::ParamsMap(map) => map.map.get(DENSE_VECTOR).map(|params| {
                    let layout = match params.multivector_config {
                        Some(_) => DenseLayout::Windows,
                        None => DenseLayout::Single,
                    };
                    (params.size, layout)
                }),
                Config::Params(_) => None,
            });
        match stored {
            Some((size, layout)) if usize::try_from(size).ok() == Some(dimension) => Ok(layout),
            Some((size, _)) => Err(StoreError::DimensionMismatch {
                stored: usize::try_from(size).unwrap_or(usize::MAX),
                model: dimension,
            }),
            None => Err(StoreError::Engine(format!(
                "the collection `{name}` on {} was not made by PageTree (it has no `{DENSE_VECTOR}` vector)",
                self.config.shown_url()
            ))),
        }
    }

    /// Runs `request` up to [`ATTEMPTS`] times while it fails for a passing reason.
    async fn retrying<T, F, Fut>(&self, what: &str, mut request: F) -> Result<T, StoreError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, QdrantError>>,
    {
        let mut pause = FIRST_PAUSE;
        let mut attempt = 1;
        loop {
            match request().await {
                Ok(value) => return Ok(value),
                Err(err) if attempt < ATTEMPTS && is_transient(&err) => {
                    tracing::info!(attempt, error = %err, "Qdrant could not {what}; trying again");
                    tokio::time::sleep(pause).await;
                    pause *= 2;
                    attempt += 1;
                }
                Err(err) => return Err(self.explain(what, err)),
            }
        }
    }

    fn explain(&self, what: &str, err: QdrantError) -> StoreError {
        let url = self.config.shown_url();
        let Some(status) = status_of(&err) else {
            return StoreError::Remote {
                url,
                detail: crate::redact::credentials(&format!("could not {what}: {err}"))
                    .into_owned(),
            };
        };
        match classify(status) {
            Failure::TooSlow => StoreError::Timeout {
                url,
                seconds: self.config.timeout_secs,
                attempts: ATTEMPTS,
            },
            Failure::Unreachable => StoreError::Unreachable {
                url,
                detail: connection_detail(status.message()),
            },
            Failure::Refused => StoreError::Refused {
                url,
                detail: status.message().to_string(),
            },
            Failure::Busy | Failure::Other => StoreError::Remote {
                url,
                detail: format!("could not {what}: {}", status.message()),
            },
        }
    }

    async fn scroll(
        &self,
        filter: Filter,
        with_vectors: bool,
    ) -> Result<Vec<IndexedNode>, StoreError> {
        let name = &self.config.collection;
        let mut points = Vec::new();
        let mut offset: Option<PointId> = None;
        loop {
            let response = self
                .retrying("read points", || {
                    let mut request = ScrollPointsBuilder::new(name)
                        .filter(filter.clone())
                        .limit(SCROLL_PAGE)
                        .with_payload(true)
                        .with_vectors(with_vectors);
                    if let Some(offset) = offset.clone() {
                        request = request.offset(offset);
                    }
                    self.client.scroll(request)
                })
                .await?;
            for point in response.result {
                points.push(retrieved_to_indexed(point)?);
            }
            match response.next_page_offset {
                Some(next) => offset = Some(next),
                None => break,
            }
        }
        Ok(points)
    }
}

#[async_trait]
impl VectorStore for RemoteStore {
    fn dense_layout(&self) -> DenseLayout {
        self.layout
    }

    async fn upsert(&self, nodes: Vec<IndexedNode>) -> Result<(), StoreError> {
        let name = &self.config.collection;
        for chunk in nodes.chunks(UPSERT_BATCH) {
            let points = chunk
                .iter()
                .map(|node| to_point(node, self.layout))
                .collect::<Result<Vec<_>, _>>()?;
            // Upserts by id are idempotent, so a retried batch cannot duplicate points.
            self.retrying("store points", || {
                self.client
                    .upsert_points(UpsertPointsBuilder::new(name, points.clone()).wait(true))
            })
            .await?;
        }
        Ok(())
    }

    async fn delete_document(&self, doc_id: i64) -> Result<(), StoreError> {
        let name = &self.config.collection;
        self.retrying("delete points", || {
            self.client.delete_points(
                DeletePointsBuilder::new(name)
                    .points(document_filter(doc_id))
                    .wait(true),
            )
        })
        .await?;
        Ok(())
    }

    async fn document_nodes(&self, doc_id: i64) -> Result<Vec<Node>, StoreError> {
        let mut nodes: Vec<Node> = self
            .scroll(document_filter(doc_id), false)
            .await?
            .into_iter()
            .map(|point| point.node)
            .collect();
        nodes.sort_by_key(|node| node.id);
        Ok(nodes)
    }

    async fn nodes(&self, ids: &[u64]) -> Result<Vec<Node>, StoreError> {
        let name = &self.config.collection;
        let ids: Vec<PointId> = ids.iter().map(|&id| PointId::from(id)).collect();
        let response = self
            .retrying("read points", || {
                self.client
                    .get_points(GetPointsBuilder::new(name, ids.clone()).with_payload(true))
            })
            .await?;
        response
            .result
            .into_iter()
            .map(|point| payload_to_node(point.payload))
            .collect()
    }

    async fn document_points(&self, doc_id: i64) -> Result<Vec<IndexedNode>, StoreError> {
        super::checked_points(self.scroll(document_filter(doc_id), true).await?)
    }

    async fn count(&self, doc_id: Option<i64>) -> Result<usize, StoreError> {
        let name = &self.config.collection;
        let response = self
            .retrying("count points", || {
                let mut request = CountPointsBuilder::new(name).exact(true);
                if let Some(doc_id) = doc_id {
                    request = request.filter(document_filter(doc_id));
                }
                self.client.count(request)
            })
            .await?;
        let count = response.result.map(|result| result.count).unwrap_or(0);
        usize::try_from(count).map_err(|_| StoreError::Engine(format!("bad count {count}")))
    }

    /// Every write already waited for the server to apply it.
    async fn flush(&self) -> Result<(), StoreError> {
        Ok(())
    }

    /// The server builds its indexes in the background.
    async fn optimize(&self) -> Result<(), StoreError> {
        Ok(())
    }

    async fn hybrid_scores(
        &self,
        query: &QueryVectors,
        candidates: &Candidates,
        limit: usize,
        fusion: Fusion,
    ) -> Result<Vec<ScoredNode>, StoreError> {
        if fusion.method != FusionMethod::Rrf {
            // The server's DBSF has no weights and min–max is ours: both are fused here,
            // as the embedded store fuses them, from the same two searches.
            let prefetch_limit = candidates.prefetch_limit(limit);
            let lists = self
                .similarity_lists(query, candidates, prefetch_limit, false)
                .await?;
            let mut ranked = super::fusion::fuse_rankings(lists.dense, lists.sparse, fusion);
            ranked.truncate(limit);
            return Ok(ranked);
        }
        let request = hybrid_request(
            &self.config.collection,
            query,
            self.layout,
            candidates,
            limit,
            fusion,
        )?;
        let response = self
            .retrying("search", || self.client.query(request.clone()))
            .await?;
        let ranked = response
            .result
            .into_iter()
            .map(|point| {
                Ok(ScoredNode {
                    id: numeric_id(point.id)?,
                    score: point.score,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(super::best_of_fused(ranked, limit))
    }

    // Both searches go in one request: one round trip per call.
    async fn similarity_lists(
        &self,
        query: &QueryVectors,
        candidates: &Candidates,
        limit: usize,
        exact: bool,
    ) -> Result<SimilarityLists, StoreError> {
        let request = similarities_request(
            &self.config.collection,
            query,
            self.layout,
            candidates,
            limit,
            exact,
        )?;
        let response = self
            .retrying("search", || self.client.query_batch(request.clone()))
            .await?;
        let mut lists = response.result.into_iter().map(|batch| {
            batch
                .result
                .into_iter()
                .map(|point| Ok((numeric_id(point.id)?, point.score)))
                .collect::<Result<Vec<(u64, f32)>, StoreError>>()
        });
        let (Some(dense), Some(sparse)) = (lists.next(), lists.next()) else {
            return Err(StoreError::Remote {
                url: self.config.shown_url(),
                detail: "the server answered a two-part search with fewer parts".into(),
            });
        };
        Ok(SimilarityLists {
            dense: dense?,
            sparse: sparse?,
        })
    }
}

/// A dense and a sparse search over `candidates`, each returning up to `limit` matches
/// with their similarities: exact, or through the indexes.
fn similarities_request(
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
fn hybrid_request(
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

/// The query's dense vector as the collection compares it: against windows, a
/// multivector of one, so that MaxSim gives its similarity to the best window.
fn dense_input(query: &QueryVectors, layout: DenseLayout) -> VectorInput {
    match layout {
        DenseLayout::Single => VectorInput::new_dense(query.dense.clone()),
        DenseLayout::Windows => VectorInput::new_multi(vec![query.dense.clone()]),
    }
}

fn candidates_filter(candidates: &Candidates) -> Filter {
    filter(Selection::of(candidates))
}

fn document_filter(doc_id: i64) -> Filter {
    filter(Selection::document(doc_id))
}

fn filter(selection: Selection) -> Filter {
    Filter {
        must: selection.must.into_iter().map(condition).collect(),
        should: selection.should.into_iter().map(condition).collect(),
        ..Filter::default()
    }
}

fn condition(condition: schema::Condition) -> Condition {
    match condition {
        schema::Condition::HasId(ids) => Condition::has_id(ids.into_iter().map(PointId::from)),
        schema::Condition::Is(field, value) => Condition::matches(field, value),
        schema::Condition::In(field, values) => Condition::matches(field, values),
    }
}

fn to_point(indexed: &IndexedNode, layout: DenseLayout) -> Result<PointStruct, StoreError> {
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

fn payload_to_node(payload: HashMap<String, Value>) -> Result<Node, StoreError> {
    match serde_json::Value::from(Payload::from(payload)) {
        serde_json::Value::Object(map) => schema::from_payload(map),
        _ => Err(StoreError::BadPayload(
            "a point's payload is not an object".into(),
        )),
    }
}

fn retrieved_to_indexed(point: RetrievedPoint) -> Result<IndexedNode, StoreError> {
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

fn split_vectors(vectors: &VectorsOutput) -> (Vec<Vec<f32>>, Sparse) {
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

fn numeric_id(id: Option<PointId>) -> Result<u64, StoreError> {
    match id.and_then(|id| id.point_id_options) {
        Some(PointIdOptions::Num(id)) => Ok(id),
        Some(PointIdOptions::Uuid(uuid)) => Err(StoreError::BadPayload(format!(
            "unexpected point id {uuid}: this collection was not written by PageTree"
        ))),
        None => Err(StoreError::BadPayload("a point has no id".into())),
    }
}

fn status_of(err: &QdrantError) -> Option<&tonic::Status> {
    match err {
        QdrantError::ResponseError { status } => Some(status),
        QdrantError::ResourceExhaustedError { status, .. } => Some(status),
        _ => None,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failure {
    Unreachable,
    TooSlow,
    Busy,
    Refused,
    Other,
}

/// What a gRPC status means for us. qdrant-client reports a failed connection as
/// `Internal` ("Failed to connect to …") and tonic a request timeout as `Cancelled`
/// ("Timeout expired"), so the message matters as well as the code.
fn classify(status: &tonic::Status) -> Failure {
    let message = status.message();
    match status.code() {
        tonic::Code::DeadlineExceeded => Failure::TooSlow,
        tonic::Code::Cancelled if message.contains("Timeout expired") => Failure::TooSlow,
        tonic::Code::Internal if message.starts_with("Failed to connect") => {
            if message.contains("Elapsed") || message.contains("timed out") {
                Failure::TooSlow
            } else {
                Failure::Unreachable
            }
        }
        tonic::Code::Unavailable | tonic::Code::Unknown | tonic::Code::Cancelled => {
            Failure::Unreachable
        }
        tonic::Code::ResourceExhausted | tonic::Code::Aborted => Failure::Busy,
        tonic::Code::Unauthenticated | tonic::Code::PermissionDenied => Failure::Refused,
        _ => Failure::Other,
    }
}

/// The readable end of tonic's nested connect error, e.g. "Connection refused".
fn connection_detail(message: &str) -> String {
    message
        .rsplit_once("message: \"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map(|(detail, _)| detail.to_string())
        .unwrap_or_else(|| message.to_string())
}

/// Failures worth another try: the server was unreachable, too slow or overloaded.
fn is_transient(err: &QdrantError) -> bool {
    status_of(err).is_some_and(|status| {
        matches!(
            classify(status),
            Failure::Unreachable | Failure::TooSlow | Failure::Busy
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::ROOT_PARENT;
    use qdrant_client::qdrant::{condition::ConditionOneOf, r#match::MatchValue};

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

    #[test]
    fn only_passing_failures_are_retried() {
        let status = |code| QdrantError::ResponseError {
            status: tonic::Status::new(code, "x"),
        };
        assert!(is_transient(&status(tonic::Code::Unavailable)));
        assert!(is_transient(&status(tonic::Code::DeadlineExceeded)));
        assert!(!is_transient(&status(tonic::Code::InvalidArgument)));
        assert!(!is_transient(&status(tonic::Code::Unauthenticated)));
        assert!(!is_transient(&QdrantError::ConversionError("x".into())));
    }

    #[test]
    fn a_refused_connection_reads_as_unreachable() {
        let status = tonic::Status::internal(
            r#"Failed to connect to http://127.0.0.1:9/: tonic::transport::Error(Transport, ConnectError(ConnectError("tcp connect error", 127.0.0.1:9, Os { code: 111, kind: ConnectionRefused, message: "Connection refused" })))"#,
        );
        assert_eq!(classify(&status), Failure::Unreachable);
        assert_eq!(connection_detail(status.message()), "Connection refused");
        assert_eq!(
            classify(&tonic::Status::cancelled("Timeout expired")),
            Failure::TooSlow
        );
        assert_eq!(
            classify(&tonic::Status::internal("bad segment")),
            Failure::Other
        );
    }

    #[test]
    fn cluster_settings_are_checked() {
        assert!(ClusterSettings::default().validate().is_ok());
        let too_strict = ClusterSettings {
            replication_factor: 2,
            write_consistency_factor: 3,
            ..ClusterSettings::default()
        };
        assert!(too_strict.validate().is_err());
        let no_shards = ClusterSettings {
            shard_number: Some(0),
            ..ClusterSettings::default()
        };
        assert!(no_shards.validate().is_err());
    }
}
