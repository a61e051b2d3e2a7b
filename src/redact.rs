//! Credentials kept out of what people read: a URL typed as `http://user:password@host`
//! is shown, logged and recorded in history as `http://***@host`, and a key about to
//! cross the network in clear is named before it does.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

/// A scheme, `://`, and everything up to the last `@` before the host's end: greedy, so
/// that an unencoded `@` in a password does not leave half of it behind.
static USERINFO: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern: it either compiles in every build or in none.
    Regex::new(r"(?i)\b([a-z][a-z0-9+.\-]*://)[^/?#\s]+@").expect("a valid pattern")
});

/// `text` with the user and password of every URL in it replaced by `***`, for URLs
/// given alone and for error messages that quote one.
pub(crate) fn credentials(text: &str) -> Cow<'_, str> {
    USERINFO.replace_all(text, "${1}***@")
}

/// The sentence to warn with when a key would go to `url` over plain `http://` to
/// another machine (on the loopback interface nobody else can read it).
pub(crate) fn key_in_clear(what: &str, url: &str) -> Option<String> {
    let parsed = url::Url::parse(url.trim()).ok()?;
    if parsed.scheme() != "http" {
        return None;
    }
    let loopback = match parsed.host()? {
        url::Host::Domain(name) => name.eq_ignore_ascii_case("localhost"),
        url::Host::Ipv4(ip) => ip.is_loopback(),
        url::Host::Ipv6(ip) => ip.is_loopback(),
    };
    (!loopback).then(|| {
        format!(
            "the {what} API key goes to {} over plain http://, readable by anyone on the \
             network in between; use https:// for a server on another machine",
            credentials(url.trim())
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_and_password_are_hidden_wherever_a_url_is_quoted() {
        assert_eq!(
            credentials("http://alice:s3cret@llm.example:8080/v1"),
            "http://***@llm.example:8080/v1"
        );
        assert_eq!(
            credentials("error sending request for url (https://tok@host/v1/models): refused"),
            "error sending request for url (https://***@host/v1/models): refused"
        );
        assert_eq!(
            credentials("HTTP://a:p@ss@host/x and http://b:q@other"),
            "HTTP://***@host/x and http://***@other"
        );
    }

    #[test]
    fn urls_without_credentials_and_plain_addresses_are_left_alone() {
        for text in [
            "http://127.0.0.1:8080/v1",
            "https://host/path?mail=a@b.c",
            "write to alice@example.com",
            "no url here",
        ] {
            assert_eq!(credentials(text), text);
        }
    }

    #[test]
    fn a_key_over_plain_http_to_another_machine_is_named() {
        let warning = key_in_clear("Qdrant", "http://u:p@qdrant.internal:6334").expect("a warning");
        assert!(
            warning.contains("http://***@qdrant.internal:6334"),
            "{warning}"
        );
        assert!(!warning.contains("u:p"), "{warning}");
        assert_eq!(key_in_clear("Qdrant", "https://qdrant.internal:6334"), None);
        assert_eq!(key_in_clear("Qdrant", "http://localhost:6334"), None);
        assert_eq!(key_in_clear("Qdrant", "http://127.0.0.1:6334"), None);
        assert_eq!(key_in_clear("Qdrant", "http://[::1]:6334"), None);
    }
}
