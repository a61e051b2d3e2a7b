//! Page descriptions and section summaries from a language model, with a JSON schema
//! so the answer can be parsed.

use serde::Deserialize;
use serde_json::json;

use super::{DescribeError, Description};
use std::sync::Arc;

use crate::llm::health::ModelHealth;
use crate::llm::{cut_chars, LlmClient, LlmFailure, LlmSettings};

const DESCRIPTION_MAX_CHARS: usize = 1_000;
const KEYWORD_MAX_CHARS: usize = 40;
const MAX_KEYWORDS: usize = 12;

pub struct LlmDescriber {
    client: LlmClient,
    /// The run's verdict on the server, shared by every document described in it.
    health: Arc<ModelHealth>,
}

#[derive(Deserialize)]
struct RawDescription {
    description: String,
    #[serde(default)]
    keywords: Vec<String>,
}

#[derive(Deserialize)]
struct RawSummary {
    description: String,
}

impl LlmDescriber {
    /// A describer that gives the server up on its own; [`LlmDescriber::sharing`] for one
    /// that shares a run's verdict.
    pub fn new(settings: LlmSettings) -> Result<Self, DescribeError> {
        Self::sharing(settings, Arc::default())
    }

    pub fn sharing(settings: LlmSettings, health: Arc<ModelHealth>) -> Result<Self, DescribeError> {
        let client =
            LlmClient::new(settings).map_err(|err| DescribeError::InvalidSettings(err.0))?;
        Ok(Self { client, health })
    }

    pub fn health(&self) -> &ModelHealth {
        &self.health
    }

    pub fn settings(&self) -> &LlmSettings {
        self.client.settings()
    }

    pub fn client(&self) -> &LlmClient {
        &self.client
    }

    pub async fn describe_page(&self, page_text: &str) -> Result<Description, LlmFailure> {
        let text = cut_chars(page_text, self.settings().max_input_chars);
        let user = format!("Page text:\n\"\"\"\n{text}\n\"\"\"");
        let content = self
            .client
            .complete_json(PAGE_PROMPT, &user, &page_schema(), "page_description", 512)
            .await?;
        parse_description(&content)
    }

    pub async fn summarise(&self, children: &[&str]) -> Result<String, LlmFailure> {
        let listing = children
            .iter()
            .enumerate()
            .map(|(i, d)| format!("{}. {}", i + 1, cut_chars(d, 1_500)))
            .collect::<Vec<_>>()
            .join("\n");
        let user = format!("Descriptions of consecutive parts of one document:\n{listing}");
        let content = self
            .client
            .complete_json(
                SUMMARY_PROMPT,
                &user,
                &summary_schema(),
                "section_summary",
                512,
            )
            .await?;
        parse_summary(&content)
    }
}

const PAGE_PROMPT: &str = "You index pages of documents for search. Read the page and \
answer with JSON: `description`, two to four factual sentences saying what the page \
contains (name the entities, figures, periods and topics it covers), and `keywords`, up \
to 12 short distinctive terms from the page. Write in the page's language.";

const SUMMARY_PROMPT: &str = "You index documents for search. You get the descriptions \
of consecutive parts of one document. Answer with JSON: `description`, three to five \
factual sentences that summarise what these parts cover together, naming their main \
entities, figures and topics. Write in the descriptions' language.";

fn page_schema() -> serde_json::Value {
    json!({
        "type": "object",
        "properties": {
            "description": {"type": "string", "minLength": 1, "maxLength": DESCRIPTION_MAX_CHARS},
            "keywords": {
                "type": "array",
                "items": {"type": "string", "minLength": 1, "maxLength": KEYWORD_MAX_CHARS},
                "maxItems": MAX_KEYWORDS
            }
        },
        "required": ["description", "keywords"],
        "additionalProperties": false
    })
}

fn summary_schema() -> serde_json::Value {
    json!({
        "type": "object",
        "properties": {
            "description": {"type": "string", "minLength": 1, "maxLength": DESCRIPTION_MAX_CHARS}
        },
        "required": ["description"],
        "additionalProperties": false
    })
}

fn parse_description(content: &str) -> Result<Description, LlmFailure> {
    let raw: RawDescription =
        serde_json::from_str(content).map_err(|err| LlmFailure::Garbage(err.to_string()))?;
    let description = cut_chars(raw.description.trim(), DESCRIPTION_MAX_CHARS);
    if description.is_empty() {
        return Err(LlmFailure::Garbage("the description is empty".into()));
    }
    let mut keywords: Vec<String> = Vec::new();
    for keyword in raw.keywords {
        let keyword = cut_chars(keyword.trim(), KEYWORD_MAX_CHARS).to_lowercase();
        if !keyword.is_empty() && !keywords.contains(&keyword) {
            keywords.push(keyword);
        }
    }
    keywords.truncate(MAX_KEYWORDS);
    Ok(Description {
        description,
        keywords,
    })
}

fn parse_summary(content: &str) -> Result<String, LlmFailure> {
    let raw: RawSummary =
        serde_json::from_str(content).map_err(|err| LlmFailure::Garbage(err.to_string()))?;
    let description = cut_chars(raw.description.trim(), DESCRIPTION_MAX_CHARS);
    if description.is_empty() {
        return Err(LlmFailure::Garbage("the summary is empty".into()));
    }
    Ok(description)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_cleans_a_valid_description() {
        let parsed = parse_description(
            r#"{"description":"  Revenue rose. ","keywords":["Revenue","revenue"," 2022 ",""]}"#,
        )
        .expect("valid");
        assert_eq!(parsed.description, "Revenue rose.");
        assert_eq!(parsed.keywords, vec!["revenue", "2022"]);
    }

    #[test]
    fn rejects_garbage_and_empty_descriptions() {
        assert!(matches!(
            parse_description("not json"),
            Err(LlmFailure::Garbage(_))
        ));
        assert!(matches!(
            parse_description(r#"{"description":"   ","keywords":[]}"#),
            Err(LlmFailure::Garbage(_))
        ));
        assert!(matches!(
            parse_summary(r#"{"other":1}"#),
            Err(LlmFailure::Garbage(_))
        ));
    }

    #[test]
    fn rejects_a_base_url_without_scheme() {
        assert!(LlmDescriber::new(LlmSettings::new("localhost:8080", "m")).is_err());
    }
}
