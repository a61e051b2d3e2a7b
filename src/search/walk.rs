//! The elimination walk shared by the beam strategies, and the beam's stop rule.

use std::collections::{HashMap, HashSet};

use crate::store::ScoredNode;

/// The outcome of one walk over a ranked candidate list.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Walk {
    /// The new beam, in rank order.
    pub beam: Vec<ScoredNode>,
    /// Candidates that lost their place because a parent or child joined first.
    pub eliminated: Vec<u64>,
}

/// Walks `ranked` (best first). A node of the current beam that is reached before any
/// of its children joins and eliminates its children; a child reached first joins and
/// eliminates its parent. Stops once `limit` nodes have joined, if there is a limit.
pub fn elimination_walk(
    ranked: &[ScoredNode],
    beam: &HashSet<u64>,
    children: &HashMap<u64, Vec<u64>>,
    limit: Option<usize>,
) -> Walk {
    let parent_of: HashMap<u64, u64> = children
        .iter()
        .filter(|(parent, _)| beam.contains(parent))
        .flat_map(|(&parent, kids)| kids.iter().map(move |&kid| (kid, parent)))
        .collect();
    let mut eliminated: HashSet<u64> = HashSet::new();
    let mut eliminated_order = Vec::new();
    let mut eliminate = |id: u64, eliminated: &mut HashSet<u64>| {
        if eliminated.insert(id) {
            eliminated_order.push(id);
        }
    };
    let mut joined = Vec::new();
    for candidate in ranked {
        if limit.is_some_and(|limit| joined.len() >= limit) {
            break;
        }
        if eliminated.contains(&candidate.id) {
            continue;
        }
        if beam.contains(&candidate.id) {
            for &kid in children.get(&candidate.id).into_iter().flatten() {
                eliminate(kid, &mut eliminated);
            }
        } else if let Some(&parent) = parent_of.get(&candidate.id) {
            eliminate(parent, &mut eliminated);
        }
        joined.push(candidate.clone());
    }
    Walk {
        beam: joined,
        eliminated: eliminated_order,
    }
}

/// Decides when a beam search stops: when the beam no longer changes, or when it comes
/// back to a beam it already had (a cycle), or after `max_steps` as a last resort.
#[derive(Debug)]
pub struct StopRule {
    seen: HashSet<Vec<u64>>,
    previous: Option<Vec<u64>>,
    steps: usize,
    max_steps: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    Continue,
    Unchanged,
    Cycle,
    StepLimit,
}

impl StopRule {
    pub fn new(max_steps: usize) -> Self {
        Self {
            seen: HashSet::new(),
            previous: None,
            steps: 0,
            max_steps,
        }
    }

    pub fn check(&mut self, beam: &[ScoredNode]) -> Stop {
        let mut key: Vec<u64> = beam.iter().map(|n| n.id).collect();
        key.sort_unstable();
        self.steps += 1;
        if self.previous.as_ref() == Some(&key) {
            return Stop::Unchanged;
        }
        if !self.seen.insert(key.clone()) {
            return Stop::Cycle;
        }
        self.previous = Some(key);
        if self.steps >= self.max_steps {
            return Stop::StepLimit;
        }
        Stop::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranked(ids: &[u64]) -> Vec<ScoredNode> {
        ids.iter()
            .enumerate()
            .map(|(i, &id)| ScoredNode {
                id,
                score: 1.0 - i as f32 * 0.1,
            })
            .collect()
    }

    fn ids(walk: &Walk) -> Vec<u64> {
        walk.beam.iter().map(|n| n.id).collect()
    }

    fn tree() -> (HashSet<u64>, HashMap<u64, Vec<u64>>) {
        // Beam: parents 1 and 2; 1 has children 10, 11; 2 has children 20, 21.
        let beam = HashSet::from([1, 2]);
        let children = HashMap::from([(1, vec![10, 11]), (2, vec![20, 21])]);
        (beam, children)
    }

    #[test]
    fn a_child_ranked_first_replaces_its_parent() {
        let (beam, children) = tree();
        let walk = elimination_walk(&ranked(&[10, 1, 2, 11, 20, 21]), &beam, &children, None);
        // 10 joins and eliminates 1; 2 joins before its children and eliminates them.
        assert_eq!(ids(&walk), vec![10, 2, 11]);
        assert_eq!(walk.eliminated, vec![1, 20, 21]);
    }

    #[test]
    fn a_parent_ranked_first_keeps_its_children_out() {
        let (beam, children) = tree();
        let walk = elimination_walk(&ranked(&[1, 10, 11, 20, 2, 21]), &beam, &children, None);
        assert_eq!(ids(&walk), vec![1, 20, 21]);
        assert_eq!(walk.eliminated, vec![10, 11, 2]);
    }

    #[test]
    fn the_width_limit_stops_the_walk() {
        let (beam, children) = tree();
        let walk = elimination_walk(&ranked(&[20, 21, 10, 11, 1, 2]), &beam, &children, Some(3));
        assert_eq!(ids(&walk), vec![20, 21, 10]);
    }

    #[test]
    fn leaves_in_the_beam_simply_stay() {
        let beam = HashSet::from([5, 6]);
        let walk = elimination_walk(&ranked(&[6, 5]), &beam, &HashMap::new(), Some(3));
        assert_eq!(ids(&walk), vec![6, 5]);
        assert!(walk.eliminated.is_empty());
    }

    #[test]
    fn stop_rule_stops_on_an_unchanged_beam_and_on_a_cycle() {
        let mut rule = StopRule::new(50);
        assert_eq!(rule.check(&ranked(&[1, 2])), Stop::Continue);
        assert_eq!(
            rule.check(&ranked(&[2, 1])),
            Stop::Unchanged,
            "order does not matter"
        );

        let mut rule = StopRule::new(50);
        assert_eq!(rule.check(&ranked(&[1])), Stop::Continue);
        assert_eq!(rule.check(&ranked(&[2])), Stop::Continue);
        assert_eq!(rule.check(&ranked(&[1])), Stop::Cycle);

        let mut rule = StopRule::new(2);
        assert_eq!(rule.check(&ranked(&[1])), Stop::Continue);
        assert_eq!(rule.check(&ranked(&[2])), Stop::StepLimit);
    }
}
