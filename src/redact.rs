//! Credentials kept out of what people read: a URL typed as `http://user:password@host`
//! is shown, logged and recorded in history as `http://***@host`, a key a server echoes
//! back (`Incorrect API key provided: Bearer sk-…`) is replaced before anything prints or
//! stores it, and a key about to cross the network in clear is named before it does.

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

/// `Bearer <token>` as an HTTP header or a message quotes it, and OpenAI-style keys
/// (`sk-…`, `sk-proj-…`) wherever they appear.
static TOKENS: LazyLock<Regex> = LazyLock::new(|| {
    // A constant pattern: it either compiles in every build or in none.
    Regex::new(r"(?i)\b(bearer\s+)([A-Za-z0-9._~+/=\-]{8,})|\bsk-[A-Za-z0-9_\-]{6,}")
        .expect("a valid pattern")
});

/// What stands in for a hidden secret.
const HIDDEN: &str = "***";

/// A secret shorter than this is not looked for in text: replacing every `ab` of a
/// message would hide nothing and garble everything.
const SHORTEST_SECRET: usize = 6;

/// Hides the secrets a run knows (the model's and the Qdrant server's API keys) and
/// anything shaped like a bearer token in text that came from a server, before it is
/// printed, logged, stored or shown.
#[derive(Clone, Default)]
pub struct Redactor {
    secrets: Vec<String>,
}

impl std::fmt::Debug for Redactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Redactor({} secrets)", self.secrets.len())
    }
}

impl Redactor {
    /// A redactor of these keys (empty ones are skipped).
    pub fn new<'a>(keys: impl IntoIterator<Item = &'a crate::secret::ApiKey>) -> Self {
        let mut secrets: Vec<String> = keys
            .into_iter()
            .map(|key| key.expose().trim().to_string())
            .filter(|key| key.chars().count() >= SHORTEST_SECRET)
            .collect();
        // The longest first, so that a key holding another is hidden whole.
        secrets.sort_by_key(|secret| std::cmp::Reverse(secret.len()));
        secrets.dedup();
        Self { secrets }
    }

    /// The secrets this redactor hides, for a query that finds text holding one.
    pub(crate) fn secrets(&self) -> &[String] {
        &self.secrets
    }

    /// `text` with every known key, bearer token, `sk-` key and URL password replaced.
    pub fn scrub<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let mut out = Cow::Borrowed(text);
        for secret in &self.secrets {
            if out.contains(secret.as_str()) {
                out = Cow::Owned(out.replace(secret.as_str(), HIDDEN));
            }
        }
        let out = match out {
            Cow::Borrowed(text) => tokens(text),
            Cow::Owned(text) => Cow::Owned(tokens(&text).into_owned()),
        };
        match out {
            Cow::Borrowed(text) => credentials(text),
            Cow::Owned(text) => Cow::Owned(credentials(&text).into_owned()),
        }
    }
}

/// `text` with bearer tokens and `sk-` keys replaced, whoever's they are. A word after
/// "bearer" is a token when it holds a digit or a sign, so "bearer instruments" stays.
pub(crate) fn tokens(text: &str) -> Cow<'_, str> {
    TOKENS.replace_all(text, |caps: &regex::Captures<'_>| {
        match (caps.get(1), caps.get(2)) {
            (Some(bearer), Some(token))
                if token.as_str().chars().any(|c| !c.is_ascii_alphabetic()) =>
            {
                format!("{}{HIDDEN}", bearer.as_str())
            }
            (Some(_), _) => caps[0].to_string(),
            _ => format!("sk-{HIDDEN}"),
        }
    })
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
    fn known_keys_and_token_shaped_words_are_hidden() {
        let key = crate::secret::ApiKey::new("k3y-0f-the-model");
        let qdrant = crate::secret::ApiKey::new("qdrant-secret-42");
        let redactor = Redactor::new([&key, &qdrant, &crate::secret::ApiKey::new("ab")]);
        let said = redactor.scrub(
            "Incorrect API key provided: Bearer k3y-0f-the-model; api-key: qdrant-secret-42, \
             authorization: bearer abc.def-ghi, sk-proj-AbCdEf123456 and http://u:p@h/v1",
        );
        for secret in ["k3y-0f", "qdrant-secret", "abc.def", "AbCdEf", "u:p"] {
            assert!(!said.contains(secret), "{secret} in {said}");
        }
        assert!(said.contains("Bearer ***"), "{said}");
        assert!(said.contains("sk-***"), "{said}");
        assert!(said.contains("http://***@h/v1"), "{said}");
        // Already hidden text stays as it is, and ordinary words are left alone.
        assert_eq!(redactor.scrub(&said), said);
        for plain in [
            "the task-list is short",
            "a bearer bond",
            "Bearer instruments",
            "Bearer ***",
            "risk-adjusted returns",
            "ab ab ab",
        ] {
            assert_eq!(redactor.scrub(plain), plain);
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
