//! Which failures of the server are worth another try, and how each reads to a person.

use std::future::Future;
use std::time::Duration;

use qdrant_client::QdrantError;

use super::RemoteStore;
use crate::store::StoreError;

/// How often a request that failed for a passing reason (unreachable, too slow,
/// overloaded) is tried in all, and the pause before the second try (doubling after).
const ATTEMPTS: u32 = 3;
const FIRST_PAUSE: Duration = Duration::from_millis(250);

impl RemoteStore {
    /// Runs `request` up to [`ATTEMPTS`] times while it fails for a passing reason.
    pub(super) async fn retrying<T, F, Fut>(
        &self,
        what: &str,
        mut request: F,
    ) -> Result<T, StoreError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, QdrantError>>,
    {
        let mut pause = FIRST_PAUSE;
        let mut attempt = 1;
        loop {
            match request().await {
                Ok(value) => return Ok(value),
                Err(err) if attempt < ATTEMPTS && is_transient(&err) => {
                    tracing::info!(attempt, error = %err, "Qdrant could not {what}; trying again");
                    tokio::time::sleep(pause).await;
                    pause *= 2;
                    attempt += 1;
                }
                Err(err) => return Err(self.explain(what, err)),
            }
        }
    }

    fn explain(&self, what: &str, err: QdrantError) -> StoreError {
        let url = self.config.shown_url();
        let Some(status) = status_of(&err) else {
            return StoreError::Remote {
                url,
                detail: self
                    .redactor
                    .scrub(&format!("could not {what}: {err}"))
                    .into_owned(),
            };
        };
        match classify(status) {
            Failure::TooSlow => StoreError::Timeout {
                url,
                seconds: self.config.timeout_secs,
                attempts: ATTEMPTS,
            },
            Failure::Unreachable => StoreError::Unreachable {
                url,
                detail: self
                    .redactor
                    .scrub(&connection_detail(status.message()))
                    .into_owned(),
            },
            Failure::Refused => StoreError::Refused {
                url,
                detail: self.redactor.scrub(status.message()).into_owned(),
            },
            Failure::Busy | Failure::Other => StoreError::Remote {
                url,
                detail: self
                    .redactor
                    .scrub(&format!("could not {what}: {}", status.message()))
                    .into_owned(),
            },
        }
    }
}

fn status_of(err: &QdrantError) -> Option<&tonic::Status> {
    match err {
        QdrantError::ResponseError { status } => Some(status),
        QdrantError::ResourceExhaustedError { status, .. } => Some(status),
        _ => None,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failure {
    Unreachable,
    TooSlow,
    Busy,
    Refused,
    Other,
}

/// What a gRPC status means for us. qdrant-client reports a failed connection as
/// `Internal` ("Failed to connect to …") and tonic a request timeout as `Cancelled`
/// ("Timeout expired"), so the message matters as well as the code.
fn classify(status: &tonic::Status) -> Failure {
    let message = status.message();
    match status.code() {
        tonic::Code::DeadlineExceeded => Failure::TooSlow,
        tonic::Code::Cancelled if message.contains("Timeout expired") => Failure::TooSlow,
        tonic::Code::Internal if message.starts_with("Failed to connect") => {
            if message.contains("Elapsed") || message.contains("timed out") {
                Failure::TooSlow
            } else {
                Failure::Unreachable
            }
        }
        tonic::Code::Unavailable | tonic::Code::Unknown | tonic::Code::Cancelled => {
            Failure::Unreachable
        }
        tonic::Code::ResourceExhausted | tonic::Code::Aborted => Failure::Busy,
        tonic::Code::Unauthenticated | tonic::Code::PermissionDenied => Failure::Refused,
        _ => Failure::Other,
    }
}

/// The readable end of tonic's nested connect error, e.g. "Connection refused".
fn connection_detail(message: &str) -> String {
    message
        .rsplit_once("message: \"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map(|(detail, _)| detail.to_string())
        .unwrap_or_else(|| message.to_string())
}

/// Failures worth another try: the server was unreachable, too slow or overloaded.
fn is_transient(err: &QdrantError) -> bool {
    status_of(err).is_some_and(|status| {
        matches!(
            classify(status),
            Failure::Unreachable | Failure::TooSlow | Failure::Busy
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_passing_failures_are_retried() {
        let status = |code| QdrantError::ResponseError {
            status: tonic::Status::new(code, "x"),
        };
        assert!(is_transient(&status(tonic::Code::Unavailable)));
        assert!(is_transient(&status(tonic::Code::DeadlineExceeded)));
        assert!(!is_transient(&status(tonic::Code::InvalidArgument)));
        assert!(!is_transient(&status(tonic::Code::Unauthenticated)));
        assert!(!is_transient(&QdrantError::ConversionError("x".into())));
    }

    #[test]
    fn a_refused_connection_reads_as_unreachable() {
        let status = tonic::Status::internal(
            r#"Failed to connect to http://127.0.0.1:9/: tonic::transport::Error(Transport, ConnectError(ConnectError("tcp connect error", 127.0.0.1:9, Os { code: 111, kind: ConnectionRefused, message: "Connection refused" })))"#,
        );
        assert_eq!(classify(&status), Failure::Unreachable);
        assert_eq!(connection_detail(status.message()), "Connection refused");
        assert_eq!(
            classify(&tonic::Status::cancelled("Timeout expired")),
            Failure::TooSlow
        );
        assert_eq!(
            classify(&tonic::Status::internal("bad segment")),
            Failure::Other
        );
    }
}
