//! The beam descent shared by beam, knee, sensitive knee and largest gap: the beam is
//! ranked with its children at every step and cut, then the elimination walk replaces
//! parents by the children that beat them. Only the cut differs.

use std::collections::{HashMap, HashSet};

use super::{stop_reason, MAX_STEPS};
use crate::search::knee::{CutRule, KneeCut};
use crate::search::state::{scores, SearchState};
use crate::search::walk::{elimination_walk, Stop, StopRule};
use crate::store::{ScoredNode, StoreError};

/// Where each step of the descent is cut.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BeamCut {
    /// A beam of fixed width: the best `width` roots, and the best `width` nodes the
    /// walk leaves at every step.
    Width(usize),
    /// The best `max_roots` roots cut by `rule`, and every step's ranking cut by `rule`
    /// before the walk.
    Curve { max_roots: usize, rule: CutRule },
}

/// What a step keeps: the first `keep` of its ranking go to the walk, which keeps at
/// most `width` of them.
struct StepCut {
    knee_index: Option<usize>,
    keep: usize,
    width: Option<usize>,
}

impl BeamCut {
    /// The roots a step shows (of `ranked`, best first) and where they are cut.
    fn roots(self, ranked: Vec<ScoredNode>) -> (Vec<ScoredNode>, KneeCut) {
        match self {
            BeamCut::Width(width) => {
                let keep = width.max(1).min(ranked.len());
                let cut = KneeCut {
                    knee_index: None,
                    keep,
                };
                (ranked, cut)
            }
            BeamCut::Curve { max_roots, rule } => {
                let top: Vec<ScoredNode> = ranked.into_iter().take(max_roots.max(1)).collect();
                let cut = rule.cut(&scores(&top));
                (top, cut)
            }
        }
    }

    fn step(self, ranked: &[ScoredNode]) -> StepCut {
        match self {
            BeamCut::Width(width) => StepCut {
                knee_index: None,
                keep: ranked.len(),
                width: Some(width.max(1)),
            },
            // The knee is cut before the walk: eliminating first would leave the knee
            // a handful of points to work on.
            BeamCut::Curve { rule, .. } => {
                let cut = rule.cut(&scores(ranked));
                StepCut {
                    knee_index: cut.knee_index,
                    keep: cut.keep,
                    width: None,
                }
            }
        }
    }

    /// Whether the descent ends once the beam holds only pages: a curve cut again over
    /// the same pages can keep fewer of them at every step, where a fixed width keeps
    /// them all and the beam stops changing.
    fn stops_at_pages(self) -> bool {
        matches!(self, BeamCut::Curve { .. })
    }
}

pub(super) async fn select(
    search: &mut SearchState<'_>,
    roots: &[u64],
    cut: BeamCut,
) -> Result<Vec<ScoredNode>, StoreError> {
    let ranked_roots = search.rank_roots(roots).await?;
    let (shown, root_cut) = cut.roots(ranked_roots);
    let mut beam: Vec<ScoredNode> = shown[..root_cut.keep].to_vec();
    search.record(
        "roots",
        &shown,
        root_cut.knee_index,
        root_cut.keep,
        Vec::new(),
        &beam,
    );
    let mut rule = StopRule::new(MAX_STEPS);
    rule.check(&beam);
    loop {
        if cut.stops_at_pages() {
            search.load(&beam).await?;
            if beam.iter().all(|n| search.children_of(n.id).is_empty()) {
                search.stopped_because = "the beam holds only pages".into();
                return Ok(beam);
            }
        }
        let (ranked, beam_ids, children) = expand(search, &beam).await?;
        let step = cut.step(&ranked);
        let walk = elimination_walk(&ranked[..step.keep], &beam_ids, &children, step.width);
        search.record(
            "expand",
            &ranked,
            step.knee_index,
            step.keep,
            walk.eliminated.clone(),
            &walk.beam,
        );
        beam = walk.beam;
        match rule.check(&beam) {
            Stop::Continue => continue,
            stop => {
                search.stopped_because = stop_reason(stop);
                return Ok(beam);
            }
        }
    }
}

/// Ranks the beam together with its children.
async fn expand(
    search: &mut SearchState<'_>,
    beam: &[ScoredNode],
) -> Result<(Vec<ScoredNode>, HashSet<u64>, HashMap<u64, Vec<u64>>), StoreError> {
    search.load(beam).await?;
    let beam_ids: HashSet<u64> = beam.iter().map(|n| n.id).collect();
    let parents: Vec<u64> = beam_ids.iter().copied().collect();
    search.load_section_children(&parents).await?;
    let children: HashMap<u64, Vec<u64>> = beam
        .iter()
        .map(|n| (n.id, search.children_of(n.id).to_vec()))
        .collect();
    let mut ids: Vec<u64> = beam.iter().map(|n| n.id).collect();
    ids.extend(children.values().flatten());
    let ranked = search.rank(ids).await?;
    Ok((ranked, beam_ids, children))
}
