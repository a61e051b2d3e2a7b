//! How an index folder is made and kept: the engine's configuration for a new index,
//! the payload field indexes, and what opening an older or interrupted index repairs.

use std::path::Path;

use qdrant_edge::{
    CreateIndex, Distance, EdgeConfig, EdgeConfigBuilder, EdgeShard, EdgeSparseVectorParamsBuilder,
    EdgeVectorParamsBuilder, FieldIndexOperations, IntegerIndexParams, Modifier,
    MultiVectorComparator, MultiVectorConfig, PayloadFieldSchema, PayloadSchemaParams,
    UpdateOperation,
};

use super::engine;
use crate::store::schema::{INDEXED_FIELDS, LEVEL, RETIRED_FIELDS};
use crate::store::{DenseLayout, StoreError, DENSE_VECTOR, SPARSE_VECTOR};

/// Indexed segments the engine keeps before it merges the smallest. Its default on
/// 2 cores is 2, so a growing library merged its newest batch into the big segment
/// and rebuilt that segment's whole HNSW graph (a 1M-node build spent most of its
/// time re-indexing 340k-point merges); with 8, a batch is indexed once and only
/// small segments merge. Each search visits every segment, but a library needs
/// 100k+ nodes before it has more than two.
pub(super) const SEGMENTS: usize = 8;

pub(super) fn new_index_config(dimension: usize, layout: DenseLayout) -> EdgeConfig {
    let dense = EdgeVectorParamsBuilder::new(dimension, Distance::Cosine);
    let dense = match layout {
        DenseLayout::Single => dense,
        DenseLayout::Windows => dense.multivector_config(MultiVectorConfig {
            comparator: MultiVectorComparator::MaxSim,
        }),
    };
    EdgeConfigBuilder::new()
        .vector(DENSE_VECTOR, dense.build())
        .sparse_vector(
            SPARSE_VECTOR,
            EdgeSparseVectorParamsBuilder::new()
                .modifier(Modifier::Idf)
                .build(),
        )
        .build()
}

/// How the filtered fields are indexed: by value alone, since searches only ever match
/// them by value. A range index builds a histogram of every point's value when it is
/// opened, and with plain integer indexes that was 60% of opening a 1M-node library.
/// `parent_id` and `doc_id` stay on disk (memory-mapped). `level` is kept in memory:
/// every top-k search checks it at each point the HNSW graph search visits, and read
/// from disk that made the search 20-40% slower at 1M nodes.
pub(super) fn field_params(name: &str) -> PayloadSchemaParams {
    PayloadSchemaParams::Integer(IntegerIndexParams {
        lookup: Some(true),
        range: Some(false),
        on_disk: Some(name != LEVEL),
        ..IntegerIndexParams::default()
    })
}

/// Gives the index exactly the field indexes of [`field_params`]: a new index gets
/// them, and one made by an earlier version has the others rebuilt once (about 10 s
/// for a million nodes) and the retired ones dropped.
pub(super) fn ensure_field_indexes(shard: &EdgeShard) -> Result<(), StoreError> {
    let schema = shard.info().payload_schema;
    for name in RETIRED_FIELDS {
        let path = super::filter::field(name)?;
        if schema.contains_key(&path) {
            update_field_index(shard, FieldIndexOperations::DeleteIndex(path))?;
        }
    }
    for name in INDEXED_FIELDS {
        let path = super::filter::field(name)?;
        let wanted = field_params(name);
        match schema.get(&path) {
            Some(info) if info.params.as_ref() == Some(&wanted) => continue,
            Some(_) => {
                tracing::info!(
                    field = name,
                    "rebuilding an index made by an earlier version"
                );
                update_field_index(shard, FieldIndexOperations::DeleteIndex(path.clone()))?;
            }
            None => {}
        }
        update_field_index(
            shard,
            FieldIndexOperations::CreateIndex(CreateIndex {
                field_name: path,
                field_schema: Some(PayloadFieldSchema::FieldParams(wanted)),
            }),
        )?;
    }
    Ok(())
}

pub(super) fn update_field_index(
    shard: &EdgeShard,
    operation: FieldIndexOperations,
) -> Result<(), StoreError> {
    shard
        .update(UpdateOperation::FieldIndexOperation(operation))
        .map_err(engine)
}

/// qdrant-edge's `TEMP_SEGMENTS_PATH`, which the crate does not export.
pub(super) const TEMP_SEGMENTS: &str = "temp_segments";

/// Empties the engine's `temp_segments` folder of an index being opened. An optimize
/// builds its new segments there and moves them into `segments` when done, so what an
/// optimize cut off by a kill leaves there is never read again (64 MB was seen). The
/// library's lock keeps any other process from optimizing this index meanwhile.
/// Housekeeping only: what cannot be removed is logged and left.
pub(super) fn remove_orphaned_temp_segments(index: &Path) {
    let temp = index.join(TEMP_SEGMENTS);
    let Ok(entries) = std::fs::read_dir(&temp) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let removed = if path.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        match removed {
            Ok(()) => {
                tracing::info!(path = %path.display(), "removed what an interrupted optimize left")
            }
            Err(err) => {
                tracing::warn!(path = %path.display(), %err, "could not remove what an interrupted optimize left")
            }
        }
    }
}
