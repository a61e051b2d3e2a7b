//! `Library::search`: embeds the question once, runs a strategy, assembles the context.

use std::collections::HashSet;
use std::time::Instant;

use super::balance::DenseBalance;
use super::context::{self, Context};
use super::document_words::{boosts_by_root, WordLookup};
use super::named_page_boosts::named_page_boosts;
use super::named_pages::{self, PageReference};
use super::page_boosts::PageBoosts;
use super::page_order;
use super::state::SearchState;
use super::strategies::Plan;
use super::{SearchResult, SearchSettings, SelectedNode, Strategy};
use crate::card::{analyse_question, QuestionAnalysis};
use crate::catalog::{DocumentRecord, DocumentStatus, SearchScope, StatementPage};
use crate::embed::QuestionLanguage;
use crate::error::Result;
use crate::library::Library;
use crate::statements::{statements_asked, FinancialStatement};
use crate::store::{QueryVectors, Sparse};
use crate::tree::root_node_id;

impl Library {
    /// The documents a search may use: ready ones, restricted to `only` when given.
    pub(crate) async fn searchable_documents(
        &self,
        only: Option<&[i64]>,
    ) -> Result<Vec<DocumentRecord>> {
        Ok(self
            .catalog()
            .documents_with_status(DocumentStatus::Ready)
            .await?
            .into_iter()
            .filter(|d| only.is_none_or(|ids| ids.contains(&d.id)))
            .filter(|d| d.node_count.unwrap_or(0) > 0)
            .collect())
    }

    /// Opens the index and runs the embedding model once, so that a person's first
    /// question costs what every later one does: in a fresh process the first one
    /// spends about a third of a second loading the model (financebench library, e5 and
    /// MiniLM together). `false`, and nothing loaded, when there is nothing to search
    /// yet: the first document may still choose the model.
    pub async fn warm_up(&self) -> Result<bool> {
        if self.searchable_documents(None).await?.is_empty() {
            return Ok(false);
        }
        let started = Instant::now();
        self.store().await?;
        self.embed_query("What does this document say?").await?;
        tracing::info!(
            ms = started.elapsed().as_secs_f64() * 1e3,
            "search warmed up"
        );
        Ok(true)
    }

    /// Embeds a question for both halves of the hybrid score.
    pub(crate) async fn embed_query(&self, question: &str) -> Result<QueryVectors> {
        let dense = self.dense().await?;
        let language = self.question_language(question).await?;
        let sparse = self.sparse_for(&language)?;
        let reads = QuestionLanguage::of_stemmer(&language);
        let text = question.to_string();
        let dense = tokio::task::spawn_blocking(move || dense.embed_question(&text, reads))
            .await
            .map_err(|err| crate::embed::EmbedError::Inference(err.to_string()))??;
        Ok(QueryVectors {
            dense,
            sparse: Sparse::from(sparse.embed_query(&super::query::expand_for_bm25(question))),
        })
    }

    /// `embed_query`, and how long it took in milliseconds (reported apart from search).
    pub(crate) async fn embed_query_timed(&self, question: &str) -> Result<(QueryVectors, f64)> {
        let started = Instant::now();
        let query = self.embed_query(question).await?;
        Ok((query, started.elapsed().as_secs_f64() * 1e3))
    }

    pub async fn search(
        &self,
        question: &str,
        strategy: &Strategy,
        settings: &SearchSettings,
    ) -> Result<SearchResult> {
        // Checked before the question is embedded, which is the slow part.
        crate::library::ensure_question(question)?;
        strategy.validate()?;
        settings.validate()?;
        let (query, embed_ms) = self.embed_query_timed(question).await?;
        self.search_with_query(question, &query, embed_ms, strategy, settings)
            .await
    }

    /// As `search`, with a question embedded beforehand (so that comparisons and
    /// benchmarks embed it once for every strategy).
    pub(crate) async fn search_with_query(
        &self,
        question: &str,
        query: &QueryVectors,
        embed_ms: f64,
        strategy: &Strategy,
        settings: &SearchSettings,
    ) -> Result<SearchResult> {
        // The door every search passes (search, compare, bench, ask): nothing out of
        // range reaches a store.
        strategy.validate()?;
        settings.validate()?;
        let balanced = self.dense_balance().apply(settings);
        let result = self
            .search_balanced(question, query, embed_ms, strategy, &balanced)
            .await?;
        Ok(SearchResult {
            settings: settings.clone(),
            ..result
        })
    }

    /// `search_with_query` with the fusions the search runs on (the weights given,
    /// scaled by the library model's balance).
    async fn search_balanced(
        &self,
        question: &str,
        query: &QueryVectors,
        embed_ms: f64,
        strategy: &Strategy,
        settings: &SearchSettings,
    ) -> Result<SearchResult> {
        let scope = self.catalog().search_scope().await?;
        let analysis = (settings.query_analysis && settings.documents.is_none())
            .then(|| analyse_question(question, &scope.cards));
        let filter = analysis
            .as_ref()
            .and_then(|a| a.filter.as_ref())
            .map(|named| with_documents_without_cards(named, &scope));
        let first = self
            .search_scoped(
                question,
                query,
                embed_ms,
                strategy,
                settings,
                &scope,
                filter.as_deref(),
                analysis.as_ref(),
            )
            .await?;
        if filter.is_none() || !first.context.pages.is_empty() {
            return Ok(first);
        }
        // A filter must never cost the answer: nothing found in the named
        // organisation's documents means the whole library is searched after all.
        let mut analysis = analysis;
        if let Some(analysis) = analysis.as_mut() {
            analysis.filter = None;
            analysis.note.push_str(
                "; nothing was found in those documents, so the whole library was searched",
            );
        }
        self.search_scoped(
            question,
            query,
            embed_ms,
            strategy,
            settings,
            &scope,
            None,
            analysis.as_ref(),
        )
        .await
    }

    /// How much this library's dense model counts against BM25 (see [`DenseBalance`]):
    /// a model folder of one's own was never measured, so its weights are taken as given.
    pub fn dense_balance(&self) -> DenseBalance {
        if self.model_dir().is_some() {
            DenseBalance::NEUTRAL
        } else {
            DenseBalance::of(self.settings().dense_model)
        }
    }

    /// One search over `filter` (or what `settings` allow), with the first step's
    /// boosts of `analysis`.
    #[allow(clippy::too_many_arguments)]
    async fn search_scoped(
        &self,
        question: &str,
        query: &QueryVectors,
        embed_ms: f64,
        strategy: &Strategy,
        settings: &SearchSettings,
        scope: &SearchScope,
        filter: Option<&[i64]>,
        analysis: Option<&QuestionAnalysis>,
    ) -> Result<SearchResult> {
        let tree = match strategy.plan() {
            Plan::Tree(tree) => tree,
            Plan::ProxyPointer { proxies } => {
                let mut scoped = settings.clone();
                if let Some(filter) = filter {
                    scoped.documents = Some(filter.to_vec());
                }
                let mut result = self
                    .proxy_pointer(question, query, embed_ms, proxies, &scoped)
                    .await?;
                result.settings = settings.clone();
                result.analysis = analysis.cloned();
                return Ok(result);
            }
        };
        let only = settings.documents.as_deref().or(filter);
        let documents: Vec<(i64, u32)> = scope
            .node_counts
            .iter()
            .copied()
            .filter(|(id, _)| only.is_none_or(|ids| ids.contains(id)))
            .collect();
        let roots: Vec<u64> = documents
            .iter()
            .map(|&(id, nodes)| root_node_id(id, nodes))
            .collect();
        let doc_ids: Vec<i64> = documents.iter().map(|&(id, _)| id).collect();
        let store = self.store().await?;
        let search_started = Instant::now();
        let mut run = SearchState::new(
            store.as_ref(),
            self.node_cache(),
            query,
            settings.fusion,
            settings.root_fusion,
        )
        .with_section_scoring(settings.section_scoring);
        if only.is_none() {
            run = run.over_whole_library(scope.being_written > 0);
        }
        if let Some(analysis) = analysis {
            // Only what the question named holds at every step; the prior for the
            // latest documents, when nothing was named, is a guess for the first step.
            let carried = analysis.recognised_anything();
            let boosts = boosts_by_root(analysis.boosts.iter().copied(), &documents);
            run = run.with_root_boosts(boosts, carried);
            if documents.len() > 1 {
                let library = scope.node_counts.len() + scope.being_written;
                let lookup = WordLookup::start(self.catalog(), question, &documents, library);
                run = run.with_word_lookup(lookup);
            }
        }
        let statements = if settings.query_analysis {
            statements_asked(question)
        } else {
            Vec::new()
        };
        let mut page_boosts = PageBoosts::default();
        if !statements.is_empty() {
            let searched: HashSet<i64> = doc_ids.iter().copied().collect();
            let pages: Vec<StatementPage> = scope
                .statement_pages
                .iter()
                .filter(|page| searched.contains(&page.doc_id))
                .copied()
                .collect();
            page_boosts = PageBoosts::for_statements(&pages, &statements);
        }
        let pages_named = if settings.query_analysis {
            named_pages::page_references(question)
        } else {
            Vec::new()
        };
        if !pages_named.is_empty() {
            let named =
                named_page_boosts(self.catalog(), &doc_ids, &pages_named, settings.fusion).await?;
            page_boosts = page_boosts.with(&named);
        }
        if !page_boosts.is_empty() {
            run = run.with_page_boosts(page_boosts);
        }
        let mut chosen = tree.select(&mut run, &roots, &doc_ids).await?;
        let ranked_by_words = run.finish_word_lookup().await?;
        if let Some(max_pages) = settings.max_node_pages.filter(|&m| m > 0) {
            chosen = run.narrow_wide_nodes(chosen, max_pages).await?;
        }
        let fill = match settings.token_budget {
            Some(_) if settings.fill_budget && tree.fills_budget() => {
                run.budget_fill(&chosen, super::strategy::DEFAULT_FLAT_K)
                    .await?
            }
            _ => Vec::new(),
        };
        let search_ms = search_started.elapsed().as_secs_f64() * 1e3;
        let selected = run.selected(&chosen);
        let filled = run.selected(&fill);
        let context = match settings.token_budget {
            Some(budget)
                if more_than_one_page(&selected)
                    || !run.page_boosts().is_empty()
                    || !filled.is_empty() =>
            {
                let mut pages = page_order::pages_by_evidence(
                    store.as_ref(),
                    query,
                    settings.fusion,
                    &selected,
                    run.document_boosts(),
                    run.page_boosts(),
                    run.evidence_scale(),
                )
                .await?;
                run.store_queries += 1;
                page_order::append_after(&mut pages, filled);
                self.context(&pages, Some(budget)).await?
            }
            budget => self.context(&selected, budget).await?,
        };
        Ok(SearchResult {
            question: question.to_string(),
            strategy: strategy.clone(),
            settings: settings.clone(),
            selected,
            context,
            embed_ms,
            search_ms,
            latency_ms: embed_ms + run.started.elapsed().as_secs_f64() * 1e3,
            store_queries: run.store_queries,
            trace: run.trace,
            stopped_because: run.stopped_because,
            analysis: analysis.cloned().map(|mut analysis| {
                analysis.note.push_str(&statements_note(&statements));
                analysis.note.push_str(&named_pages_note(&pages_named));
                analysis.note.push_str(&words_note(ranked_by_words));
                analysis
            }),
            statements,
        })
    }

    /// Reads the selected pages from the catalog and builds the context.
    pub async fn context(
        &self,
        selected: &[SelectedNode],
        budget: Option<usize>,
    ) -> Result<Context> {
        let mut pages: Vec<(i64, u32)> = selected
            .iter()
            .flat_map(|node| (node.page_start..=node.page_end).map(|page| (node.doc_id, page)))
            .collect();
        pages.sort_unstable();
        pages.dedup();
        let texts = self.catalog().page_texts(&pages).await?;
        let labels = self.catalog().page_labels(&pages).await?;
        let lookup = |doc: i64, page: u32| texts.get(&(doc, page)).cloned();
        let label = |doc: i64, page: u32| labels.get(&(doc, page)).cloned();
        Ok(context::assemble_labelled(
            selected, &lookup, &label, budget,
        ))
    }
}

/// What the trace says of the statements a question asks about (nothing when none).
fn statements_note(statements: &[FinancialStatement]) -> String {
    if statements.is_empty() {
        return String::new();
    }
    let names: Vec<&str> = statements.iter().map(|s| s.label()).collect();
    format!(
        "; asks about the {}: those pages are ranked up",
        names.join(" and the ")
    )
}

/// What the trace says of the documents whose text holds the question's words.
fn words_note(documents: usize) -> String {
    match documents {
        0 => String::new(),
        1 => "; the one document whose text holds the question's words is ranked up".into(),
        n => format!("; {n} documents whose text holds the question's words are ranked up, the best match most"),
    }
}

/// What the trace says of the pages a question names by number (nothing when none).
fn named_pages_note(named: &[PageReference]) -> String {
    match named {
        [] => String::new(),
        [PageReference::Page(label)] => format!(
            "; names page {label}: the page printed with that number (else the PDF page) is ranked up"
        ),
        named => format!(
            "; names pages {}: the pages printed with those numbers (else the PDF pages) are ranked up",
            named
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Whether a budget would have to choose among pages: then they are ranked by their own
/// evidence, both halves read for every one of them (see [`page_order`]). Pages chosen
/// as pages need it as much as a section's: flat top-k fuses lists in which a page one
/// half did not return scores nothing by that half, and a tree step's scores are
/// stretched over the handful of nodes it ranked, which put a Russian article's page
/// whose keyword matched first over the page the article ranked first by meaning.
/// Ranking the pages this way helps most where a budget holds several pages of long
/// filings; where it holds one short page, flat top-k loses a question now and then.
fn more_than_one_page(selected: &[SelectedNode]) -> bool {
    selected.len() > 1 || selected.iter().any(|node| node.page_end > node.page_start)
}

/// `named` and every searchable document without a card: what a document without one
/// is about is not known, so a filter by organisation must not drop it.
fn with_documents_without_cards(named: &[i64], scope: &SearchScope) -> Vec<i64> {
    let carded: HashSet<i64> = scope.cards.iter().map(|(id, _)| *id).collect();
    let mut documents: Vec<i64> = named.to_vec();
    documents.extend(
        scope
            .node_counts
            .iter()
            .map(|(id, _)| *id)
            .filter(|id| !carded.contains(id)),
    );
    documents.sort_unstable();
    documents.dedup();
    documents
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chosen(doc_id: i64, page_start: u32, page_end: u32) -> SelectedNode {
        SelectedNode {
            id: crate::tree::page_node_id(doc_id, page_start),
            doc_id,
            file_name: format!("doc{doc_id}.pdf"),
            level: 0,
            page_start,
            page_end,
            score: 1.0,
        }
    }

    #[test]
    fn a_budget_ranks_pages_whenever_it_has_more_than_one_to_choose_from() {
        assert!(!more_than_one_page(&[]));
        assert!(!more_than_one_page(&[chosen(1, 3, 3)]));
        assert!(more_than_one_page(&[chosen(1, 3, 4)]), "one section");
        assert!(
            more_than_one_page(&[chosen(1, 3, 3), chosen(2, 1, 1)]),
            "single pages of two documents, as flat top-k and a knee over pages choose"
        );
    }
}
