//! `Library::search`: embeds the question once, runs a strategy, assembles the context.

use std::time::Instant;

use super::context::{self, Context};
use super::run::SearchRun;
use super::{SearchResult, SearchSettings, SelectedNode, Strategy};
use crate::catalog::{DocumentRecord, DocumentStatus};
use crate::error::Result;
use crate::library::Library;
use crate::store::{QueryVectors, Sparse};
use crate::tree::root_node_id;

impl Library {
    /// The documents a search may use: ready ones, restricted to `only` when given.
    pub async fn searchable_documents(&self, only: Option<&[i64]>) -> Result<Vec<DocumentRecord>> {
        Ok(self
            .catalog()
            .documents_with_status(DocumentStatus::Ready)
            .await?
            .into_iter()
            .filter(|d| only.is_none_or(|ids| ids.contains(&d.id)))
            .filter(|d| d.node_count.unwrap_or(0) > 0)
            .collect())
    }

    /// Embeds a question for both halves of the hybrid score.
    pub async fn embed_query(&self, question: &str) -> Result<QueryVectors> {
        let dense = self.dense().await?;
        let sparse = self.sparse().await?;
        let text = vec![question.to_string()];
        let vectors = tokio::task::spawn_blocking(move || dense.embed(&text))
            .await
            .map_err(|err| crate::embed::EmbedError::Inference(err.to_string()))??;
        let dense = vectors.into_iter().next().unwrap_or_default();
        Ok(QueryVectors {
            dense,
            sparse: Sparse::from(sparse.embed_query(&super::query::expand_for_bm25(question))),
        })
    }

    /// `embed_query`, and how long it took in milliseconds (reported apart from search).
    pub async fn embed_query_timed(&self, question: &str) -> Result<(QueryVectors, f64)> {
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
        let (query, embed_ms) = self.embed_query_timed(question).await?;
        self.search_with_query(question, &query, embed_ms, strategy, settings)
            .await
    }

    /// As `search`, with a question embedded beforehand (so that comparisons and
    /// benchmarks embed it once for every strategy).
    pub async fn search_with_query(
        &self,
        question: &str,
        query: &QueryVectors,
        embed_ms: f64,
        strategy: &Strategy,
        settings: &SearchSettings,
    ) -> Result<SearchResult> {
        if strategy.needs_llm() {
            return self
                .proxy_pointer(question, query, embed_ms, strategy, settings)
                .await;
        }
        let only = settings.documents.as_deref();
        let scope = self.catalog().search_scope().await?;
        let documents: Vec<(i64, u32)> = scope
            .node_counts
            .into_iter()
            .filter(|(id, _)| only.is_none_or(|ids| ids.contains(id)))
            .collect();
        let roots: Vec<u64> = documents
            .iter()
            .map(|&(id, nodes)| root_node_id(id, nodes))
            .collect();
        let doc_ids: Vec<i64> = documents.iter().map(|&(id, _)| id).collect();
        let store = self.store().await?;
        let search_started = Instant::now();
        let mut run = SearchRun::new(
            store.as_ref(),
            self.node_cache(),
            query,
            settings.fusion,
            settings.root_fusion,
        );
        if only.is_none() {
            run = run.over_whole_library(scope.being_written > 0);
        }
        let mut chosen = run.execute(strategy, &roots, &doc_ids).await?;
        if let Some(max_pages) = settings.max_node_pages.filter(|&m| m > 0) {
            chosen = run.narrow_wide_nodes(chosen, max_pages).await?;
        }
        let search_ms = search_started.elapsed().as_secs_f64() * 1e3;
        let selected = run.selected(&chosen);
        let context = self.context(&selected, settings.token_budget).await?;
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
        let lookup = |doc: i64, page: u32| texts.get(&(doc, page)).cloned();
        Ok(context::assemble(selected, &lookup, budget))
    }
}
