//! Moving a library's vectors between the embedded store and a Qdrant server: copy
//! every document's points, check counts and a sample of queries on both sides, and
//! only then switch. The source is left as it was.

use std::time::Instant;

use serde::Serialize;

use crate::catalog::DocumentStatus;
use crate::error::Result;
use crate::ingest::{Progress, Stage};
use crate::library::{Library, LibraryError};
use crate::store::location::{self, StoreLocation};
use crate::store::{Candidates, IndexedNode, QueryVectors, ScoredNode};

/// Nodes whose own vectors serve as the check queries.
const SAMPLE_QUERIES: usize = 6;
const CHECK_LIMIT: usize = 10;
const SCORE_TOLERANCE: f32 = 1e-4;

#[derive(Debug, Clone)]
pub enum MigrationTarget {
    Embedded,
    /// A server's gRPC URL; the collection is the library's own.
    Remote {
        url: String,
    },
}

#[derive(Debug, Clone, Serialize)]
pub struct MigrationReport {
    pub from: String,
    pub to: String,
    pub documents: usize,
    pub points: usize,
    /// Queries run on both stores with the same results.
    pub checked_queries: usize,
    pub seconds: f64,
}

impl MigrationTarget {
    /// Whether vectors at `location` are already where this target would put them: a
    /// server is the same server by its URL (its collection is always the library's own).
    pub fn holds(&self, location: &StoreLocation) -> bool {
        match (self, location) {
            (Self::Embedded, StoreLocation::Embedded) => true,
            (Self::Remote { url }, StoreLocation::Remote(config)) => config.url == *url,
            _ => false,
        }
    }
}

impl Library {
    /// Whether the library's vectors must move to be at `target`: a settings screen
    /// saves where they should be, which most of the time is where they are.
    pub fn needs_migration(&self, target: &MigrationTarget) -> bool {
        !target.holds(self.location())
    }

    pub async fn migrate(
        &mut self,
        target: MigrationTarget,
        progress: &dyn Progress,
    ) -> Result<MigrationReport> {
        let started = Instant::now();
        let target_location = self.target_location(target).await?;
        if &target_location == self.location() {
            return Err(LibraryError::AlreadyThere(target_location.describe()).into());
        }
        let source = self.store().await?;
        let needed = match target_location {
            StoreLocation::Embedded => crate::disk::for_nodes(source.count(None).await?),
            // Only the catalog is written here.
            StoreLocation::Remote(_) => crate::disk::WRITE_MARGIN,
        };
        crate::disk::ensure_room(self.root(), needed, crate::disk::Task::Migrate)?;
        let dimension = self.dimension().await?;
        let destination = self.open_store(&target_location, dimension, true).await?;
        let documents = self
            .catalog()
            .documents_with_status(DocumentStatus::Ready)
            .await?;
        let mismatch = |detail: String| LibraryError::MigrationMismatch {
            target: target_location.describe(),
            source_location: self.location().describe(),
            detail,
        };
        let mut points_copied = 0;
        let mut samples = Vec::new();
        for (index, document) in documents.iter().enumerate() {
            progress.stage(&document.file_name, Stage::Indexing, index, documents.len());
            let points = source.document_points(document.id).await?;
            let expected = points.len();
            pick_samples(&points, &mut samples);
            destination.upsert(points).await?;
            let copied = destination.count(Some(document.id)).await?;
            if copied != expected {
                return Err(mismatch(format!(
                    "{} has {expected} points here but {copied} there",
                    document.name
                ))
                .into());
            }
            points_copied += copied;
        }
        destination.flush().await?;
        destination.optimize().await?;
        progress.stage("", Stage::Indexing, documents.len(), documents.len());

        let doc_ids: Vec<i64> = documents.iter().map(|document| document.id).collect();
        let mut checked_queries = 0;
        for query in spread(&samples, SAMPLE_QUERIES) {
            for candidates in [
                Candidates::Sections(doc_ids.clone()),
                Candidates::LeavesOf(doc_ids.clone()),
            ] {
                let fusion = crate::search::SearchSettings::default().fusion;
                let here = source
                    .hybrid_scores(query, &candidates, CHECK_LIMIT, fusion)
                    .await?;
                let there = destination
                    .hybrid_scores(query, &candidates, CHECK_LIMIT, fusion)
                    .await?;
                tracing::debug!(?candidates, ?here, ?there, "migration check query");
                if !same_nodes(&here, &there) {
                    return Err(mismatch(format!(
                        "a check query ranked {:?} here but {:?} there",
                        ids(&here),
                        ids(&there)
                    ))
                    .into());
                }
                checked_queries += 1;
            }
        }
        let from = self.location().describe();
        self.switch_store(target_location, destination).await?;
        Ok(MigrationReport {
            from,
            to: self.location().describe(),
            documents: documents.len(),
            points: points_copied,
            checked_queries,
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    async fn target_location(&self, target: MigrationTarget) -> Result<StoreLocation> {
        Ok(match target {
            MigrationTarget::Embedded => StoreLocation::Embedded,
            MigrationTarget::Remote { url } => StoreLocation::Remote(
                self.qdrant_options()
                    .new_remote(&url, location::collection_name(self.catalog()).await?)?,
            ),
        })
    }
}

/// Keeps each document's root (the first point with the highest level) and first page
/// as candidate check queries.
fn pick_samples(points: &[IndexedNode], samples: &mut Vec<QueryVectors>) {
    let root = points.iter().max_by_key(|point| point.node.level);
    let page = points.iter().find(|point| point.node.level == 0);
    for point in root.into_iter().chain(page) {
        samples.push(QueryVectors {
            dense: point.first_window().to_vec(),
            sparse: point.sparse.clone(),
        });
    }
}

/// Up to `count` items spread evenly over `items`.
fn spread<T>(items: &[T], count: usize) -> Vec<&T> {
    if items.len() <= count {
        return items.iter().collect();
    }
    (0..count)
        .map(|index| &items[index * items.len() / count])
        .collect()
}

/// The same nodes came back, allowing for ties: where stored vectors tie exactly
/// (duplicate pages are common in filings) each engine orders them its own way inside
/// a prefetch, RRF turns a swapped rank into a different score, and a node near the cut
/// can trade places with its twin; a sharded collection merges per-shard prefetches,
/// which moves the same ties around. So every node above the cut on one side must be
/// among the other side's results, but for at most one in five.
fn same_nodes(here: &[ScoredNode], there: &[ScoredNode]) -> bool {
    if here.len() != there.len() {
        return false;
    }
    let above_cut = |nodes: &[ScoredNode]| -> Vec<u64> {
        let cut = nodes.last().map_or(f32::MIN, |node| node.score);
        nodes
            .iter()
            .filter(|node| node.score > cut + SCORE_TOLERANCE)
            .map(|node| node.id)
            .collect()
    };
    let found_in = |nodes: &[ScoredNode], ids: &[u64]| {
        let found = ids
            .iter()
            .filter(|id| nodes.iter().any(|node| node.id == **id))
            .count();
        found * 5 >= ids.len() * 4
    };
    found_in(there, &above_cut(here)) && found_in(here, &above_cut(there))
}

fn ids(nodes: &[ScoredNode]) -> Vec<u64> {
    nodes.iter().map(|node| node.id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_is_the_same_target_by_its_url() {
        let remote = |url: &str| {
            StoreLocation::Remote(crate::store::remote::RemoteConfig {
                url: url.to_string(),
                collection: "pagetree-1".to_string(),
                cluster: Default::default(),
                timeout_secs: 30,
            })
        };
        let server = MigrationTarget::Remote {
            url: "http://qdrant:6334".to_string(),
        };
        assert!(server.holds(&remote("http://qdrant:6334")));
        assert!(!server.holds(&remote("http://other:6334")));
        assert!(!server.holds(&StoreLocation::Embedded));
        assert!(MigrationTarget::Embedded.holds(&StoreLocation::Embedded));
        assert!(!MigrationTarget::Embedded.holds(&remote("http://qdrant:6334")));
    }

    fn scored(pairs: &[(u64, f32)]) -> Vec<ScoredNode> {
        pairs
            .iter()
            .map(|&(id, score)| ScoredNode { id, score })
            .collect()
    }

    #[test]
    fn the_same_nodes_match_whatever_their_order() {
        let here = scored(&[(1, 0.9), (2, 0.5), (3, 0.4), (4, 0.1)]);
        // 1 and 3 swapped places (an exact tie inside one prefetch), 4 and 5 tie at the cut.
        let there = scored(&[(3, 0.9), (2, 0.5), (1, 0.4), (5, 0.1)]);
        assert!(same_nodes(&here, &there));
    }

    #[test]
    fn one_node_in_five_may_trade_places_with_a_twin() {
        let here: Vec<ScoredNode> = (1..=11)
            .map(|id| ScoredNode {
                id,
                score: 1.0 / id as f32,
            })
            .collect();
        let mut there = here.clone();
        there[9].id = 99;
        assert!(same_nodes(&here, &there), "one of ten");
        there[8].id = 98;
        there[7].id = 97;
        assert!(!same_nodes(&here, &there), "three of ten");
    }

    #[test]
    fn a_missing_node_or_a_short_list_is_a_mismatch() {
        let here = scored(&[(1, 0.9), (2, 0.5), (4, 0.1)]);
        assert!(!same_nodes(&here, &scored(&[(7, 0.9), (2, 0.5), (4, 0.1)])));
        assert!(!same_nodes(&here, &scored(&[(1, 0.9), (2, 0.5)])));
    }

    #[test]
    fn spread_takes_evenly_from_the_whole_list() {
        let items: Vec<u32> = (0..10).collect();
        assert_eq!(spread(&items, 3), [&0, &3, &6]);
        assert_eq!(spread(&items[..2], 3), [&0, &1]);
    }
}
