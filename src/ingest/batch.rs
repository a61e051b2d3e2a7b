//! The end of a batch of ingestions: the vector index is optimized once, after the
//! last document, and only when the batch added one. Per document would rewrite a
//! large part of the index each time; the CLI and the app both end their batches here.

use super::IngestOutcome;
use crate::error::Result;
use crate::library::Library;

/// What a batch of ingestions has added so far.
#[derive(Debug, Default)]
pub struct IngestBatch {
    added: usize,
}

impl IngestBatch {
    pub fn new() -> Self {
        Self::default()
    }

    /// Notes one document's outcome.
    pub fn record(&mut self, outcome: &Result<IngestOutcome>) {
        if matches!(outcome, Ok(IngestOutcome::Added { .. })) {
            self.added += 1;
        }
    }

    /// Documents the batch has added.
    pub fn added(&self) -> usize {
        self.added
    }

    /// Whether [`IngestBatch::finish`] will optimize the index, so that a caller can say
    /// so first: it takes seconds on a large library, with nothing else on screen.
    pub fn will_optimize(&self) -> bool {
        self.added > 0
    }

    /// Ends the batch: optimizes the index if anything was added. A failure leaves the
    /// index searchable, only slower, until the next batch ends.
    pub async fn finish(self, library: &Library) -> Result<()> {
        if self.will_optimize() {
            library.store().await?.optimize().await?;
        }
        Ok(())
    }
}
