//! The strategies and their settings.

use serde::{Deserialize, Serialize};

// Defaults chosen on the FinanceBench dev split (47 questions, 78 filings), with
// `scripts/bench_sweep.py` (hit rate / mean context tokens; "whole" = library-wide,
// "per doc" = restricted to the question's filing). RRF k and section narrowing are
// justified at `DEFAULT_RRF_K` and `DEFAULT_MAX_NODE_PAGES`.

/// k = 10: whole .170 / 6,875 and per doc .660 / 7,009, against k = 5 at .085 / 3,523
/// and .468 / 3,506: twice the tokens for two (whole) and 1.4 (per doc) times the hits;
/// k = 15 adds half as many tokens again for .277 and .723.
pub const DEFAULT_FLAT_K: usize = 10;
/// 2 roots: whole .106 / 9,388, against .064 / 4,666 for 1 and .128 / 15,337 for 3
/// (per doc all counts tie at .55–.57, one root being all there is).
pub const DEFAULT_BRANCH_ROOTS: usize = 2;
/// Width 3: the best hits per 1k tokens of the widths tried on the whole library
/// (.170 / 9,503 = .0179; 2: .0146; 5: .0117); per doc .426 / 5,076.
pub const DEFAULT_BEAM_WIDTH: usize = 3;
/// The knee, the sensitive knee and the largest gap cut a curve of at most this many
/// roots. Ten: at the dev splits' budgets the cap hardly decides which documents are
/// searched (the curve's bend comes first), but over a large library a vague question's
/// curve bends late, and every root kept is a document whose pages are ranked again.
/// financebench-dev whole library (`--token-budget 2500`), 5 / 10 / 20 / 40 roots: knee
/// .617 / .638 / .617 / .617 (opaque file names the same), sensitive knee and largest
/// gap .596 at every cap, the gold filing in the first five .979 at every cap; with e5
/// knee .553 / .532 / .532 / .532. xquad-dev (e5, 600 tokens), knee at 10 against 40:
/// ru .933 / .935, es .971 / .971, en .980 / .982; sensitive knee ru .935 / .933, es
/// .975 / .974, en .987 / .989. `bench-scale` at 100k nodes, 4 paired runs: knee 3.81
/// -> 2.52 ms, sensitive knee 4.38 -> 2.63 (flat 2.14 / 2.15).
pub const DEFAULT_MAX_ROOTS: usize = 10;
/// 0.85: whole .234 / 15,852, the highest hit rate of any tree strategy under 20k
/// tokens (1.0: .170 / 8,755; 0.7: .298 / 34,019); per doc .447 / 6,144.
pub const DEFAULT_SENSITIVITY: f32 = 0.85;
/// The collapsed tree ranks as many nodes as the knee strategies start roots from.
pub const DEFAULT_COLLAPSED_DEPTH: usize = 40;
pub const DEFAULT_PROXIES: usize = 12;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Strategy {
    /// Hybrid top-k over pages only.
    Flat { k: usize },
    /// The best roots; each node is replaced by those of its children that rank above it.
    Branch { roots: usize },
    /// A beam of fixed width descending the trees.
    Beam { width: usize },
    /// A beam cut at the knee of the score curve at every step.
    Knee { max_roots: usize },
    /// As `Knee`, keeping every point within `sensitivity` of the knee's distance.
    SensitiveKnee { sensitivity: f32, max_roots: usize },
    /// As `Knee`, cut where the drop between neighbouring scores is largest.
    LargestGap { max_roots: usize },
    /// No descent: the best `depth` nodes of every level ranked in one list and cut at
    /// the knee (RAPTOR's collapsed tree), so that a comparison shows whether walking
    /// the tree helps.
    CollapsedTree { depth: usize },
    /// An LLM reads the best section summaries and points at documents and pages.
    ProxyPointer { proxies: usize },
}

impl Strategy {
    pub fn name(&self) -> &'static str {
        match self {
            Strategy::Flat { .. } => "flat",
            Strategy::Branch { .. } => "branch",
            Strategy::Beam { .. } => "beam",
            Strategy::Knee { .. } => "knee",
            Strategy::SensitiveKnee { .. } => "sensitive-knee",
            Strategy::LargestGap { .. } => "largest-gap",
            Strategy::CollapsedTree { .. } => "collapsed-tree",
            Strategy::ProxyPointer { .. } => "proxy-pointer",
        }
    }

    /// Every strategy with its default settings, in the order the comparison shows them.
    pub fn all_defaults() -> Vec<Strategy> {
        vec![
            Strategy::Flat { k: DEFAULT_FLAT_K },
            Strategy::Branch {
                roots: DEFAULT_BRANCH_ROOTS,
            },
            Strategy::Beam {
                width: DEFAULT_BEAM_WIDTH,
            },
            Strategy::Knee {
                max_roots: DEFAULT_MAX_ROOTS,
            },
            Strategy::SensitiveKnee {
                sensitivity: DEFAULT_SENSITIVITY,
                max_roots: DEFAULT_MAX_ROOTS,
            },
            Strategy::LargestGap {
                max_roots: DEFAULT_MAX_ROOTS,
            },
            Strategy::CollapsedTree {
                depth: DEFAULT_COLLAPSED_DEPTH,
            },
            Strategy::ProxyPointer {
                proxies: DEFAULT_PROXIES,
            },
        ]
    }

    pub fn needs_llm(&self) -> bool {
        matches!(self, Strategy::ProxyPointer { .. })
    }
}
