//! Runs one strategy against the store: ranking steps, the walk, the knee, the trace.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use super::knee::sensitive_knee_cut;
use super::node_cache::NodeCache;
use super::walk::{elimination_walk, Stop, StopRule};
use super::{SelectedNode, Strategy, TraceStep};
use crate::store::{Candidates, Fusion, QueryVectors, ScoredNode, StoreError, VectorStore};
use crate::tree::Node;

/// A beam that still changes after this many steps is stopped anyway; trees are at most
/// a dozen levels deep, so reaching it means something oscillates.
const MAX_STEPS: usize = 64;

/// The state of one search: the query (embedded once), the nodes seen so far, the trace.
pub struct SearchRun<'a> {
    store: &'a dyn VectorStore,
    cache: &'a NodeCache,
    query: &'a QueryVectors,
    fusion: Fusion,
    root_fusion: Fusion,
    nodes: HashMap<u64, Node>,
    pub trace: Vec<TraceStep>,
    pub store_queries: usize,
    pub stopped_because: String,
    pub started: Instant,
}

impl<'a> SearchRun<'a> {
    /// A search over `store`, reading node payloads through `cache` (and filling it).
    pub fn new(
        store: &'a dyn VectorStore,
        cache: &'a NodeCache,
        query: &'a QueryVectors,
        fusion: Fusion,
        root_fusion: Option<Fusion>,
    ) -> Self {
        Self {
            store,
            cache,
            query,
            fusion,
            root_fusion: root_fusion.unwrap_or(fusion),
            nodes: HashMap::new(),
            trace: Vec::new(),
            store_queries: 0,
            stopped_because: String::new(),
            started: Instant::now(),
        }
    }

    /// Runs `strategy` from `roots` (one root id per searchable document) over the
    /// leaves of `documents`.
    pub async fn execute(
        &mut self,
        strategy: &Strategy,
        roots: &[u64],
        documents: &[i64],
    ) -> Result<Vec<ScoredNode>, StoreError> {
        if roots.is_empty() {
            self.stopped_because = "the library has no searchable documents".into();
            return Ok(Vec::new());
        }
        let chosen = match strategy {
            Strategy::Flat { k } => self.flat(*k, documents).await,
            Strategy::Branch { roots: count } => self.branch(roots, *count).await,
            Strategy::Beam { width } => self.fixed_beam(roots, *width).await,
            Strategy::Knee { max_roots } => self.knee(roots, *max_roots, 1.0).await,
            Strategy::SensitiveKnee {
                sensitivity,
                max_roots,
            } => self.knee(roots, *max_roots, *sensitivity).await,
            Strategy::ProxyPointer { .. } => Err(StoreError::Engine(
                "proxy-pointer is run by the library, not by the tree walk".into(),
            )),
        }?;
        self.load(&chosen).await?;
        Ok(chosen)
    }

    /// Ranks exactly `ids` (one store query). Payloads are read later, and only for the
    /// nodes a step keeps: a root step ranks every document and keeps a handful.
    pub async fn rank(&mut self, ids: Vec<u64>) -> Result<Vec<ScoredNode>, StoreError> {
        self.rank_with(ids, self.fusion).await
    }

    /// Ranks the documents' roots, with the root-step fusion.
    async fn rank_roots(&mut self, roots: &[u64]) -> Result<Vec<ScoredNode>, StoreError> {
        self.rank_with(roots.to_vec(), self.root_fusion).await
    }

    async fn rank_with(
        &mut self,
        ids: Vec<u64>,
        fusion: Fusion,
    ) -> Result<Vec<ScoredNode>, StoreError> {
        let limit = ids.len();
        if limit == 0 {
            return Ok(Vec::new());
        }
        let ranked = self
            .store
            .hybrid_scores(self.query, &Candidates::Ids(ids), limit, fusion)
            .await?;
        self.store_queries += 1;
        Ok(ranked)
    }

    /// Reads the payloads of `nodes` not read yet, in one store call.
    async fn load(&mut self, nodes: &[ScoredNode]) -> Result<(), StoreError> {
        let missing: Vec<u64> = nodes
            .iter()
            .map(|n| n.id)
            .filter(|id| !self.nodes.contains_key(id))
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        let (cached, missing) = self.cache.split(&missing);
        for node in cached {
            self.nodes.insert(node.id, node);
        }
        if missing.is_empty() {
            return Ok(());
        }
        let read = self.store.nodes(&missing).await?;
        self.cache.insert(&read);
        for node in read {
            self.nodes.insert(node.id, node);
        }
        Ok(())
    }

    fn children_of(&self, id: u64) -> &[u64] {
        self.nodes
            .get(&id)
            .map(|n| n.child_ids.as_slice())
            .unwrap_or(&[])
    }

    fn record(
        &mut self,
        label: impl Into<String>,
        candidates: &[ScoredNode],
        knee: Option<usize>,
        kept: usize,
        eliminated: Vec<u64>,
        beam: &[ScoredNode],
    ) {
        self.trace.push(TraceStep {
            label: label.into(),
            candidates: candidates.to_vec(),
            knee_index: knee,
            kept,
            eliminated,
            beam: beam.iter().map(|n| n.id).collect(),
        });
    }

    async fn flat(&mut self, k: usize, documents: &[i64]) -> Result<Vec<ScoredNode>, StoreError> {
        let ranked = self
            .store
            .hybrid_scores(
                self.query,
                &Candidates::LeavesOf(documents.to_vec()),
                k.max(1),
                self.fusion,
            )
            .await?;
        self.store_queries += 1;
        self.record(
            "top-k pages",
            &ranked,
            None,
            ranked.len(),
            Vec::new(),
            &ranked,
        );
        self.stopped_because = format!("took the {} best pages", ranked.len());
        Ok(ranked)
    }

    async fn branch(&mut self, roots: &[u64], count: usize) -> Result<Vec<ScoredNode>, StoreError> {
        let ranked_roots = self.rank_roots(roots).await?;
        let best: Vec<ScoredNode> = ranked_roots.iter().take(count.max(1)).cloned().collect();
        self.load(&best).await?;
        self.record("roots", &ranked_roots, None, best.len(), Vec::new(), &best);
        let mut queue: std::collections::VecDeque<ScoredNode> = best.into();
        let mut finals = Vec::new();
        let mut expansions = 0;
        while let Some(node) = queue.pop_front() {
            let children = self.children_of(node.id).to_vec();
            if children.is_empty() || expansions >= MAX_STEPS * 8 {
                finals.push(node);
                continue;
            }
            expansions += 1;
            let mut ids = vec![node.id];
            ids.extend(children);
            let ranked = self.rank(ids).await?;
            let position = ranked
                .iter()
                .position(|n| n.id == node.id)
                .unwrap_or(ranked.len());
            let winners: Vec<ScoredNode> = ranked[..position].to_vec();
            if winners.is_empty() {
                let kept = ranked
                    .iter()
                    .find(|n| n.id == node.id)
                    .cloned()
                    .unwrap_or(node);
                self.record(
                    format!("node {} beats its children", kept.id),
                    &ranked,
                    None,
                    1,
                    Vec::new(),
                    std::slice::from_ref(&kept),
                );
                finals.push(kept);
            } else {
                self.record(
                    format!("children replace node {}", node.id),
                    &ranked,
                    None,
                    winners.len(),
                    vec![node.id],
                    &winners,
                );
                self.load(&winners).await?;
                queue.extend(winners);
            }
        }
        self.stopped_because = "every branch ended at a node that beats its children".into();
        finals.sort_by(|a, b| b.score.total_cmp(&a.score));
        self.record("selected", &finals, None, finals.len(), Vec::new(), &finals);
        Ok(finals)
    }

    async fn fixed_beam(
        &mut self,
        roots: &[u64],
        width: usize,
    ) -> Result<Vec<ScoredNode>, StoreError> {
        let width = width.max(1);
        let ranked_roots = self.rank_roots(roots).await?;
        let mut beam: Vec<ScoredNode> = ranked_roots.iter().take(width).cloned().collect();
        self.record("roots", &ranked_roots, None, beam.len(), Vec::new(), &beam);
        let mut rule = StopRule::new(MAX_STEPS);
        rule.check(&beam);
        loop {
            let (ranked, beam_ids, children) = self.expand(&beam).await?;
            let walk = elimination_walk(&ranked, &beam_ids, &children, Some(width));
            self.record(
                "expand",
                &ranked,
                None,
                ranked.len(),
                walk.eliminated.clone(),
                &walk.beam,
            );
            beam = walk.beam;
            match rule.check(&beam) {
                Stop::Continue => continue,
                stop => {
                    self.stopped_because = stop_reason(stop);
                    return Ok(beam);
                }
            }
        }
    }

    async fn knee(
        &mut self,
        roots: &[u64],
        max_roots: usize,
        sensitivity: f32,
    ) -> Result<Vec<ScoredNode>, StoreError> {
        let ranked_roots = self.rank_roots(roots).await?;
        let top: Vec<ScoredNode> = ranked_roots
            .iter()
            .take(max_roots.max(1))
            .cloned()
            .collect();
        let cut = sensitive_knee_cut(&scores(&top), sensitivity);
        let mut beam: Vec<ScoredNode> = top[..cut.keep].to_vec();
        self.record("roots", &top, cut.knee_index, cut.keep, Vec::new(), &beam);
        let mut rule = StopRule::new(MAX_STEPS);
        rule.check(&beam);
        loop {
            self.load(&beam).await?;
            if beam.iter().all(|n| self.children_of(n.id).is_empty()) {
                self.stopped_because = "the beam holds only pages".into();
                return Ok(beam);
            }
            let (ranked, beam_ids, children) = self.expand(&beam).await?;
            // The knee is cut before the walk: eliminating first would leave the knee
            // a handful of points to work on.
            let cut = sensitive_knee_cut(&scores(&ranked), sensitivity);
            let walk = elimination_walk(&ranked[..cut.keep], &beam_ids, &children, None);
            self.record(
                "expand",
                &ranked,
                cut.knee_index,
                cut.keep,
                walk.eliminated.clone(),
                &walk.beam,
            );
            beam = walk.beam;
            match rule.check(&beam) {
                Stop::Continue => continue,
                stop => {
                    self.stopped_because = stop_reason(stop);
                    return Ok(beam);
                }
            }
        }
    }

    /// Ranks the beam together with its children.
    async fn expand(
        &mut self,
        beam: &[ScoredNode],
    ) -> Result<(Vec<ScoredNode>, HashSet<u64>, HashMap<u64, Vec<u64>>), StoreError> {
        self.load(beam).await?;
        let beam_ids: HashSet<u64> = beam.iter().map(|n| n.id).collect();
        let children: HashMap<u64, Vec<u64>> = beam
            .iter()
            .map(|n| (n.id, self.children_of(n.id).to_vec()))
            .collect();
        let mut ids: Vec<u64> = beam.iter().map(|n| n.id).collect();
        ids.extend(children.values().flatten());
        let ranked = self.rank(ids).await?;
        Ok((ranked, beam_ids, children))
    }

    /// Replaces every chosen node wider than `max_pages` pages by its best pages: its
    /// pages are ranked in one hybrid query and cut at the knee, at most `max_pages` kept.
    pub async fn narrow_wide_nodes(
        &mut self,
        chosen: Vec<ScoredNode>,
        max_pages: u32,
    ) -> Result<Vec<ScoredNode>, StoreError> {
        let mut narrowed = Vec::with_capacity(chosen.len());
        let mut narrowed_any = false;
        for scored in chosen {
            let Some(node) = self.nodes.get(&scored.id).cloned() else {
                narrowed.push(scored);
                continue;
            };
            if node.page_end - node.page_start < max_pages {
                narrowed.push(scored);
                continue;
            }
            // Pages are the first nodes of a document: page p is node p - 1.
            let pages: Vec<u64> = (node.page_start..=node.page_end)
                .map(|page| crate::tree::node_id(node.doc_id, page as usize - 1))
                .collect();
            let ranked = self.rank(pages).await?;
            let cut = sensitive_knee_cut(&scores(&ranked), 1.0);
            let keep = cut.keep.min(max_pages as usize).max(1);
            // The pages inherit the section's score so that sections keep their order.
            let best: Vec<ScoredNode> = ranked[..keep.min(ranked.len())]
                .iter()
                .map(|page| ScoredNode {
                    id: page.id,
                    score: scored.score * (page.score / ranked[0].score.max(f32::MIN_POSITIVE)),
                })
                .collect();
            self.record(
                format!(
                    "narrow pages {}-{} of {}",
                    node.page_start, node.page_end, node.file_name
                ),
                &ranked,
                cut.knee_index,
                best.len(),
                vec![node.id],
                &best,
            );
            narrowed.extend(best);
            narrowed_any = true;
        }
        if narrowed_any {
            self.load(&narrowed).await?;
            narrowed.sort_by(|a, b| b.score.total_cmp(&a.score));
            self.record(
                "selected",
                &narrowed,
                None,
                narrowed.len(),
                Vec::new(),
                &narrowed,
            );
        }
        Ok(narrowed)
    }

    /// The chosen nodes with their citation data, best first.
    pub fn selected(&self, chosen: &[ScoredNode]) -> Vec<SelectedNode> {
        chosen
            .iter()
            .filter_map(|scored| {
                let node = self.nodes.get(&scored.id)?;
                Some(SelectedNode {
                    id: node.id,
                    doc_id: node.doc_id,
                    file_name: node.file_name.clone(),
                    level: node.level,
                    page_start: node.page_start,
                    page_end: node.page_end,
                    score: scored.score,
                })
            })
            .collect()
    }
}

fn scores(nodes: &[ScoredNode]) -> Vec<f32> {
    nodes.iter().map(|n| n.score).collect()
}

fn stop_reason(stop: Stop) -> String {
    match stop {
        Stop::Unchanged => "the beam stopped changing".into(),
        Stop::Cycle => "the beam returned to an earlier state (a cycle)".into(),
        Stop::StepLimit => format!("the step limit ({MAX_STEPS}) was reached"),
        Stop::Continue => String::new(),
    }
}
