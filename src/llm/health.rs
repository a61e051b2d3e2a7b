//! Whether the model server is still worth asking, for a whole run (a CLI command, or
//! the app until its model settings change): a server that does not answer, cannot be
//! reached or refuses the key is given up on at its first such failure, and one that
//! keeps failing otherwise after a few failures in a row, so that the rest of a batch
//! is described offline at once instead of each page waiting out its own timeouts.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::LlmFailure;

/// Failures in a row (garbage answers, server errors) after which the model is no
/// longer asked: one bad answer is the model's, several in a row are the server's.
const FAILURES_IN_A_ROW: usize = 3;

#[derive(Debug, Default)]
pub struct ModelHealth {
    failures_in_a_row: AtomicUsize,
    /// Why the model was given up on, once it was.
    given_up: Mutex<Option<String>>,
}

impl ModelHealth {
    /// Why the model is no longer asked, if it is not.
    pub fn given_up(&self) -> Option<String> {
        self.lock().clone()
    }

    pub fn note_success(&self) {
        self.failures_in_a_row.store(0, Ordering::Relaxed);
    }

    /// Notes a failed request; returns true when this failure gave the model up.
    pub fn note_failure(&self, failure: &LlmFailure) -> bool {
        let in_a_row = self.failures_in_a_row.fetch_add(1, Ordering::Relaxed) + 1;
        if !(gives_up_at_once(failure) || in_a_row >= FAILURES_IN_A_ROW) {
            return false;
        }
        let mut given_up = self.lock();
        if given_up.is_some() {
            return false;
        }
        *given_up = Some(failure.to_string());
        tracing::warn!(%failure, "the language model is given up on for this run; the rest is described offline");
        true
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<String>> {
        self.given_up
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Failures that say the server will fail the next request the same way: it is not
/// there, it does not answer, it refuses the key, or it sends what no answer is. One
/// slow answer (a `Timeout` from a server that is there) is not such a failure.
fn gives_up_at_once(failure: &LlmFailure) -> bool {
    match failure {
        LlmFailure::Silent { .. }
        | LlmFailure::Unreachable { .. }
        | LlmFailure::TooLarge { .. }
        | LlmFailure::Deadline { .. }
        | LlmFailure::StreamCap { .. } => true,
        LlmFailure::Server(message) => refused_key(message),
        LlmFailure::Garbage(_) | LlmFailure::Timeout { .. } => false,
    }
}

/// An HTTP 401 or 403: every request with this key will be refused alike.
fn refused_key(message: &str) -> bool {
    message.starts_with("HTTP 401") || message.starts_with("HTTP 403")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_silent_server_is_given_up_at_once_and_garbage_after_a_few_in_a_row() {
        let health = ModelHealth::default();
        assert!(health.note_failure(&LlmFailure::Silent {
            url: "http://x".into(),
            seconds: 5,
            detail: "nor to a request for its model list",
        }));
        assert!(health.given_up().is_some_and(|why| why.contains("5 s")));

        let health = ModelHealth::default();
        let garbage = LlmFailure::Garbage("not JSON".into());
        assert!(!health.note_failure(&garbage));
        health.note_success();
        assert!(!health.note_failure(&garbage));
        assert!(!health.note_failure(&garbage));
        assert_eq!(health.given_up(), None);
        assert!(health.note_failure(&garbage));
        assert!(health.given_up().is_some());

        let health = ModelHealth::default();
        assert!(health.note_failure(&LlmFailure::Server("HTTP 401 Unauthorized: bad key".into())));
    }
}
