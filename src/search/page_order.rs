//! Which pages of a strategy's choice fill a token budget. A strategy chooses sections
//! as well as pages; a section of four filing pages is more than a 2,500-token budget,
//! and taking its pages in page order spends the budget on whichever come first. The
//! tree says where to look; within that, the pages are ranked by their own evidence:
//! one hybrid ranking of every page under the chosen nodes, so that the budget keeps
//! the pages a flat search restricted to those sections would rank first.

use std::collections::HashMap;

use super::page_boosts::PageBoosts;
use super::SelectedNode;
use crate::store::fusion::{fuse_min_max_on_scale, SimilarityScale};
use crate::store::{Candidates, Fusion, FusionMethod, QueryVectors, StoreError, VectorStore};
use crate::tree::{doc_id_of, page_node_id, page_of_leaf};

/// What a page the question asks for by what it is (see [`PageBoosts`]) adds to its
/// score here, at least (a larger boost of its own is kept): the whole range of a fused
/// score (two halves of 0–1), so that it comes before every page of its document that the
/// question does not ask for. A smaller boost is not enough among a handful of pages,
/// which min–max spreads over the whole range: the statement asked for could still come
/// last of its section's pages.
const ASKED_FOR_FIRST: f32 = 2.0;

/// What the standing of the chosen node a page comes from (0 for the lowest-scored, 1
/// for the best) adds to the page's score, as a share of the pages' score range: the
/// tree's choice among sections still counts once their pages compete. A larger share
/// trusts the tree's choice of section over the pages' own evidence. The pages are
/// placed on the question's scale (see [`pages_by_evidence`]), without which a share
/// this small changes little.
const NODE_SHARE: f32 = 0.25;

/// How a set of scores spreads: its lowest and how far the best reaches above it (0 for
/// an empty set).
struct Spread {
    lowest: f32,
    range: f32,
}

impl Spread {
    fn of(scores: impl Iterator<Item = f32> + Clone) -> Self {
        let best = scores.clone().fold(f32::NEG_INFINITY, f32::max);
        let lowest = scores.fold(f32::INFINITY, f32::min);
        let range = best - lowest;
        Self {
            lowest,
            range: if range.is_finite() { range } else { 0.0 },
        }
    }

    /// Where `score` stands, 0 (the lowest) to 1 (the best); 1 when all score alike.
    fn standing(&self, score: f32) -> f32 {
        if self.range > 0.0 {
            (score - self.lowest) / self.range
        } else {
            1.0
        }
    }
}

/// The pages under `selected`, each as its own node, scored by a hybrid ranking of all
/// of them plus their document's boost (what the question's card matches add at every
/// step of the search) and their node's standing in the choice: the best page first.
/// A page the ranking does not return (no vector stored) comes after every ranked
/// page, in the order of the node it belongs to. Each page is listed once.
///
/// With min–max fusion and the question's `scale` (its best pages' similarities), the
/// pages are placed on that scale rather than stretched over themselves: over the three
/// or four pages of one section, min–max turns a hair's difference in one half into a
/// whole point. Where the budget holds one page, that chose the wrong page of the right
/// section.
pub(crate) async fn pages_by_evidence(
    store: &dyn VectorStore,
    query: &QueryVectors,
    fusion: Fusion,
    selected: &[SelectedNode],
    document_boosts: &HashMap<i64, f32>,
    page_boosts: &PageBoosts,
    scale: Option<SimilarityScale>,
) -> Result<Vec<SelectedNode>, StoreError> {
    let mut by_node_score: Vec<&SelectedNode> = selected.iter().collect();
    by_node_score.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mut pages: Vec<SelectedNode> = Vec::new();
    let mut seen: HashMap<u64, usize> = HashMap::new();
    let node_scores = Spread::of(by_node_score.iter().map(|node| node.score));
    let mut standing: Vec<f32> = Vec::new();
    let mut add = |node: &SelectedNode, page: u32| {
        let id = page_node_id(node.doc_id, page);
        if seen.contains_key(&id) {
            return;
        }
        seen.insert(id, pages.len());
        standing.push(node_scores.standing(node.score));
        pages.push(SelectedNode {
            id,
            doc_id: node.doc_id,
            file_name: node.file_name.clone(),
            level: 0,
            page_start: page,
            page_end: page,
            score: f32::NEG_INFINITY,
        });
    };
    for node in &by_node_score {
        for page in node.page_start..=node.page_end {
            add(node, page);
        }
    }
    // The pages the question asks for by what they are (its financial statements)
    // compete too, in the documents the strategy chose: the tree found the filing,
    // the question says which of its pages.
    let chosen_documents: HashMap<i64, &SelectedNode> = by_node_score
        .iter()
        .map(|node| (node.doc_id, *node))
        .collect();
    for id in page_boosts.page_ids(|doc| chosen_documents.contains_key(&doc)) {
        if let Some(node) = chosen_documents.get(&doc_id_of(id)) {
            add(node, page_of_leaf(id));
        }
    }
    if pages.len() <= 1 {
        return Ok(pages);
    }
    let ids: Vec<u64> = pages.iter().map(|page| page.id).collect();
    let limit = ids.len();
    let ranked = match scale {
        Some(scale) if fusion.method == FusionMethod::MinMax => {
            let scores = store.raw_scores(query, &ids).await?;
            fuse_min_max_on_scale(&scores, scale, fusion)
        }
        _ => {
            store
                .hybrid_scores(query, &Candidates::Ids(ids), limit, fusion)
                .await?
        }
    };
    // The standing weighs as a share of how far the pages' own scores spread, which
    // depends on the fusion (0–2 with min–max, a fraction of that with RRF).
    let score_range = Spread::of(ranked.iter().map(|scored| scored.score)).range;
    for scored in ranked {
        if let Some(&index) = seen.get(&scored.id) {
            let page = &mut pages[index];
            let asked_for = page_boosts.of_page(page.doc_id, page.page_start);
            let boost = document_boosts.get(&page.doc_id).copied().unwrap_or(0.0)
                + if asked_for > 0.0 {
                    asked_for.max(ASKED_FOR_FIRST)
                } else {
                    0.0
                }
                + NODE_SHARE * score_range * standing[index];
            page.score = scored.score + boost;
        }
    }
    // Unranked pages keep their node's order, below every ranked page.
    let lowest = pages
        .iter()
        .map(|page| page.score)
        .filter(|score| score.is_finite())
        .fold(0.0_f32, f32::min);
    let mut position = 0.0;
    for page in pages
        .iter_mut()
        .filter(|page| page.score == f32::NEG_INFINITY)
    {
        position += 1.0;
        page.score = lowest - position;
    }
    // Stable: equal scores keep the order of the nodes they came from.
    pages.sort_by(|a, b| b.score.total_cmp(&a.score));
    Ok(pages)
}

/// Appends `fill` (pages, best first) after `pages`, each scored below every one of
/// them, so that a budget takes them only once the strategy's own pages are in. A page
/// already listed is not listed again.
pub(crate) fn append_after(pages: &mut Vec<SelectedNode>, fill: Vec<SelectedNode>) {
    let floor = pages
        .iter()
        .map(|page| page.score)
        .filter(|score| score.is_finite())
        .fold(0.0_f32, f32::min);
    // A lone page comes back unranked: it still goes before every page of the fill.
    for page in pages.iter_mut().filter(|page| !page.score.is_finite()) {
        page.score = floor;
    }
    let mut position = 0.0;
    for page in fill {
        let listed = pages.iter().any(|p| {
            p.doc_id == page.doc_id && (p.page_start..=p.page_end).contains(&page.page_start)
        });
        if listed {
            continue;
        }
        position += 1.0;
        pages.push(SelectedNode {
            score: floor - position,
            ..page
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chosen_page(page: u32, score: f32) -> SelectedNode {
        SelectedNode {
            id: page_node_id(1, page),
            doc_id: 1,
            file_name: "doc1.pdf".into(),
            level: 0,
            page_start: page,
            page_end: page,
            score,
        }
    }

    #[test]
    fn the_fill_ranks_below_the_strategys_pages_even_an_unranked_lone_one() {
        let mut pages = vec![chosen_page(3, f32::NEG_INFINITY)];
        append_after(
            &mut pages,
            vec![
                chosen_page(5, 9.0),
                chosen_page(3, 8.0),
                chosen_page(7, 7.0),
            ],
        );
        let order: Vec<u32> = pages.iter().map(|p| p.page_start).collect();
        assert_eq!(order, vec![3, 5, 7], "page 3 is listed once, first");
        assert!(
            pages.windows(2).all(|w| w[0].score > w[1].score),
            "{pages:?}"
        );
    }
    use crate::store::edge::EdgeStore;
    use crate::store::{IndexedNode, Sparse};
    use crate::tree::Node;

    fn page(doc_id: i64, number: u32, dense: Vec<f32>) -> IndexedNode {
        IndexedNode {
            node: Node {
                id: page_node_id(doc_id, number),
                doc_id,
                file_name: format!("doc{doc_id}.pdf"),
                parent_id: 0,
                child_ids: Vec::new(),
                level: 0,
                page_start: number,
                page_end: number,
                description: String::new(),
                keywords: Vec::new(),
                card: None,
                title: None,
            },
            dense: vec![dense],
            sparse: Sparse {
                indices: vec![1],
                values: vec![1.0],
            },
        }
    }

    /// A query whose only term no page holds: the dense vectors decide.
    fn query(dense: Vec<f32>) -> QueryVectors {
        QueryVectors {
            dense,
            sparse: Sparse {
                indices: vec![7],
                values: vec![1.0],
            },
        }
    }

    fn chosen(doc_id: i64, pages: (u32, u32), score: f32) -> SelectedNode {
        SelectedNode {
            id: 1_000 + u64::from(pages.0),
            doc_id,
            file_name: format!("doc{doc_id}.pdf"),
            level: 1,
            page_start: pages.0,
            page_end: pages.1,
            score,
        }
    }

    /// The page numbers `pages_by_evidence` lists, best first, without boosts.
    async fn page_numbers(
        store: &EdgeStore,
        query: &QueryVectors,
        fusion: Fusion,
        selected: &[SelectedNode],
        scale: Option<SimilarityScale>,
    ) -> Vec<u32> {
        pages_by_evidence(
            store,
            query,
            fusion,
            selected,
            &HashMap::new(),
            &PageBoosts::default(),
            scale,
        )
        .await
        .expect("ranked")
        .iter()
        .map(|p| p.page_start)
        .collect()
    }

    #[tokio::test]
    async fn a_page_of_the_section_the_tree_rated_higher_wins_a_close_call() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = EdgeStore::open(dir.path(), 2).expect("store");
        store
            .upsert(vec![
                page(1, 1, vec![0.9, 0.436]),
                page(1, 2, vec![0.0, 1.0]),
                page(1, 3, vec![1.0, 0.0]),
                page(1, 4, vec![0.0, 1.0]),
            ])
            .await
            .expect("upsert");
        let query = query(vec![1.0, 0.0]);
        let fusion = Fusion {
            method: crate::store::FusionMethod::MinMax,
            ..Fusion::rrf(2, 1.0, 1.0)
        };
        let order = |selected: [SelectedNode; 2]| {
            let (store, query) = (&store, &query);
            async move { page_numbers(store, query, fusion, &selected, None).await }
        };
        // Rated alike, page 3 is better on its own evidence; page 1 is close behind.
        assert_eq!(
            order([chosen(1, (1, 2), 0.5), chosen(1, (3, 4), 0.5)]).await[..2],
            [3, 1]
        );
        // The tree rated section 1–2 well above 3–4: that decides the close call.
        assert_eq!(
            order([chosen(1, (1, 2), 0.9), chosen(1, (3, 4), 0.1)]).await[..2],
            [1, 3]
        );
    }

    #[tokio::test]
    async fn the_pages_of_chosen_sections_are_ranked_by_their_own_evidence() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = EdgeStore::open(dir.path(), 2).expect("store");
        // Two sections the tree rates alike; page 3 of one answers best, page 5 of the
        // other is second best.
        store
            .upsert(vec![
                page(1, 1, vec![0.0, 1.0]),
                page(1, 2, vec![0.1, 1.0]),
                page(1, 3, vec![1.0, 0.0]),
                page(1, 4, vec![0.2, 1.0]),
                page(1, 5, vec![1.0, 0.3]),
            ])
            .await
            .expect("upsert");
        let query = query(vec![1.0, 0.0]);
        let selected = [chosen(1, (1, 3), 0.9), chosen(1, (4, 5), 0.9)];
        let fusion = Fusion::rrf(2, 1.0, 1.0);
        let pages = pages_by_evidence(
            &store,
            &query,
            fusion,
            &selected,
            &HashMap::new(),
            &PageBoosts::default(),
            None,
        )
        .await
        .expect("ranked");
        let order: Vec<u32> = pages.iter().map(|p| p.page_start).collect();
        assert_eq!(order, [3, 5, 4, 2, 1]);
        assert!(pages
            .iter()
            .all(|p| p.level == 0 && p.page_start == p.page_end));
    }

    #[tokio::test]
    async fn on_the_questions_scale_a_hairs_lead_in_one_half_no_longer_decides() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = EdgeStore::open(dir.path(), 2).expect("store");
        let with_term = |number: u32, dense: Vec<f32>, weight: f32| {
            let mut page = page(1, number, dense);
            page.sparse = Sparse {
                indices: vec![7],
                values: vec![weight],
            };
            page
        };
        // Page 1 holds the question's term a little more often; page 2 is clearly closer
        // in meaning; page 3 is neither.
        store
            .upsert(vec![
                with_term(1, vec![0.70, 0.714], 1.05),
                with_term(2, vec![0.80, 0.6], 1.0),
                page(1, 3, vec![0.2, 0.98]),
            ])
            .await
            .expect("upsert");
        let query = query(vec![1.0, 0.0]);
        let ids: Vec<u64> = (1..=3).map(|page| page_node_id(1, page)).collect();
        let raw = store.raw_scores(&query, &ids).await.expect("scores");
        let best_sparse = raw.iter().filter_map(|s| s.sparse).fold(0.0, f32::max);
        // The question's best pages elsewhere reach far higher by both halves.
        let scale = SimilarityScale {
            dense: (0.2, 0.95),
            sparse: Some((0.0, 10.0 * best_sparse)),
        };
        let fusion = Fusion::rrf(2, 1.0, 1.0).with_method(FusionMethod::MinMax);
        let selected = [chosen(1, (1, 3), 0.5)];
        let order = |scale: Option<SimilarityScale>| {
            let (store, query, selected) = (&store, &query, &selected);
            async move { page_numbers(store, query, fusion, selected, scale).await }
        };
        // Over the three pages alone, page 1's lead in BM25 is a whole point.
        assert_eq!(order(None).await, [1, 2, 3]);
        assert_eq!(order(Some(scale)).await, [2, 1, 3]);
    }

    #[tokio::test]
    async fn overlapping_choices_list_a_page_once_and_unstored_pages_come_last() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = EdgeStore::open(dir.path(), 2).expect("store");
        store
            .upsert(vec![page(1, 1, vec![0.0, 1.0]), page(1, 2, vec![1.0, 0.0])])
            .await
            .expect("upsert");
        let query = query(vec![1.0, 0.0]);
        // Page 3 has no vector (a page the index does not hold).
        let selected = [chosen(1, (1, 3), 0.9), chosen(1, (2, 2), 0.5)];
        let pages = pages_by_evidence(
            &store,
            &query,
            Fusion::rrf(2, 1.0, 1.0),
            &selected,
            &HashMap::new(),
            &PageBoosts::default(),
            None,
        )
        .await
        .expect("ranked");
        let order: Vec<u32> = pages.iter().map(|p| p.page_start).collect();
        assert_eq!(order, [2, 1, 3]);
    }

    #[tokio::test]
    async fn pages_of_the_document_the_question_names_come_first() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = EdgeStore::open(dir.path(), 2).expect("store");
        store
            .upsert(vec![
                page(1, 1, vec![1.0, 0.0]),
                page(2, 1, vec![0.5, 1.0]),
                page(2, 2, vec![0.0, 1.0]),
            ])
            .await
            .expect("upsert");
        let selected = [chosen(1, (1, 1), 0.9), chosen(2, (1, 2), 0.8)];
        let boosts = HashMap::from([(2, 2.0)]);
        let pages = pages_by_evidence(
            &store,
            &query(vec![1.0, 0.0]),
            Fusion::rrf(2, 1.0, 1.0),
            &selected,
            &boosts,
            &PageBoosts::default(),
            None,
        )
        .await
        .expect("ranked");
        let order: Vec<(i64, u32)> = pages.iter().map(|p| (p.doc_id, p.page_start)).collect();
        assert_eq!(order, [(2, 1), (2, 2), (1, 1)]);
    }
}
