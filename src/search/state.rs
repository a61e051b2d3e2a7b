//! The state of one search, which every tree strategy works on: the nodes' raw scores
//! (each fetched once), their payloads, the trace, the boosts and page evidence every
//! step ranks with, and whether the search covers the whole library.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use super::document_words::WordLookup;
use super::node_cache::NodeCache;
use super::page_boosts::PageBoosts;
use super::{SectionScoring, SelectedNode, TraceStep};
use crate::catalog::CatalogError;
use crate::store::fusion::SimilarityScale;
use crate::store::{
    fusion, Candidates, Fusion, FusionMethod, QueryVectors, RawScores, ScoredNode, StoreError,
    VectorStore,
};
use crate::tree::{doc_id_of, Node};

mod narrow;

#[cfg(test)]
use narrow::pages_under;
pub use narrow::NARROWING_DEPTH;

/// Roots a search over the whole library accepts from the store beyond the searched
/// ones: those of documents being ingested, or whose ingestion failed, before they
/// are cleaned up. With more, the roots are ranked by their ids instead.
const STRAY_ROOTS: usize = 64;

/// How many pages each half of the hybrid score passes on as evidence for best-page
/// section scoring: a section none of whose pages is among them is scored by its own
/// text alone. Deeper lists let more documents' stray pages lift their sections, and
/// cost a search more payload reads; shallower ones leave some documents' roots without
/// their pages. This depth is the shallowest that still brings the right filing among
/// the first five as often as deeper lists do.
pub const PAGE_EVIDENCE_DEPTH: usize = 48;

/// The best similarities among one document's pages that made the evidence lists:
/// (page number, similarity), one list per half of the hybrid score.
#[derive(Debug, Default)]
struct PageEvidence {
    dense: Vec<(u32, f32)>,
    sparse: Vec<(u32, f32)>,
}

impl PageEvidence {
    /// The best similarity of each half among pages `first..=last`.
    fn best_between(&self, first: u32, last: u32) -> (Option<f32>, Option<f32>) {
        let best = |list: &[(u32, f32)]| {
            list.iter()
                .filter(|(page, _)| (first..=last).contains(page))
                .map(|&(_, similarity)| similarity)
                .reduce(f32::max)
        };
        (best(&self.dense), best(&self.sparse))
    }
}

/// The state of one search: the query (embedded once), the nodes seen so far, the trace.
pub struct SearchState<'a> {
    store: &'a dyn VectorStore,
    cache: &'a NodeCache,
    query: &'a QueryVectors,
    fusion: Fusion,
    root_fusion: Fusion,
    /// Whether the search covers every searchable document, so that roots can be
    /// found by a payload filter (see [`Candidates::AllRoots`]).
    whole_library: bool,
    /// Every root's scores were read already (see [`SearchState::gather_page_evidence`]).
    every_root_scored: bool,
    /// Whether the store may hold pages of documents not searched (being ingested).
    others_stored: bool,
    stray_roots: usize,
    /// Added to the fused scores of these roots at the first step (document cards that
    /// match the question).
    root_boosts: HashMap<u64, f32>,
    /// The boosts by document, when they weigh on every step, not only the first.
    carried_boosts: HashMap<i64, f32>,
    /// The whole-text boosts while they are looked up: carried once they are in.
    word_lookup: Option<WordLookup>,
    word_lookup_failure: Option<CatalogError>,
    /// How many documents the whole-text lookup ranked up.
    ranked_by_words: usize,
    /// Pages the question asks for by what they are, at every step that ranks them.
    page_boosts: PageBoosts,
    section_scoring: SectionScoring,
    /// With best-page scoring, the evidence per document, gathered once per search.
    page_evidence: HashMap<i64, PageEvidence>,
    /// The roots ranked at the first step: their pages are all their document's.
    root_ids: HashSet<u64>,
    nodes: HashMap<u64, Node>,
    /// The raw scores of every node ranked so far in this search.
    scores: HashMap<u64, RawScores>,
    /// The pages narrowing chose, described from the node each one replaced: their
    /// payloads are never read, which was a fifth of a sensitive-knee search's time
    /// (about 130 pages at 1.3 ms, 100k nodes).
    narrowed_pages: HashMap<u64, SelectedNode>,
    pub trace: Vec<TraceStep>,
    pub store_queries: usize,
    pub stopped_because: String,
    pub started: Instant,
}

impl<'a> SearchState<'a> {
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
            whole_library: false,
            every_root_scored: false,
            others_stored: true,
            stray_roots: STRAY_ROOTS,
            root_boosts: HashMap::new(),
            carried_boosts: HashMap::new(),
            word_lookup: None,
            word_lookup_failure: None,
            ranked_by_words: 0,
            page_boosts: PageBoosts::default(),
            section_scoring: SectionScoring::OwnText,
            page_evidence: HashMap::new(),
            root_ids: HashSet::new(),
            nodes: HashMap::new(),
            scores: HashMap::new(),
            narrowed_pages: HashMap::new(),
            trace: Vec::new(),
            store_queries: 0,
            stopped_because: String::new(),
            started: Instant::now(),
        }
    }

    /// Declares that the search covers every searchable document of the library: the
    /// store is then asked for all its roots by a payload filter, which costs it far
    /// less than thousands of ids, and the roots not searched are dropped. Unless
    /// `others_stored` (documents are being ingested), top-k asks for the best of all
    /// pages too: other documents' pages would take places in its two lists before
    /// they are fused, so it could not simply drop them afterwards.
    pub fn over_whole_library(mut self, others_stored: bool) -> Self {
        self.whole_library = true;
        self.others_stored = others_stored;
        self
    }

    /// Ranks these roots up at the first step by the boost given (root id → boost), and
    /// with `carried` every node of their documents at later steps too.
    pub fn with_root_boosts(mut self, boosts: HashMap<u64, f32>, carried: bool) -> Self {
        if carried {
            self.carried_boosts = boosts
                .iter()
                .map(|(&root, &boost)| (doc_id_of(root), boost))
                .collect();
        }
        self.root_boosts = boosts;
        self
    }

    /// Adds these boosts (root id → boost) to the roots' at the first step, and to every
    /// node of their documents at later steps, on top of any boosts given before.
    pub fn with_carried_boosts(mut self, boosts: HashMap<u64, f32>) -> Self {
        self.carry(boosts);
        self
    }

    fn carry(&mut self, boosts: HashMap<u64, f32>) {
        for (root, boost) in boosts {
            *self.root_boosts.entry(root).or_insert(0.0) += boost;
            *self.carried_boosts.entry(doc_id_of(root)).or_insert(0.0) += boost;
        }
    }

    /// Carries the boosts `lookup` finds (as [`SearchState::with_carried_boosts`]) from
    /// the first step that weighs documents on: the store calls before it run while
    /// the catalog is asked.
    pub fn with_word_lookup(mut self, lookup: WordLookup) -> Self {
        self.word_lookup = Some(lookup);
        self
    }

    /// Waits for the whole-text boosts, if they are still being looked up, and carries
    /// them; a failed lookup is kept for [`SearchState::finish_word_lookup`].
    async fn settle_word_lookup(&mut self) {
        let Some(lookup) = self.word_lookup.take() else {
            return;
        };
        match lookup.boosts().await {
            Ok(boosts) => {
                self.ranked_by_words = boosts.len();
                self.carry(boosts);
            }
            Err(failure) => self.word_lookup_failure = Some(failure),
        }
    }

    /// Settles the whole-text lookup: how many documents it ranked up, or why it failed.
    pub async fn finish_word_lookup(&mut self) -> Result<usize, CatalogError> {
        self.settle_word_lookup().await;
        match self.word_lookup_failure.take() {
            Some(failure) => Err(failure),
            None => Ok(self.ranked_by_words),
        }
    }

    /// What the question's card matches add to every node of their documents, at every
    /// step (empty when the question named nothing).
    pub fn document_boosts(&self) -> &HashMap<i64, f32> {
        &self.carried_boosts
    }

    /// Ranks up these pages (and the sections holding them) wherever a step ranks them.
    pub fn with_page_boosts(mut self, boosts: PageBoosts) -> Self {
        self.page_boosts = boosts;
        self
    }

    pub fn page_boosts(&self) -> &PageBoosts {
        &self.page_boosts
    }

    /// Scores sections as `scoring` says (their own text by default).
    pub fn with_section_scoring(mut self, scoring: SectionScoring) -> Self {
        self.section_scoring = scoring;
        self
    }

    pub fn section_scoring(&self) -> SectionScoring {
        self.section_scoring
    }

    /// The payload of `id`, if read in this search.
    pub(super) fn node(&self, id: u64) -> Option<&Node> {
        self.nodes.get(&id)
    }

    #[cfg(test)]
    fn with_stray_roots(mut self, stray_roots: usize) -> Self {
        self.stray_roots = stray_roots;
        self
    }

    /// Ranks exactly `ids` (at most one store call, for the ones not scored yet).
    /// Payloads are read later, and only for the nodes a step keeps: a root step ranks
    /// every document and keeps a handful.
    pub async fn rank(&mut self, ids: Vec<u64>) -> Result<Vec<ScoredNode>, StoreError> {
        let scale = self.evidence_scale();
        let mut ranked = self.rank_with(ids, self.fusion, scale).await?;
        self.settle_word_lookup().await;
        // What the question says about its document holds at every step: without it the
        // second step compares two boosted filings on content alone, and the filing the
        // card matched less well can take the beam.
        if !self.carried_boosts.is_empty() {
            for node in &mut ranked {
                let boost = self.carried_boosts.get(&doc_id_of(node.id));
                node.score += boost.copied().unwrap_or(0.0);
            }
            crate::store::canonical_order(&mut ranked);
        }
        Ok(self.with_page_boosts_added(ranked))
    }

    /// `ranked` with the page boosts added: to a boosted page, and to a section read
    /// already whose span holds one.
    fn with_page_boosts_added(&self, mut ranked: Vec<ScoredNode>) -> Vec<ScoredNode> {
        if self.page_boosts.is_empty() {
            return ranked;
        }
        for node in &mut ranked {
            // A node not read yet is a page or a section whose span is not known: a
            // boosted page's id is never a section's, so the page lookup is exact.
            node.score += match self.nodes.get(&node.id) {
                Some(read) => self
                    .page_boosts
                    .of_span(read.doc_id, read.page_start, read.page_end),
                None => self
                    .page_boosts
                    .of_page(doc_id_of(node.id), crate::tree::page_of_leaf(node.id)),
            };
        }
        crate::store::canonical_order(&mut ranked);
        ranked
    }

    /// The similarities of the evidence pages (the question's best pages by each half),
    /// lowest to highest: the question's own scale, on which the pages of the search's
    /// choice are ranked against each other. None before any evidence is read.
    pub fn evidence_scale(&self) -> Option<SimilarityScale> {
        let bounds = |half: fn(&PageEvidence) -> &[(u32, f32)]| {
            fusion::widened(
                None,
                self.page_evidence
                    .values()
                    .flat_map(|evidence| half(evidence).iter().map(|&(_, similarity)| similarity)),
            )
        };
        Some(SimilarityScale {
            dense: bounds(|evidence| &evidence.dense)?,
            sparse: bounds(|evidence| &evidence.sparse),
        })
    }

    /// Ranks the documents' roots, with the root-step fusion.
    pub(super) async fn rank_roots(
        &mut self,
        roots: &[u64],
    ) -> Result<Vec<ScoredNode>, StoreError> {
        self.root_ids.extend(roots.iter().copied());
        if self.whole_library && !self.every_root_scored {
            let scored = self.every_root(roots).await?;
            self.keep_searched_roots(roots, scored);
        }
        // Every root is ranked: their own spread is the documents' standing.
        let mut ranked = self
            .rank_with(roots.to_vec(), self.root_fusion, None)
            .await?;
        self.settle_word_lookup().await;
        if !self.root_boosts.is_empty() {
            for root in &mut ranked {
                root.score += self.root_boosts.get(&root.id).copied().unwrap_or(0.0);
            }
            crate::store::canonical_order(&mut ranked);
        }
        Ok(ranked)
    }

    /// Scores every root in the store in one call. When the store holds too many others
    /// for one answer, nothing is kept (`None`), and the roots are scored by their ids
    /// as in a search over part of the library.
    async fn every_root(&self, roots: &[u64]) -> Result<Option<Vec<RawScores>>, StoreError> {
        let limit = roots.len() + self.stray_roots;
        let scored = self
            .store
            .raw_scores_of(self.query, &Candidates::AllRoots, limit)
            .await?;
        Ok((scored.len() < limit).then_some(scored))
    }

    /// Keeps the scores of `roots` among every root's (the answer of
    /// [`SearchState::every_root`], whose store call it counts: that one borrows the
    /// state only to read, so that it can run beside the page evidence).
    fn keep_searched_roots(&mut self, roots: &[u64], scored: Option<Vec<RawScores>>) {
        self.store_queries += 1;
        self.every_root_scored = true;
        let Some(scored) = scored else {
            return;
        };
        let searched: HashSet<u64> = roots.iter().copied().collect();
        self.scores.extend(
            scored
                .into_iter()
                .filter(|scores| searched.contains(&scores.id))
                .map(|scores| (scores.id, scores)),
        );
    }

    /// Ranks `ids` with `fusion`; with min–max and a `scale` (the question's evidence,
    /// see [`SearchState::evidence_scale`]), each half is placed on that scale rather
    /// than stretched over the handful of nodes a step ranks, where a hair's lead in one
    /// half became a whole point: a Russian article's section whose keyword matched
    /// went before the one its best page by meaning was in.
    async fn rank_with(
        &mut self,
        mut ids: Vec<u64>,
        fusion: Fusion,
        scale: Option<SimilarityScale>,
    ) -> Result<Vec<ScoredNode>, StoreError> {
        ids.sort_unstable();
        ids.dedup();
        self.score(&ids).await?;
        if self.page_evidence.is_empty() {
            return Ok(fusion::fuse(
                ids.iter().filter_map(|id| self.scores.get(id)),
                fusion,
            ));
        }
        let pooled: Vec<RawScores> = ids
            .iter()
            .filter_map(|id| self.scores.get(id))
            .map(|raw| self.with_page_evidence(*raw))
            .collect();
        Ok(
            match scale.filter(|_| fusion.method == FusionMethod::MinMax) {
                Some(scale) => fusion::fuse_min_max_on_scale(&pooled, scale, fusion),
                None => fusion::fuse(&pooled, fusion),
            },
        )
    }

    /// Reads the best pages of the searched documents by each half of the hybrid score,
    /// in one store call: the evidence best-page scoring lifts sections by. Over the
    /// whole library, every root is scored at the same time (`roots` are those the
    /// search ranks first): the two calls are the first step's fixed cost (about 1.3 and 2 ms on a
    /// 100k-node library), and neither needs the other.
    pub(super) async fn gather_page_evidence(
        &mut self,
        documents: &[i64],
        roots: &[u64],
    ) -> Result<(), StoreError> {
        let pages = if self.whole_library && !self.others_stored {
            Candidates::AllLeaves
        } else {
            Candidates::LeavesOf(documents.to_vec())
        };
        let evidence = self
            .store
            .similarity_lists(self.query, &pages, PAGE_EVIDENCE_DEPTH, false);
        let lists = if self.whole_library && !self.every_root_scored {
            let (scored, lists) = futures::try_join!(self.every_root(roots), evidence)?;
            self.keep_searched_roots(roots, scored);
            lists
        } else {
            evidence.await?
        };
        self.store_queries += 1;
        let mut evidence: HashMap<i64, PageEvidence> = HashMap::new();
        for (id, similarity) in lists.dense {
            let page = (crate::tree::page_of_leaf(id), similarity);
            evidence.entry(doc_id_of(id)).or_default().dense.push(page);
        }
        for (id, similarity) in lists.sparse {
            let page = (crate::tree::page_of_leaf(id), similarity);
            evidence.entry(doc_id_of(id)).or_default().sparse.push(page);
        }
        self.page_evidence = evidence;
        Ok(())
    }

    /// A section's raw scores lifted, half by half, to the best of its pages'; a page's
    /// (or a node whose pages are not known yet) as they are.
    fn with_page_evidence(&self, raw: RawScores) -> RawScores {
        let doc = doc_id_of(raw.id);
        let span = if self.root_ids.contains(&raw.id) {
            Some((1, u32::MAX))
        } else {
            self.nodes
                .get(&raw.id)
                .filter(|node| !node.is_leaf())
                .map(|node| (node.page_start, node.page_end))
        };
        let (Some((first, last)), Some(evidence)) = (span, self.page_evidence.get(&doc)) else {
            return raw;
        };
        let (dense, sparse) = evidence.best_between(first, last);
        RawScores {
            id: raw.id,
            dense: dense.map_or(raw.dense, |best| best.max(raw.dense)),
            sparse: match (raw.sparse, sparse) {
                (Some(own), Some(best)) => Some(own.max(best)),
                (own, best) => own.or(best),
            },
        }
    }

    /// The page of `in_documents` with the best evidence: the best fused score, on the
    /// question's scale, of the pages the evidence lists hold (a page missing from one
    /// list gains nothing from that half). None before any evidence is read.
    pub(super) fn best_evidence_page(&self, in_documents: &HashSet<i64>) -> Option<u64> {
        let scale = self.evidence_scale()?;
        let mut halves: HashMap<u64, (Option<f32>, Option<f32>)> = HashMap::new();
        for (&doc, evidence) in self
            .page_evidence
            .iter()
            .filter(|(doc, _)| in_documents.contains(doc))
        {
            for &(page, similarity) in &evidence.dense {
                let id = crate::tree::page_node_id(doc, page);
                halves.entry(id).or_default().0 = Some(similarity);
            }
            for &(page, similarity) in &evidence.sparse {
                let id = crate::tree::page_node_id(doc, page);
                halves.entry(id).or_default().1 = Some(similarity);
            }
        }
        // A page missing from the dense list sits at the scale's floor: it adds nothing.
        let pages: Vec<RawScores> = halves
            .into_iter()
            .map(|(id, (dense, sparse))| RawScores {
                id,
                dense: dense.unwrap_or(scale.dense.0),
                sparse,
            })
            .collect();
        fusion::fuse_min_max_on_scale(&pages, scale, self.fusion)
            .first()
            .map(|page| page.id)
    }

    /// Whether one of `chosen` (their payloads loaded) is the page `page_id` or holds it.
    pub(super) fn covers(&self, chosen: &[ScoredNode], page_id: u64) -> bool {
        let (doc, page) = (doc_id_of(page_id), crate::tree::page_of_leaf(page_id));
        chosen.iter().any(|node| {
            node.id == page_id
                || self.nodes.get(&node.id).is_some_and(|node| {
                    node.doc_id == doc && (node.page_start..=node.page_end).contains(&page)
                })
        })
    }

    /// With best-page scoring, reads the payloads of the children of `parents` that are
    /// sections, whose page ranges their scores need (pages are known by their ids).
    pub(super) async fn load_section_children(
        &mut self,
        parents: &[u64],
    ) -> Result<(), StoreError> {
        if self.page_evidence.is_empty() {
            return Ok(());
        }
        // Children of a section none of whose pages is evidence keep their own scores,
        // so their page ranges are not needed.
        let sections: Vec<ScoredNode> = parents
            .iter()
            .filter_map(|id| self.nodes.get(id))
            .filter(|parent| parent.level > 1)
            .filter(|parent| {
                self.page_evidence
                    .get(&parent.doc_id)
                    .is_some_and(|evidence| {
                        let (dense, sparse) =
                            evidence.best_between(parent.page_start, parent.page_end);
                        dense.is_some() || sparse.is_some()
                    })
            })
            .flat_map(|parent| parent.child_ids.iter())
            .map(|&id| ScoredNode { id, score: 0.0 })
            .collect();
        self.load(&sections).await
    }

    /// Fetches the raw scores of the nodes among `ids` not scored yet, in one store
    /// call. A node's raw scores do not depend on what it is ranked against, so each
    /// step fuses from these instead of asking the store to rank its candidates again.
    pub(super) async fn score(&mut self, ids: &[u64]) -> Result<(), StoreError> {
        let missing: Vec<u64> = ids
            .iter()
            .copied()
            .filter(|id| !self.scores.contains_key(id))
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        let scored = self.store.raw_scores(self.query, &missing).await?;
        self.store_queries += 1;
        self.scores
            .extend(scored.into_iter().map(|scores| (scores.id, scores)));
        Ok(())
    }

    /// Reads the payloads of `nodes` not read yet, in one store call.
    pub(super) async fn load(&mut self, nodes: &[ScoredNode]) -> Result<(), StoreError> {
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

    pub(super) fn children_of(&self, id: u64) -> &[u64] {
        self.nodes
            .get(&id)
            .map(|n| n.child_ids.as_slice())
            .unwrap_or(&[])
    }

    pub(super) fn record(
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

    /// The best `k` of `everywhere` when the search covers the whole library and the
    /// store holds nothing else (one cheap payload filter), else of `of_documents`.
    pub(super) async fn top_of_searched(
        &mut self,
        everywhere: Candidates,
        of_documents: Candidates,
        k: usize,
        documents: &[i64],
    ) -> Result<Vec<ScoredNode>, StoreError> {
        if self.whole_library && !self.others_stored {
            let ranked = self.top_pages(&everywhere, k).await?;
            // A node of a document not searched (one whose ingestion began since the
            // catalog was read) means the answer is asked again of the searched
            // documents alone.
            let searched: HashSet<i64> = documents.iter().copied().collect();
            if !ranked.is_empty() && ranked.iter().all(|n| searched.contains(&doc_id_of(n.id))) {
                return Ok(ranked);
            }
        }
        self.top_pages(&of_documents, k).await
    }

    async fn top_pages(
        &mut self,
        pages: &Candidates,
        k: usize,
    ) -> Result<Vec<ScoredNode>, StoreError> {
        self.store_queries += 1;
        self.store
            .hybrid_scores(self.query, pages, k.max(1), self.fusion)
            .await
    }

    /// The best `k` pages of the document of `chosen` that no chosen node covers: what
    /// flat top-k would take there, to fill the budget a tree's adaptive stop left
    /// unspent. Nothing when the choice spans several documents. Recorded as a trace
    /// step of its own, so that what the tree chose and what filled the budget stay
    /// apart.
    pub(crate) async fn budget_fill(
        &mut self,
        chosen: &[ScoredNode],
        k: usize,
    ) -> Result<Vec<ScoredNode>, StoreError> {
        let covered = self.selected(chosen);
        let mut documents: Vec<i64> = covered.iter().map(|node| node.doc_id).collect();
        documents.sort_unstable();
        documents.dedup();
        // Only once the tree has settled on one document, the case the fill was measured
        // on (a search told its document).
        if documents.len() != 1 {
            return Ok(Vec::new());
        }
        let is_covered = |id: u64| {
            let (doc, page) = (doc_id_of(id), crate::tree::page_of_leaf(id));
            covered
                .iter()
                .any(|node| node.doc_id == doc && (node.page_start..=node.page_end).contains(&page))
        };
        let ranked = self
            .top_pages(&Candidates::LeavesOf(documents), k + chosen.len())
            .await?;
        let fill: Vec<ScoredNode> = ranked
            .into_iter()
            .filter(|page| !is_covered(page.id))
            .take(k)
            .collect();
        self.load(&fill).await?;
        let mut selection: Vec<ScoredNode> = chosen.to_vec();
        selection.extend(fill.iter().cloned());
        self.record(
            "budget filled",
            &fill,
            None,
            fill.len(),
            Vec::new(),
            &selection,
        );
        Ok(fill)
    }

    /// The chosen nodes with their citation data, best first.
    pub fn selected(&self, chosen: &[ScoredNode]) -> Vec<SelectedNode> {
        chosen
            .iter()
            .filter_map(|scored| {
                let Some(node) = self.nodes.get(&scored.id) else {
                    let page = self.narrowed_pages.get(&scored.id)?;
                    return Some(SelectedNode {
                        score: scored.score,
                        ..page.clone()
                    });
                };
                Some(SelectedNode::of(node, scored.score))
            })
            .collect()
    }
}

pub(super) fn scores(nodes: &[ScoredNode]) -> Vec<f32> {
    nodes.iter().map(|n| n.score).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::strategies::Plan;
    use crate::search::Strategy;
    use crate::store::edge::EdgeStore;
    use crate::store::IndexedNode;
    use crate::synthetic::Generator;

    const DIMENSION: usize = 32;
    const FUSION: Fusion = Fusion::rrf(2, 1.0, 1.0);

    /// Runs a tree strategy from a search, as `Library::search` does.
    trait Execute {
        async fn execute(
            &mut self,
            strategy: &Strategy,
            roots: &[u64],
            documents: &[i64],
        ) -> Result<Vec<ScoredNode>, StoreError>;
    }

    impl Execute for SearchState<'_> {
        async fn execute(
            &mut self,
            strategy: &Strategy,
            roots: &[u64],
            documents: &[i64],
        ) -> Result<Vec<ScoredNode>, StoreError> {
            let Plan::Tree(tree) = strategy.plan() else {
                panic!("{strategy:?} does not walk the trees");
            };
            tree.select(self, roots, documents).await
        }
    }

    /// A store holding a 120-page and a 6-page synthetic document; returns the store,
    /// each document's root and the query.
    async fn two_documents(dir: &std::path::Path) -> (EdgeStore, Vec<ScoredNode>, QueryVectors) {
        documents(dir, &[(1, 120), (2, 6)]).await
    }

    /// A store holding synthetic documents of these (id, pages).
    async fn documents(
        dir: &std::path::Path,
        shapes: &[(i64, usize)],
    ) -> (EdgeStore, Vec<ScoredNode>, QueryVectors) {
        let store = EdgeStore::open(dir, DIMENSION).expect("store");
        let mut generator = Generator::new(17, DIMENSION).expect("generator");
        let mut roots = Vec::new();
        for &(doc, pages) in shapes {
            let nodes = generator.document_without_ties(doc, "narrow.pdf", pages);
            let root = nodes.iter().map(|n| n.node.id).max().expect("a root");
            roots.push(ScoredNode {
                id: root,
                score: 1.0 / doc as f32,
            });
            store.upsert(nodes).await.expect("upsert");
        }
        (store, roots, generator.query())
    }

    /// A unit vector whose cosine with the query (the first axis) is `cosine`, the rest
    /// of it along an axis of its own.
    fn along(cosine: f32, axis: usize) -> Vec<f32> {
        let mut vector = vec![0.0; DIMENSION];
        vector[0] = cosine;
        vector[1 + axis % (DIMENSION - 1)] = (1.0 - cosine * cosine).sqrt();
        vector
    }

    /// `count` pages that say nothing of their own.
    fn plain_pages(count: usize) -> Vec<crate::describe::Description> {
        (0..count)
            .map(|_| crate::describe::Description {
                description: "a page".into(),
                keywords: Vec::new(),
            })
            .collect()
    }

    /// A 32-page document, 4 pages to a section, two sections of sections under the
    /// root. The first half's summaries resemble the query (cosine .6 and .5) and its
    /// pages do not (.1); the second half's summaries are generic (0), and one of its
    /// pages, 29, answers the query (.95) and is the only one sharing its term. Returns
    /// the root's id.
    async fn evidence_below_a_generic_summary(store: &EdgeStore) -> u64 {
        let mut nodes = crate::tree::leaves(1, "deep.pdf", plain_pages(32));
        for group in 0..8 {
            let children: Vec<usize> = (group * 4..group * 4 + 4).collect();
            crate::tree::add_parent(&mut nodes, &children, format!("section {group}"), None);
        }
        crate::tree::add_parent(&mut nodes, &[32, 33, 34, 35], "first half".into(), None);
        crate::tree::add_parent(&mut nodes, &[36, 37, 38, 39], "second half".into(), None);
        crate::tree::add_parent(&mut nodes, &[40, 41], "the document".into(), None);
        let cosine = |node: &Node| match (node.level, node.page_start) {
            (0, 29) => 0.95,
            (0, _) => 0.1,
            (1, start) if start <= 16 => 0.5,
            (2, 1) => 0.6,
            (3, _) => 0.3,
            _ => 0.0,
        };
        let root = nodes.last().expect("a root").id;
        let points = nodes
            .into_iter()
            .enumerate()
            .map(|(index, node)| IndexedNode {
                dense: vec![along(cosine(&node), index)],
                // Only the answering page shares the query's term.
                sparse: crate::store::Sparse {
                    indices: vec![if cosine(&node) > 0.9 { 7 } else { 8 }],
                    values: vec![1.0],
                },
                node,
            })
            .collect();
        store.upsert(points).await.expect("upsert");
        root
    }

    /// The question [`evidence_below_a_generic_summary`]'s page 29 answers: along the
    /// first axis, and its term.
    fn the_deep_pages_question() -> QueryVectors {
        QueryVectors {
            dense: along(1.0, 0),
            sparse: crate::store::Sparse {
                indices: vec![7],
                values: vec![1.0],
            },
        }
    }

    #[tokio::test]
    async fn a_section_whose_only_good_page_is_deep_below_it_ranks_first_by_its_pages() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = EdgeStore::open(dir.path(), DIMENSION).expect("store");
        let root = evidence_below_a_generic_summary(&store).await;
        let query = the_deep_pages_question();
        let halves = [crate::tree::node_id(1, 40), crate::tree::node_id(1, 41)];
        let answer = crate::tree::page_node_id(1, 29);
        let cache = NodeCache::new(1_000);
        for (scoring, best_half) in [
            (SectionScoring::OwnText, halves[0]),
            (SectionScoring::BestPage, halves[1]),
        ] {
            let mut run = SearchState::new(&store, &cache, &query, FUSION, None)
                .with_section_scoring(scoring);
            let chosen = run
                .execute(&Strategy::Beam { width: 1 }, &[root], &[1])
                .await
                .expect("search");
            let first_step = &run.trace[1];
            let ranked_halves: Vec<u64> = first_step
                .candidates
                .iter()
                .map(|n| n.id)
                .filter(|id| halves.contains(id))
                .collect();
            assert_eq!(ranked_halves[0], best_half, "{scoring}");
            let found = chosen.iter().any(|n| n.id == answer);
            assert_eq!(found, scoring == SectionScoring::BestPage, "{scoring}");
        }
    }

    /// An 8-page document, two sections of 4 pages under the root, every summary generic.
    /// In the first section page 1 is the best by the dense half (.9) and page 2 by BM25
    /// (the question's term at 1.0), each poor by the other; in the second, page 6 is good
    /// by both (.85, and the term at .8), the best page of all by the two together. Page 8
    /// has the term faintly (.2). Returns the root's id.
    async fn evidence_split_across_pages(store: &EdgeStore) -> u64 {
        let mut nodes = crate::tree::leaves(2, "split.pdf", plain_pages(8));
        crate::tree::add_parent(&mut nodes, &[0, 1, 2, 3], "first section".into(), None);
        crate::tree::add_parent(&mut nodes, &[4, 5, 6, 7], "second section".into(), None);
        crate::tree::add_parent(&mut nodes, &[8, 9], "the document".into(), None);
        let root = nodes.last().expect("a root").id;
        let points = nodes
            .into_iter()
            .enumerate()
            .map(|(index, node)| {
                let (cosine, term) = match (node.level, node.page_start) {
                    (0, 1) => (0.9, None),
                    (0, 2) => (0.1, Some(1.0)),
                    (0, 6) => (0.85, Some(0.8)),
                    (0, 8) => (0.1, Some(0.2)),
                    (0, _) => (0.1, None),
                    _ => (0.0, None),
                };
                IndexedNode {
                    dense: vec![along(cosine, index)],
                    sparse: crate::store::Sparse {
                        indices: vec![if term.is_some() { 7 } else { 8 }],
                        values: vec![term.unwrap_or(1.0)],
                    },
                    node,
                }
            })
            .collect();
        store.upsert(points).await.expect("upsert");
        root
    }

    #[tokio::test]
    async fn the_page_best_by_both_halves_is_kept_where_the_descent_leaves_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = EdgeStore::open(dir.path(), DIMENSION).expect("store");
        let root = evidence_split_across_pages(&store).await;
        let query = the_deep_pages_question();
        let best_page = crate::tree::page_node_id(2, 6);
        let cache = NodeCache::new(1_000);
        for scoring in SectionScoring::ALL {
            let mut run = SearchState::new(&store, &cache, &query, FUSION, None)
                .with_section_scoring(scoring);
            let chosen = run
                .execute(&Strategy::Beam { width: 1 }, &[root], &[2])
                .await
                .expect("search");
            let kept = run.trace.last().expect("a trace");
            if scoring == SectionScoring::BestPage {
                // The first section, lifted to page 1's dense and page 2's BM25 similarity,
                // outranks the second, so the descent never reaches page 6.
                let descent = &run.trace[run.trace.len() - 2];
                assert!(!descent.beam.contains(&best_page), "{:?}", descent.beam);
                assert_eq!(kept.label, "best page kept");
                assert!(chosen.iter().any(|node| node.id == best_page));
            } else {
                // Sections scored by their own text read no page evidence.
                assert_ne!(kept.label, "best page kept", "{scoring}");
            }
        }
    }

    #[tokio::test]
    async fn a_step_places_its_nodes_on_the_questions_scale_not_on_their_own_spread() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = EdgeStore::open(dir.path(), DIMENSION).expect("store");
        let root = evidence_below_a_generic_summary(&store).await;
        let query = the_deep_pages_question();
        let cache = NodeCache::new(1_000);
        let min_max = FUSION.with_method(FusionMethod::MinMax);
        let mut run = SearchState::new(&store, &cache, &query, min_max, None)
            .with_section_scoring(SectionScoring::BestPage);
        run.execute(&Strategy::Beam { width: 1 }, &[root], &[1])
            .await
            .expect("search");
        let halves = [crate::tree::node_id(1, 40), crate::tree::node_id(1, 41)];
        let score_of = |id: u64| {
            run.trace[1]
                .candidates
                .iter()
                .find(|n| n.id == id)
                .map(|n| n.score)
                .expect("both halves ranked")
        };
        // The first half's best similarity (its own summary, .6) sits between the
        // question's evidence pages (.1 and .95): (.6 − .1) / .85 by the dense half and
        // nothing by BM25. Stretched over the two halves it would be 0.
        let first = score_of(halves[0]);
        assert!(
            (first - 0.5 / 0.85).abs() < 0.02,
            "first half scored {first}"
        );
        // The second half holds the best page by both halves, and still comes first.
        assert!(score_of(halves[1]) > first);
    }

    #[tokio::test]
    async fn wide_nodes_give_way_to_their_best_pages_and_narrow_ones_stay() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (store, roots, query) = two_documents(dir.path()).await;
        let cache = NodeCache::new(1_000);
        let mut run = SearchState::new(&store, &cache, &query, FUSION, None);
        run.load(&roots).await.expect("load");

        let narrowed = run
            .narrow_wide_nodes(roots.clone(), 8)
            .await
            .expect("narrowed");

        let (wide_pages, rest): (Vec<&ScoredNode>, Vec<&ScoredNode>) =
            narrowed.iter().partition(|n| doc_id_of(n.id) == 1);
        assert!(!wide_pages.is_empty() && wide_pages.len() <= 8);
        // The pages are described without reading them, exactly as stored.
        let selected = run.selected(&narrowed);
        assert_eq!(selected.len(), narrowed.len());
        for chosen in selected.iter().filter(|node| node.doc_id == 1) {
            let stored = store.nodes(&[chosen.id]).await.expect("read").remove(0);
            assert_eq!(stored.level, 0, "only pages replace a wide node");
            assert_eq!(chosen, &SelectedNode::of(&stored, chosen.score));
        }
        assert_eq!(
            rest.iter().map(|n| n.id).collect::<Vec<_>>(),
            [roots[1].id],
            "a six-page document is kept whole"
        );
        // The wide node's best page is the best of its pages by a ranking of them as
        // deep as narrowing looks, and takes the node's score; the rest follow in their
        // own order.
        let all_pages: Vec<u64> = (0..120).map(|p| crate::tree::node_id(1, p)).collect();
        let full = store
            .hybrid_scores(
                &query,
                &Candidates::BestOf(all_pages),
                NARROWING_DEPTH * 8,
                FUSION,
            )
            .await
            .expect("ranking of every page");
        assert_eq!(wide_pages[0].id, full[0].id);
        assert_eq!(wide_pages[0].score, roots[0].score);
        assert!(narrowed.windows(2).all(|w| w[0].score >= w[1].score));
        let steps: Vec<&str> = run.trace.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(steps, ["narrow pages 1-120 of narrow.pdf", "selected"]);
        assert_eq!(run.trace[0].candidates.len(), NARROWING_DEPTH * 8);
        assert_eq!(run.store_queries, 1);
    }

    #[tokio::test]
    async fn boosted_roots_rank_first_at_the_first_step_and_carried_ones_at_every_step() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (store, roots, query) = documents(dir.path(), &[(1, 12), (2, 12), (3, 12)]).await;
        let ids: Vec<u64> = roots.iter().map(|r| r.id).collect();
        let cache = NodeCache::new(1_000);
        let mut plain = SearchState::new(&store, &cache, &query, FUSION, None);
        let unboosted = plain.rank_roots(&ids).await.expect("ranked");
        let last = unboosted.last().expect("three roots").clone();

        let mut boosted = SearchState::new(&store, &cache, &query, FUSION, None)
            .with_root_boosts(HashMap::from([(last.id, 1.0)]), false);
        let ranked = boosted.rank_roots(&ids).await.expect("ranked");
        assert_eq!(
            ranked[0].id, last.id,
            "the boost lifts the last root to the top"
        );
        assert!((ranked[0].score - (last.score + 1.0)).abs() < 1e-6);
        assert!(ranked.windows(2).all(|w| w[0].score >= w[1].score));
        // Later steps rank with the plain fused scores.
        let again = boosted.rank(ids.clone()).await.expect("ranked");
        assert_eq!(
            again.iter().map(|n| n.id).collect::<Vec<_>>(),
            unboosted.iter().map(|n| n.id).collect::<Vec<_>>()
        );

        // A carried boost adds to those given before and holds later too.
        let mut carried = SearchState::new(&store, &cache, &query, FUSION, None)
            .with_root_boosts(HashMap::from([(last.id, 0.5)]), false)
            .with_carried_boosts(HashMap::from([(last.id, 0.5)]));
        assert_eq!(
            carried.document_boosts(),
            &HashMap::from([(doc_id_of(last.id), 0.5)])
        );
        let ranked = carried.rank_roots(&ids).await.expect("ranked");
        assert_eq!(ranked[0].id, last.id);
        assert!((ranked[0].score - (last.score + 1.0)).abs() < 1e-6);
        let again = carried.rank(ids.clone()).await.expect("ranked");
        assert_eq!(again[0].id, last.id, "the carried half holds later");
    }

    #[tokio::test]
    async fn a_wide_root_is_narrowed_by_its_documents_pages_and_a_section_by_its_own() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (store, roots, query) = two_documents(dir.path()).await;
        let root = store.nodes(&[roots[0].id]).await.expect("root").remove(0);
        let Candidates::LeavesOf(documents) = pages_under(&root) else {
            panic!("a root's pages are its document's leaves");
        };
        assert_eq!(documents, [1]);
        let every_page: Vec<u64> = (root.page_start..=root.page_end)
            .map(|page| crate::tree::page_node_id(1, page))
            .collect();
        let depth = NARROWING_DEPTH * 8;
        assert_eq!(
            store
                .hybrid_scores(&query, &pages_under(&root), depth, FUSION)
                .await
                .expect("by filter"),
            store
                .hybrid_scores(&query, &Candidates::BestOf(every_page), depth, FUSION)
                .await
                .expect("by id"),
        );

        let section = store
            .nodes(&root.child_ids)
            .await
            .expect("sections")
            .into_iter()
            .find(|node| node.level > 0)
            .expect("a section");
        let Candidates::BestOf(pages) = pages_under(&section) else {
            panic!("a section's pages are named");
        };
        let expected: Vec<u64> = (section.page_start..=section.page_end)
            .map(|page| crate::tree::page_node_id(1, page))
            .collect();
        assert_eq!(pages, expected);
    }

    #[tokio::test]
    async fn nothing_wide_means_nothing_to_narrow() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (store, roots, query) = two_documents(dir.path()).await;
        let cache = NodeCache::new(1_000);
        let mut run = SearchState::new(&store, &cache, &query, FUSION, None);
        run.load(&roots).await.expect("load");
        let kept = run
            .narrow_wide_nodes(roots.clone(), 200)
            .await
            .expect("kept");
        assert_eq!(kept, roots);
        assert_eq!(run.store_queries, 0);
        assert!(run.trace.is_empty());
    }

    /// A real embedded store that records what each raw-scores call asked for.
    struct RecordingStore {
        inner: EdgeStore,
        asked: std::sync::Mutex<Vec<Candidates>>,
    }

    impl RecordingStore {
        fn over(inner: EdgeStore) -> Self {
            Self {
                inner,
                asked: std::sync::Mutex::new(Vec::new()),
            }
        }

        /// The candidates of each raw-scores call so far, in call order.
        fn asked(&self) -> Vec<Candidates> {
            self.asked.lock().unwrap_or_else(|p| p.into_inner()).clone()
        }

        /// The ids each raw-scores call by ids asked for, in call order.
        fn asked_ids(&self) -> Vec<Vec<u64>> {
            self.asked()
                .into_iter()
                .filter_map(|candidates| match candidates {
                    Candidates::Ids(ids) => Some(ids),
                    _ => None,
                })
                .collect()
        }
    }

    /// Each ranking step of `trace` (all but the final selection) must be exactly what
    /// the engine's own fused query gives for that step's candidates.
    async fn assert_steps_rank_as_the_engine(
        store: &dyn VectorStore,
        query: &QueryVectors,
        trace: &[TraceStep],
    ) {
        for step in trace.iter().filter(|step| step.label != "selected") {
            let ids: Vec<u64> = step.candidates.iter().map(|c| c.id).collect();
            let engine = store
                .hybrid_scores(query, &Candidates::Ids(ids.clone()), ids.len(), FUSION)
                .await
                .expect("engine ranking");
            assert_eq!(step.candidates, engine, "{}", step.label);
        }
    }

    #[async_trait::async_trait]
    impl VectorStore for RecordingStore {
        fn dense_layout(&self) -> crate::store::DenseLayout {
            self.inner.dense_layout()
        }
        async fn upsert(&self, nodes: Vec<crate::store::IndexedNode>) -> Result<(), StoreError> {
            self.inner.upsert(nodes).await
        }
        async fn delete_document(&self, doc_id: i64) -> Result<(), StoreError> {
            self.inner.delete_document(doc_id).await
        }
        async fn document_nodes(&self, doc_id: i64) -> Result<Vec<Node>, StoreError> {
            self.inner.document_nodes(doc_id).await
        }
        async fn nodes(&self, ids: &[u64]) -> Result<Vec<Node>, StoreError> {
            self.inner.nodes(ids).await
        }
        async fn document_points(
            &self,
            doc_id: i64,
        ) -> Result<Vec<crate::store::IndexedNode>, StoreError> {
            self.inner.document_points(doc_id).await
        }
        async fn count(&self, doc_id: Option<i64>) -> Result<usize, StoreError> {
            self.inner.count(doc_id).await
        }
        async fn flush(&self) -> Result<(), StoreError> {
            self.inner.flush().await
        }
        async fn optimize(&self) -> Result<(), StoreError> {
            self.inner.optimize().await
        }
        async fn hybrid_scores(
            &self,
            query: &QueryVectors,
            candidates: &Candidates,
            limit: usize,
            fusion: Fusion,
        ) -> Result<Vec<ScoredNode>, StoreError> {
            self.inner
                .hybrid_scores(query, candidates, limit, fusion)
                .await
        }
        async fn raw_scores_of(
            &self,
            query: &QueryVectors,
            candidates: &Candidates,
            limit: usize,
        ) -> Result<Vec<RawScores>, StoreError> {
            self.asked
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(candidates.clone());
            self.inner.raw_scores_of(query, candidates, limit).await
        }
        async fn similarity_lists(
            &self,
            query: &QueryVectors,
            candidates: &Candidates,
            limit: usize,
            exact: bool,
        ) -> Result<crate::store::SimilarityLists, StoreError> {
            self.inner
                .similarity_lists(query, candidates, limit, exact)
                .await
        }
    }

    #[tokio::test]
    async fn branch_search_scores_a_whole_wave_of_expansions_in_one_call() {
        let dir = tempfile::tempdir().expect("temp dir");
        let shapes: Vec<(i64, usize)> = (1..=6).map(|doc| (doc, 30)).collect();
        let (inner, roots, query) = documents(dir.path(), &shapes).await;
        let store = RecordingStore::over(inner);
        let cache = NodeCache::new(1_000);
        let root_ids: Vec<u64> = roots.iter().map(|r| r.id).collect();
        let mut run = SearchState::new(&store, &cache, &query, FUSION, None);
        run.execute(
            &Strategy::Branch { roots: 6 },
            &root_ids,
            &[1, 2, 3, 4, 5, 6],
        )
        .await
        .expect("search");
        let expansions = run
            .trace
            .iter()
            .filter(|step| step.label.starts_with("node ") || step.label.starts_with("children "))
            .count();
        let calls = store.asked_ids().len();
        // The roots, then at most one call per level of a 30-page tree (3 levels),
        // where one call per expansion would take at least one per root.
        assert!(calls <= 1 + 3, "{calls} store calls");
        assert!(expansions >= 6, "{expansions} expansions");
        assert_steps_rank_as_the_engine(&store, &query, &run.trace).await;
    }

    #[tokio::test]
    async fn a_tree_walk_scores_each_node_once_and_fuses_each_step_itself() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (inner, roots, query) = two_documents(dir.path()).await;
        let store = RecordingStore::over(inner);
        let cache = NodeCache::new(1_000);
        let root_ids: Vec<u64> = roots.iter().map(|r| r.id).collect();
        // Sensitivity 0 keeps every candidate, so the beam walks down to the pages.
        let strategy = Strategy::SensitiveKnee {
            sensitivity: 0.0,
            max_roots: 10,
        };
        let mut run = SearchState::new(&store, &cache, &query, FUSION, None);
        run.execute(&strategy, &root_ids, &[1, 2])
            .await
            .expect("search");

        let asked = store.asked_ids();
        let mut every_id: Vec<u64> = asked.iter().flatten().copied().collect();
        let scored = every_id.len();
        every_id.sort_unstable();
        every_id.dedup();
        assert_eq!(
            every_id.len(),
            scored,
            "no node is scored twice in a search"
        );
        assert_eq!(run.store_queries, asked.len());
        let steps = run.trace.len();
        assert!(steps > 2, "the walk took {steps} steps");
        assert_steps_rank_as_the_engine(&store, &query, &run.trace).await;
    }

    /// Runs `strategy` over documents 1 and 2 of a store that also holds document 3's
    /// points (as while it is ingested), by ids or, given whether the catalog says
    /// other documents are stored, over the whole library.
    async fn search_two_of_three(
        store: &dyn VectorStore,
        roots: &[ScoredNode],
        query: &QueryVectors,
        strategy: &Strategy,
        whole_library: Option<bool>,
        stray_roots: usize,
    ) -> (Vec<ScoredNode>, Vec<(String, Vec<ScoredNode>)>, usize) {
        let cache = NodeCache::new(1_000);
        let searched: Vec<u64> = roots[..2].iter().map(|r| r.id).collect();
        let mut run =
            SearchState::new(store, &cache, query, FUSION, None).with_stray_roots(stray_roots);
        if let Some(others_stored) = whole_library {
            run = run.over_whole_library(others_stored);
        }
        let chosen = run
            .execute(strategy, &searched, &[1, 2])
            .await
            .expect("search");
        let steps = run
            .trace
            .into_iter()
            .map(|step| (step.label, step.candidates))
            .collect();
        (chosen, steps, run.store_queries)
    }

    #[tokio::test]
    async fn a_whole_library_search_finds_its_roots_by_filter_and_skips_other_documents() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (inner, roots, query) = documents(dir.path(), &[(1, 30), (2, 30), (3, 30)]).await;
        let store = RecordingStore::over(inner);
        let strategies = [
            Strategy::Knee { max_roots: 10 },
            Strategy::SensitiveKnee {
                sensitivity: 0.0,
                max_roots: 10,
            },
            Strategy::Beam { width: 3 },
            Strategy::Branch { roots: 2 },
        ];
        for strategy in &strategies {
            let (chosen, steps, _) =
                search_two_of_three(&store, &roots, &query, strategy, None, 64).await;
            let calls = store.asked().len();
            let by_filter =
                search_two_of_three(&store, &roots, &query, strategy, Some(true), 64).await;
            let asked = store.asked().split_off(calls);
            assert_eq!(
                (&by_filter.0, &by_filter.1),
                (&chosen, &steps),
                "{strategy:?}"
            );
            assert!(matches!(asked[0], Candidates::AllRoots), "{asked:?}");
            assert!(
                asked_ids_exclude(&asked, &[roots[0].id, roots[1].id]),
                "{strategy:?}: the filter scored the roots"
            );
            assert!(chosen.iter().all(|n| doc_id_of(n.id) != 3));

            // More stray roots than a search accepts: it ranks the roots by id.
            let calls = store.asked().len();
            let cut = search_two_of_three(&store, &roots, &query, strategy, Some(true), 0).await;
            let asked = store.asked().split_off(calls);
            assert_eq!((&cut.0, &cut.1), (&chosen, &steps), "{strategy:?}");
            assert!(matches!(asked[0], Candidates::AllRoots));
            assert!(matches!(&asked[1], Candidates::Ids(ids) if ids.contains(&roots[0].id)));
        }
    }

    fn asked_ids_exclude(asked: &[Candidates], ids: &[u64]) -> bool {
        asked.iter().all(|candidates| match candidates {
            Candidates::Ids(asked) => ids.iter().all(|id| !asked.contains(id)),
            _ => true,
        })
    }

    #[tokio::test]
    async fn whole_library_top_k_ranks_all_pages_only_when_nothing_else_is_stored() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (store, roots, query) = documents(dir.path(), &[(1, 30), (2, 30), (3, 30)]).await;
        for k in [5, 61] {
            let strategy = Strategy::Flat { k };
            let by_ids = search_two_of_three(&store, &roots, &query, &strategy, None, 64).await;
            assert_eq!(by_ids.0.len(), k.min(60));
            // Document 3 is being ingested: top-k keeps to the searched documents.
            let written =
                search_two_of_three(&store, &roots, &query, &strategy, Some(true), 64).await;
            assert_eq!(written, by_ids, "k = {k}");
        }
        // Document 3's ingestion began after the catalog was read: its page among the
        // 61 best (documents 1 and 2 have 60) sends top-k back to the searched ones.
        let strategy = Strategy::Flat { k: 61 };
        let raced = search_two_of_three(&store, &roots, &query, &strategy, Some(false), 64).await;
        assert_eq!(raced.0.len(), 60);
        assert!(raced.0.iter().all(|n| doc_id_of(n.id) != 3));
        assert_eq!(raced.2, 2, "asked twice");

        // Only the searched documents are stored: one query over all pages, the same
        // answer as by document.
        let dir = tempfile::tempdir().expect("temp dir");
        let (store, mut roots, query) = documents(dir.path(), &[(1, 30), (2, 30)]).await;
        roots.push(ScoredNode { id: 0, score: 0.0 });
        for k in [5, 61] {
            let strategy = Strategy::Flat { k };
            let by_ids = search_two_of_three(&store, &roots, &query, &strategy, None, 64).await;
            let whole =
                search_two_of_three(&store, &roots, &query, &strategy, Some(false), 64).await;
            assert_eq!(whole, by_ids, "k = {k}");
            assert_eq!(whole.2, 1);
        }
    }
}
