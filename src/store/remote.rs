//! A Qdrant server or cluster as the store, over gRPC (qdrant-client). The collection
//! has the same named vectors, payload indexes and hybrid query as the embedded store,
//! so the strategies cannot tell the two apart.

mod config;
mod filter;
mod point;
mod query;
mod retry;

use std::time::Duration;

use async_trait::async_trait;
use qdrant_client::qdrant::{
    CountPointsBuilder, CreateCollectionBuilder, CreateFieldIndexCollectionBuilder,
    DeletePointsBuilder, Distance, FieldType, Filter, GetPointsBuilder, Modifier,
    MultiVectorComparator, MultiVectorConfig, PointId, ScrollPointsBuilder,
    SparseVectorParamsBuilder, SparseVectorsConfigBuilder, UpsertPointsBuilder,
    VectorParamsBuilder, VectorsConfigBuilder,
};
use qdrant_client::Qdrant;

use super::schema::INDEXED_FIELDS;
use super::{
    Candidates, DenseLayout, Fusion, FusionMethod, IndexedNode, QueryVectors, ScoredNode,
    SimilarityLists, StoreError, VectorStore, DENSE_VECTOR, SPARSE_VECTOR,
};
use crate::secret::ApiKey;
use crate::tree::Node;
pub use config::{ClusterSettings, RemoteConfig};
use filter::document_filter;
use point::{numeric_id, payload_to_node, retrieved_to_indexed, to_point};
use query::{hybrid_request, similarities_request};

const UPSERT_BATCH: usize = 256;
const SCROLL_PAGE: u32 = 1_024;

pub struct RemoteStore {
    client: Qdrant,
    config: RemoteConfig,
    /// What the collection keeps of a node's windows; a new collection keeps them all.
    layout: DenseLayout,
    /// Hides the key in what the server says back.
    redactor: crate::redact::Redactor,
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
                detail: crate::redact::Redactor::new([api_key])
                    .scrub(&err.to_string())
                    .into_owned(),
            })?;

        let store = Self {
            client,
            config,
            layout: DenseLayout::Windows,
            redactor: crate::redact::Redactor::new([api_key]),
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
