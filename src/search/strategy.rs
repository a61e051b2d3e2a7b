//! The strategies and their settings.

use serde::{Deserialize, Serialize};

/// Defaults: the design's starting values, not yet tuned on the dev split;
/// RRF k and section narrowing are (see `DEFAULT_RRF_K`, `DEFAULT_MAX_NODE_PAGES`).
pub const DEFAULT_FLAT_K: usize = 5;
pub const DEFAULT_BRANCH_ROOTS: usize = 3;
pub const DEFAULT_BEAM_WIDTH: usize = 3;
pub const DEFAULT_MAX_ROOTS: usize = 20;
pub const DEFAULT_SENSITIVITY: f32 = 0.85;
pub const DEFAULT_PROXIES: usize = 12;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "kebab-case")]
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
            Strategy::ProxyPointer {
                proxies: DEFAULT_PROXIES,
            },
        ]
    }

    pub fn needs_llm(&self) -> bool {
        matches!(self, Strategy::ProxyPointer { .. })
    }
}
