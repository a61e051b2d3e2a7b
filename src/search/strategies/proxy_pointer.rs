//! Proxy-Pointer: hybrid search picks the best section summaries (proxies), an LLM
//! reads them with the question and points at documents and page ranges, and the exact
//! pages are then read from the originals.

use std::collections::HashMap;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::catalog::DocumentRecord;
use crate::error::Result;
use crate::library::{Library, LibraryError};
use crate::llm::{cut_chars, LlmClient, LlmFailure};
use crate::search::{SearchResult, SearchSettings, SelectedNode, Strategy, TraceStep};
use crate::store::{Candidates, QueryVectors, ScoredNode};
use crate::tree::{page_node_id, Node};

/// Pointers the model is less sure of than this are dropped.
pub(crate) const MIN_CONFIDENCE: f32 = 0.3;
/// A pointer wider than this is cut to its first pages: a whole filing is not a pointer.
pub(crate) const MAX_POINTER_PAGES: u32 = 12;
const MAX_POINTERS: usize = 8;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Pointer {
    pub document: String,
    pub page_start: u32,
    pub page_end: u32,
    pub confidence: f32,
}

#[derive(Deserialize)]
struct PointerAnswer {
    pointers: Vec<Pointer>,
}

/// A pointer that was refused, and why.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Rejected {
    pub pointer: Pointer,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Validated {
    pub accepted: Vec<(i64, Pointer)>,
    pub rejected: Vec<Rejected>,
}

/// Keeps the pointers that name a known document and pages it has, with enough
/// confidence; says why each other one was refused.
pub fn validate(pointers: Vec<Pointer>, documents: &[DocumentRecord]) -> Validated {
    let mut accepted = Vec::new();
    let mut rejected = Vec::new();
    for mut pointer in pointers {
        let known = documents.iter().find(|d| {
            d.name.eq_ignore_ascii_case(pointer.document.trim())
                || d.file_name.eq_ignore_ascii_case(pointer.document.trim())
        });
        let Some(document) = known else {
            rejected.push(Rejected {
                reason: format!(
                    "no document called `{}` is in the library",
                    pointer.document
                ),
                pointer,
            });
            continue;
        };
        let pages = document.page_count.unwrap_or(0);
        if pointer.page_start == 0
            || pointer.page_start > pointer.page_end
            || pointer.page_end > pages
        {
            rejected.push(Rejected {
                reason: format!(
                    "pages {}-{} are not within {} (pages 1-{pages})",
                    pointer.page_start, pointer.page_end, document.name
                ),
                pointer,
            });
            continue;
        }
        if pointer.confidence.is_nan() || pointer.confidence < MIN_CONFIDENCE {
            rejected.push(Rejected {
                reason: format!(
                    "confidence {:.2} is under {MIN_CONFIDENCE}",
                    pointer.confidence
                ),
                pointer,
            });
            continue;
        }
        pointer.page_end = pointer
            .page_end
            .min(pointer.page_start + MAX_POINTER_PAGES - 1);
        pointer.document = document.name.clone();
        accepted.push((document.id, pointer));
    }
    Validated { accepted, rejected }
}

const POINTER_PROMPT: &str = "You find where in a library of documents a question is \
answered. You get the question and summaries of sections of documents, each with its \
document name and page range. Answer with JSON: `pointers`, up to 8 objects with \
`document` (a document name exactly as given), `page_start` and `page_end` (the pages \
most likely to hold the answer, as narrow as you can) and `confidence` (0 to 1). Point \
only at documents and pages listed.";

fn pointer_schema() -> serde_json::Value {
    json!({
        "type": "object",
        "properties": {
            "pointers": {
                "type": "array",
                "maxItems": MAX_POINTERS,
                "items": {
                    "type": "object",
                    "properties": {
                        "document": {"type": "string", "maxLength": 200},
                        "page_start": {"type": "integer", "minimum": 1},
                        "page_end": {"type": "integer", "minimum": 1},
                        "confidence": {"type": "number", "minimum": 0, "maximum": 1}
                    },
                    "required": ["document", "page_start", "page_end", "confidence"],
                    "additionalProperties": false
                }
            }
        },
        "required": ["pointers"],
        "additionalProperties": false
    })
}

fn proxy_listing(proxies: &[&Node], names: &HashMap<i64, &str>) -> String {
    proxies
        .iter()
        .map(|node| {
            format!(
                "- document: {} | pages {}-{} | {}",
                names
                    .get(&node.doc_id)
                    .copied()
                    .unwrap_or(node.file_name.as_str()),
                node.page_start,
                node.page_end,
                cut_chars(&node.description, 700)
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl Library {
    /// Runs proxy-pointer, showing the model the best `proxies` section summaries.
    pub(in crate::search) async fn proxy_pointer(
        &self,
        question: &str,
        query: &QueryVectors,
        embed_ms: f64,
        proxies: usize,
        settings: &SearchSettings,
    ) -> Result<SearchResult> {
        let llm_settings = self.llm_settings().ok_or(LibraryError::NoLlm)?.clone();
        let client = LlmClient::new(llm_settings).map_err(|e| LibraryError::Settings(e.0))?;
        let started = Instant::now();
        let documents = self
            .searchable_documents(settings.documents.as_deref())
            .await?;
        let doc_ids: Vec<i64> = documents.iter().map(|d| d.id).collect();
        let names: HashMap<i64, &str> = documents.iter().map(|d| (d.id, d.name.as_str())).collect();
        let store = self.store().await?;
        let ranked = store
            .hybrid_scores(
                query,
                &Candidates::Sections(doc_ids),
                proxies.max(1),
                settings.fusion,
            )
            .await?;
        let nodes = store
            .nodes(&ranked.iter().map(|n| n.id).collect::<Vec<_>>())
            .await?;
        let by_id: HashMap<u64, &Node> = nodes.iter().map(|n| (n.id, n)).collect();
        let shown: Vec<&Node> = ranked
            .iter()
            .filter_map(|n| by_id.get(&n.id).copied())
            .collect();
        let mut trace = vec![TraceStep {
            label: "proxies".into(),
            candidates: ranked.clone(),
            knee_index: None,
            kept: ranked.len(),
            eliminated: Vec::new(),
            beam: ranked.iter().map(|n| n.id).collect(),
        }];
        let user = format!(
            "Question: {question}\n\nSections:\n{}",
            proxy_listing(&shown, &names)
        );
        let answer = client
            .complete_json(
                POINTER_PROMPT,
                &user,
                &pointer_schema(),
                "page_pointers",
                600,
            )
            .await
            .map_err(|failure| LibraryError::Llm(failure.to_string()))?;
        let parsed: PointerAnswer = serde_json::from_str(&answer).map_err(|err| {
            LibraryError::Llm(
                LlmFailure::Garbage(format!("the pointers are not in the asked form: {err}"))
                    .to_string(),
            )
        })?;
        let validated = validate(parsed.pointers, &documents);
        let selected: Vec<SelectedNode> = validated
            .accepted
            .iter()
            .map(|(doc_id, pointer)| SelectedNode {
                id: page_node_id(*doc_id, pointer.page_start),
                doc_id: *doc_id,
                file_name: documents
                    .iter()
                    .find(|d| d.id == *doc_id)
                    .map(|d| d.file_name.clone())
                    .unwrap_or_default(),
                level: 0,
                page_start: pointer.page_start,
                page_end: pointer.page_end,
                score: pointer.confidence,
            })
            .collect();
        trace.push(TraceStep {
            label: "pointers".into(),
            candidates: selected
                .iter()
                .map(|s| ScoredNode {
                    id: s.id,
                    score: s.score,
                })
                .collect(),
            knee_index: None,
            kept: selected.len(),
            eliminated: Vec::new(),
            beam: selected.iter().map(|s| s.id).collect(),
        });
        let search_ms = started.elapsed().as_secs_f64() * 1e3;
        let context = self.context(&selected, settings.token_budget).await?;
        let stopped_because = if validated.rejected.is_empty() {
            format!("the model pointed at {} page range(s)", selected.len())
        } else {
            format!(
                "the model pointed at {} page range(s); refused: {}",
                selected.len(),
                validated
                    .rejected
                    .iter()
                    .map(|r| r.reason.clone())
                    .collect::<Vec<_>>()
                    .join("; ")
            )
        };
        Ok(SearchResult {
            question: question.to_string(),
            strategy: Strategy::ProxyPointer { proxies },
            settings: settings.clone(),
            selected,
            context,
            embed_ms,
            search_ms,
            latency_ms: embed_ms + started.elapsed().as_secs_f64() * 1e3,
            store_queries: 1,
            trace,
            stopped_because,
            analysis: None,
            statements: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::DocumentStatus;

    fn document(id: i64, name: &str, pages: u32) -> DocumentRecord {
        DocumentRecord {
            id,
            name: name.into(),
            file_name: format!("{name}.pdf"),
            path: String::new(),
            content_hash: String::new(),
            page_count: Some(pages),
            pages_without_text: Some(0),
            pages_read_by_ocr: Some(0),
            pages_needing_ocr: Some(0),
            node_count: Some(pages),
            status: DocumentStatus::Ready,
            error: None,
            describer: None,
            warnings: None,
            card: None,
            language: None,
            added_at: String::new(),
            updated_at: String::new(),
        }
    }

    fn pointer(document: &str, start: u32, end: u32, confidence: f32) -> Pointer {
        Pointer {
            document: document.into(),
            page_start: start,
            page_end: end,
            confidence,
        }
    }

    #[test]
    fn unknown_documents_bad_pages_and_low_confidence_are_refused() {
        let documents = [document(1, "3M_2018_10K", 100)];
        let validated = validate(
            vec![
                pointer("3M_2018_10K", 60, 61, 0.9),
                pointer("3m_2018_10k.pdf", 5, 5, 0.5),
                pointer("BOEING_2022_10K", 1, 2, 0.9),
                pointer("3M_2018_10K", 99, 101, 0.9),
                pointer("3M_2018_10K", 0, 1, 0.9),
                pointer("3M_2018_10K", 10, 11, 0.29),
                pointer("3M_2018_10K", 10, 11, f32::NAN),
            ],
            &documents,
        );
        assert_eq!(
            validated.accepted,
            vec![
                (1, pointer("3M_2018_10K", 60, 61, 0.9)),
                (1, pointer("3M_2018_10K", 5, 5, 0.5))
            ]
        );
        let reasons: Vec<&str> = validated
            .rejected
            .iter()
            .map(|r| r.reason.as_str())
            .collect();
        assert!(reasons[0].contains("no document called `BOEING_2022_10K`"));
        assert!(reasons[1].contains("pages 99-101 are not within"));
        assert!(reasons[2].contains("pages 0-1"));
        assert!(reasons[3].contains("under 0.3") && reasons[4].contains("under 0.3"));
    }

    #[test]
    fn wide_pointers_are_narrowed() {
        let validated = validate(vec![pointer("A", 1, 90, 0.8)], &[document(1, "A", 100)]);
        assert_eq!(validated.accepted[0].1.page_end, MAX_POINTER_PAGES);
    }
}
