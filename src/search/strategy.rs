//! The strategies and their settings.

use serde::{Deserialize, Serialize};

// Each default trades the hits a strategy finds against the context tokens it spends.
// RRF k and section narrowing are explained at `DEFAULT_RRF_K` and
// `DEFAULT_MAX_NODE_PAGES`.

/// Ten pages: half as many find far fewer questions' evidence, and more add hits at a
/// growing cost in tokens.
pub const DEFAULT_FLAT_K: usize = 10;
/// Two roots: one finds fewer questions' evidence over the whole library, and three
/// spend far more tokens for a few more hits (within one document the count makes no
/// difference, one root being all there is).
pub const DEFAULT_BRANCH_ROOTS: usize = 2;
/// Width 3: the most hits for the tokens spent over the whole library; a narrower beam
/// misses more, a wider one spends more tokens than its extra hits are worth.
pub const DEFAULT_BEAM_WIDTH: usize = 3;
/// The knee, the sensitive knee and the largest gap cut a curve of at most this many
/// roots. Ten: at the dev splits' budgets the cap hardly decides which documents are
/// searched (the curve's bend comes first), but over a large library a vague question's
/// curve bends late, and every root kept is a document whose pages are ranked again.
/// A higher cap finds no more and makes those searches slower.
pub const DEFAULT_MAX_ROOTS: usize = 10;
/// 0.85: the most hits of any tree strategy at a moderate cost in tokens; a lower
/// sensitivity keeps more and finds more for far more tokens, a higher one spends less
/// and finds less.
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
