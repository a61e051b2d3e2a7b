//! The library's side of extractive answers: the found pages' passages (from the PDF's
//! layout, or the stored text when the file is gone or the page is a scan), their
//! vectors, and how the search ranked each page.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Arc;

use super::document_name;
use super::extractive::{self, ExtractiveAnswer, PageCandidates, RankedPage};
use super::layout::{read_layouts, PageLayout};
use super::ocr_layout::add_ocr_words;
use crate::embed::{DenseTexts, QuestionLanguage};
use crate::error::Result;
use crate::library::Library;
use crate::search::SearchResult;

/// Pages' passages and passages' dense vectors kept between questions (a benchmark asks
/// many questions of the same pages).
#[derive(Default)]
pub struct CandidateCache {
    /// By document, page and BM25 language.
    pages: HashMap<(i64, u32, String), PageCandidates>,
    /// By the text embedded.
    vectors: HashMap<String, Vec<f32>>,
}

impl CandidateCache {
    pub fn new() -> Self {
        Self::default()
    }
}

impl Library {
    /// The extractive answer to `question` from the pages `search` found.
    pub async fn extractive_answer(
        &self,
        question: &str,
        search: &SearchResult,
    ) -> Result<ExtractiveAnswer> {
        self.extractive_answer_cached(question, search, &mut CandidateCache::new())
            .await
    }

    /// As `extractive_answer`, keeping every page's passages in `cache` for the next
    /// question (a benchmark asks many questions of the same pages).
    pub async fn extractive_answer_cached(
        &self,
        question: &str,
        search: &SearchResult,
        cache: &mut CandidateCache,
    ) -> Result<ExtractiveAnswer> {
        let language = self.question_language(question).await?;
        let sparse = self.sparse_for(&language)?;
        let dense = self.dense().await?;
        let pages: Vec<(i64, u32)> = search
            .context
            .pages
            .iter()
            .map(|p| (p.doc_id, p.page))
            .collect();
        let missing: Vec<(i64, u32)> = pages
            .iter()
            .copied()
            .filter(|(doc, page)| !cache.pages.contains_key(&(*doc, *page, language.clone())))
            .collect();
        let built = self.page_candidates(&missing, &language).await?;
        for page in built {
            cache
                .pages
                .insert((page.doc_id, page.page, language.clone()), page);
        }
        let ranks = page_ranks(search);
        let ranked: Vec<RankedPage<'_>> = pages
            .iter()
            .filter_map(|(doc, page)| {
                cache
                    .pages
                    .get(&(*doc, *page, language.clone()))
                    .map(|candidates| RankedPage {
                        page: candidates,
                        rank: ranks.get(&(*doc, *page)).copied().unwrap_or(0.0),
                    })
            })
            .collect();
        let reads = QuestionLanguage::of_stemmer(&language);
        let text = extractive::question_for_passages(question, &ranked);
        let model = Arc::clone(&dense);
        let question_dense =
            tokio::task::spawn_blocking(move || model.embed_question(&text, reads))
                .await
                .map_err(|err| crate::embed::EmbedError::Inference(err.to_string()))??;
        // Only the passages best by words are compared by meaning: embedding every
        // passage of ten pages would take seconds.
        let shortlist = extractive::shortlist(question, &sparse, &ranked);
        let wanted: Vec<String> = shortlist
            .texts()
            .filter(|text| !cache.vectors.contains_key(text))
            .collect();
        let embedded = if wanted.is_empty() {
            Vec::new()
        } else {
            let texts = wanted.clone();
            tokio::task::spawn_blocking(move || {
                let groups: Vec<DenseTexts> = texts
                    .iter()
                    .map(|t| DenseTexts {
                        windows: vec![t.clone()],
                        whole: t.clone(),
                    })
                    .collect();
                dense.embed_grouped(&groups)
            })
            .await
            .map_err(|err| crate::embed::EmbedError::Inference(err.to_string()))??
        };
        for (text, mut windows) in wanted.into_iter().zip(embedded) {
            if let Some(vector) = windows.pop() {
                cache.vectors.insert(text, vector);
            }
        }
        let vectors = &cache.vectors;
        let similarity = |text: &str| {
            vectors
                .get(text)
                .filter(|v| v.len() == question_dense.len())
                .map(|v| {
                    v.iter()
                        .zip(&question_dense)
                        .map(|(a, b)| a * b)
                        .sum::<f32>()
                })
        };
        Ok(extractive::answer(&shortlist, &similarity))
    }

    /// The passages of `pages`, with vectors in `language`'s BM25 and the library's
    /// dense model.
    pub async fn page_candidates(
        &self,
        pages: &[(i64, u32)],
        language: &str,
    ) -> Result<Vec<PageCandidates>> {
        if pages.is_empty() {
            return Ok(Vec::new());
        }
        let mut by_document: BTreeMap<i64, Vec<u32>> = BTreeMap::new();
        for &(doc, page) in pages {
            by_document.entry(doc).or_default().push(page);
        }
        let texts = self.catalog().page_texts(pages).await?;
        let pdfium = self.assets()?.pdfium_library.clone();
        let mut layouts: HashMap<(i64, u32), PageLayout> = HashMap::new();
        let mut names: HashMap<i64, String> = HashMap::new();
        let mut organisations: HashMap<i64, Arc<[String]>> = HashMap::new();
        for (doc, numbers) in &by_document {
            let document = self.catalog().resolve(&doc.to_string()).await?;
            names.insert(*doc, document_name(&document.file_name).to_string());
            if let Some(card) = &document.card {
                organisations.insert(*doc, extractive::organisation_words(card));
            }
            let path = PathBuf::from(&document.path);
            if !path.is_file() {
                continue;
            }
            let (library, numbers) = (pdfium.clone(), numbers.clone());
            let read = tokio::task::spawn_blocking(move || read_layouts(&library, &path, &numbers))
                .await
                .map_err(|err| crate::embed::EmbedError::Inference(err.to_string()))?;
            match read {
                Ok(read) => {
                    for layout in read {
                        layouts.insert((*doc, layout.page), layout);
                    }
                }
                // The stored text still answers; only the boxes are lost.
                Err(err) => tracing::warn!("{}: page layout not read: {err}", document.name),
            }
        }
        // A scan's layout is made of the words OCR read on it (only scans have them):
        // its own few characters, if any, are a page number or a stray mark.
        for (&(doc, page), layout) in layouts.iter_mut() {
            let words = self.catalog().page_word_boxes(doc, page).await?;
            if !words.is_empty() {
                add_ocr_words(layout, &words);
            }
        }
        let sparse = self.sparse_for(language)?;
        let jobs: Vec<PageJob> = pages
            .iter()
            .map(|&(doc, page)| {
                (
                    doc,
                    page,
                    names.get(&doc).cloned().unwrap_or_default(),
                    layouts.remove(&(doc, page)),
                    texts.get(&(doc, page)).cloned(),
                )
            })
            .collect();
        let built = tokio::task::spawn_blocking(move || {
            jobs.into_iter()
                .map(|(doc, page, name, layout, text)| {
                    PageCandidates::build(doc, &name, page, layout, text.as_deref(), &sparse)
                })
                .collect::<std::result::Result<Vec<_>, _>>()
        })
        .await
        .map_err(|err| crate::embed::EmbedError::Inference(err.to_string()))??;
        Ok(built
            .into_iter()
            .map(|mut page| {
                page.organisation_words =
                    organisations.get(&page.doc_id).cloned().unwrap_or_default();
                page
            })
            .collect())
    }
}

/// A page to read passages from: document, page, document name, layout, stored text.
type PageJob = (i64, u32, String, Option<PageLayout>, Option<String>);

/// Each found page's rank, 0–1: the score of the best selected node holding it, over
/// the best score of all.
fn page_ranks(search: &SearchResult) -> HashMap<(i64, u32), f32> {
    let best = search
        .selected
        .iter()
        .map(|node| node.score)
        .fold(f32::MIN, f32::max);
    let mut ranks: HashMap<(i64, u32), f32> = HashMap::new();
    for page in &search.context.pages {
        let score = search
            .selected
            .iter()
            .filter(|node| {
                node.doc_id == page.doc_id && (node.page_start..=node.page_end).contains(&page.page)
            })
            .map(|node| node.score)
            .fold(f32::MIN, f32::max);
        let rank = if best > 0.0 && score > f32::MIN {
            (score / best).clamp(0.0, 1.0)
        } else {
            0.0
        };
        ranks.insert((page.doc_id, page.page), rank);
    }
    ranks
}
