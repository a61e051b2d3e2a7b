//! Finds the OpenAI-compatible servers running on this machine by asking their usual
//! local ports, and lists their models, so that a person can pick one instead of typing
//! a URL. Only 127.0.0.1 is asked, each port with a short timeout, all at once.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Ollama, llama.cpp's `llama-server`, LM Studio: the ports they listen on unless told
/// otherwise.
pub const USUAL_PORTS: [(u16, LocalServerKind); 3] = [
    (11434, LocalServerKind::Ollama),
    (8080, LocalServerKind::LlamaCpp),
    (1234, LocalServerKind::LmStudio),
];

/// The ports to ask instead of the usual ones, as a comma-separated list (for tests, or
/// a server moved to another port).
pub const PORTS_ENV: &str = "PAGETREE_LOCAL_LLM_PORTS";

/// How long one port may take to answer: a local server answers its model list in
/// milliseconds, and the Settings view waits for the slowest port.
pub const PROBE_TIMEOUT: Duration = Duration::from_millis(1500);

/// What kind of server answered, told by what it answers besides the OpenAI API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum LocalServerKind {
    Ollama,
    LlamaCpp,
    LmStudio,
    /// An OpenAI-compatible server that is none of those.
    Other,
}

impl LocalServerKind {
    pub fn label(self) -> &'static str {
        match self {
            Self::Ollama => "Ollama",
            Self::LlamaCpp => "llama.cpp server",
            Self::LmStudio => "LM Studio",
            Self::Other => "OpenAI-compatible server",
        }
    }
}

/// A server found on this machine, and the models it offers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LocalServer {
    pub kind: LocalServerKind,
    pub port: u16,
    /// The base URL to give PageTree, e.g. `http://127.0.0.1:11434/v1`.
    pub base_url: String,
    pub models: Vec<String>,
}

/// Why one port gave no server.
#[derive(Debug, thiserror::Error)]
pub enum DetectError {
    #[error("{PORTS_ENV} must be a comma-separated list of port numbers (1-65535), not `{0}`")]
    BadPorts(String),
    #[error("nothing listens on port {port}")]
    Closed { port: u16 },
    #[error("port {port} did not answer within {} ms", PROBE_TIMEOUT.as_millis())]
    Silent { port: u16 },
    #[error("port {port} answers, but not as an OpenAI-compatible server ({detail})")]
    NotOpenAi { port: u16, detail: String },
}

/// The ports to ask: those `PAGETREE_LOCAL_LLM_PORTS` names, else the usual ones.
pub fn ports_to_ask() -> Result<Vec<(u16, LocalServerKind)>, DetectError> {
    match std::env::var(PORTS_ENV) {
        Ok(list) if !list.trim().is_empty() => parse_ports(&list),
        _ => Ok(USUAL_PORTS.to_vec()),
    }
}

fn parse_ports(list: &str) -> Result<Vec<(u16, LocalServerKind)>, DetectError> {
    list.split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| match part.parse::<u16>() {
            Ok(port) if port > 0 => Ok((port, expected_kind(port))),
            _ => Err(DetectError::BadPorts(list.to_string())),
        })
        .collect()
}

/// The kind a port usually belongs to, until the server says otherwise.
fn expected_kind(port: u16) -> LocalServerKind {
    USUAL_PORTS
        .iter()
        .find(|(usual, _)| *usual == port)
        .map_or(LocalServerKind::Other, |(_, kind)| *kind)
}

/// The servers that answer on the ports to ask, in the order of those ports. A port
/// where nothing answers is left out (logged at debug level); a bad port list is an
/// error.
pub async fn detect_local_servers() -> Result<Vec<LocalServer>, DetectError> {
    let ports = ports_to_ask()?;
    let http = reqwest::Client::builder()
        .timeout(PROBE_TIMEOUT)
        .connect_timeout(PROBE_TIMEOUT)
        // Never through a proxy: these are this machine's own ports.
        .no_proxy()
        .build()
        .map_err(|err| DetectError::NotOpenAi {
            port: 0,
            detail: err.to_string(),
        })?;
    let probes = ports.iter().map(|&(port, kind)| probe(&http, port, kind));
    let answers = futures::future::join_all(probes).await;
    Ok(answers
        .into_iter()
        .filter_map(|answer| match answer {
            Ok(server) => Some(server),
            Err(why) => {
                tracing::debug!(%why, "no language model server there");
                None
            }
        })
        .collect())
}

/// Asks one port for its models: the OpenAI list, and Ollama's own where the OpenAI one
/// is missing or empty.
pub async fn probe(
    http: &reqwest::Client,
    port: u16,
    expected: LocalServerKind,
) -> Result<LocalServer, DetectError> {
    let root = format!("http://127.0.0.1:{port}");
    let openai = get_json::<OpenAiModels>(http, port, &format!("{root}/v1/models")).await;
    let ollama = get_json::<OllamaTags>(http, port, &format!("{root}/api/tags")).await;
    let (kind, models) = match (openai, ollama) {
        (_, Ok(tags)) => {
            let models = tags.models.into_iter().map(|model| model.name).collect();
            (LocalServerKind::Ollama, models)
        }
        (Ok(list), Err(_)) => {
            let kind = if expected == LocalServerKind::Ollama {
                LocalServerKind::Other
            } else if is_llama_cpp(http, &root).await {
                LocalServerKind::LlamaCpp
            } else {
                expected
            };
            (kind, list.data.into_iter().map(|model| model.id).collect())
        }
        (Err(err), Err(_)) => return Err(err),
    };
    Ok(LocalServer {
        kind,
        port,
        base_url: format!("{root}/v1"),
        models,
    })
}

/// llama.cpp's server answers `/props` with its model's settings; the others do not.
async fn is_llama_cpp(http: &reqwest::Client, root: &str) -> bool {
    match http.get(format!("{root}/props")).send().await {
        Ok(response) if response.status().is_success() => response
            .json::<serde_json::Value>()
            .await
            .is_ok_and(|props| props.get("default_generation_settings").is_some()),
        _ => false,
    }
}

/// The tokens of context one request may fill at the server of `base_url` (its `/v1`
/// or not), when it says: llama.cpp's server reports it in `/props`. None for a server
/// that does not answer that within [`PROBE_TIMEOUT`].
pub async fn context_window(base_url: &str) -> Option<usize> {
    let root = base_url.trim_end_matches('/').trim_end_matches("/v1");
    let http = reqwest::Client::builder()
        .timeout(PROBE_TIMEOUT)
        .connect_timeout(PROBE_TIMEOUT)
        .build()
        .ok()?;
    let props: serde_json::Value = get_json(&http, 0, &format!("{root}/props")).await.ok()?;
    let window = props
        .get("default_generation_settings")?
        .get("n_ctx")?
        .as_u64()?;
    usize::try_from(window).ok().filter(|&window| window > 0)
}

/// `settings` with the context window its server reports, when it reports one and none
/// is known yet: answers are then fitted to it instead of overflowing it.
pub async fn learn_context_window(settings: &mut crate::llm::LlmSettings) {
    if settings.context_tokens.is_none() {
        settings.context_tokens = context_window(&settings.base_url).await;
        if let Some(window) = settings.context_tokens {
            tracing::info!(url = %settings.shown_url(), window, "the model server's context window");
        }
    }
}

/// A local answer is a short model list; more than this is not one.
const MAX_LIST_BYTES: usize = 1024 * 1024;

async fn get_json<T: serde::de::DeserializeOwned>(
    http: &reqwest::Client,
    port: u16,
    url: &str,
) -> Result<T, DetectError> {
    let not_openai = |detail: String| DetectError::NotOpenAi { port, detail };
    let mut response = http.get(url).send().await.map_err(|err| {
        if err.is_timeout() {
            DetectError::Silent { port }
        } else if err.is_connect() {
            DetectError::Closed { port }
        } else {
            not_openai(err.to_string())
        }
    })?;
    if !response.status().is_success() {
        return Err(not_openai(format!("HTTP {}", response.status())));
    }
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|_| DetectError::Silent { port })?
    {
        if body.len() + chunk.len() > MAX_LIST_BYTES {
            return Err(not_openai(
                "its answer is too large for a model list".into(),
            ));
        }
        body.extend_from_slice(&chunk);
    }
    serde_json::from_slice(&body).map_err(|err| not_openai(err.to_string()))
}

#[derive(Deserialize)]
struct OpenAiModels {
    data: Vec<OpenAiModel>,
}

#[derive(Deserialize)]
struct OpenAiModel {
    id: String,
}

#[derive(Deserialize)]
struct OllamaTags {
    models: Vec<OllamaModel>,
}

#[derive(Deserialize)]
struct OllamaModel {
    name: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_list_is_numbers_and_a_bad_one_is_named() {
        let ports = parse_ports("8080, 41234,,11434").expect("valid");
        assert_eq!(
            ports,
            vec![
                (8080, LocalServerKind::LlamaCpp),
                (41234, LocalServerKind::Other),
                (11434, LocalServerKind::Ollama)
            ]
        );
        let err = parse_ports("8080,http").unwrap_err();
        assert!(err.to_string().contains("`8080,http`"), "{err}");
        assert!(parse_ports("0").is_err());
        assert!(parse_ports("70000").is_err());
    }

    #[tokio::test]
    async fn a_closed_port_is_no_server() {
        // A port just freed: nothing listens on it.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let http = reqwest::Client::builder()
            .timeout(PROBE_TIMEOUT)
            .build()
            .expect("client");
        let err = probe(&http, port, LocalServerKind::Other)
            .await
            .unwrap_err();
        assert!(matches!(err, DetectError::Closed { .. }), "{err}");
    }
}
