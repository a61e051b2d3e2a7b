//! Pages a question points at by what they are rather than by what they say: the
//! financial statements it asks about (see [`crate::statements`]) and the pages it
//! names by number (see [`super::named_pages`]). Their fused scores get a boost, each
//! page its own, wherever a search ranks pages, and a section holding one is lifted
//! with it.

use std::collections::HashMap;

use crate::catalog::StatementPage;
use crate::statements::FinancialStatement;
use crate::tree::page_node_id;

/// Added to a statement page's fused score when the question asks for that statement.
/// On the min–max scale (each half 0–1) it puts the statement above pages that match
/// the question's words about as well; smaller boosts leave the statement behind pages
/// that only share its words.
pub(crate) const STATEMENT_BOOST: f32 = 1.0;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageBoosts {
    /// Boosted pages of each document with their boosts, ascending by page, each once.
    by_document: HashMap<i64, Vec<(u32, f32)>>,
}

impl PageBoosts {
    /// The pages among `pages` that are one of the statements `asked`.
    pub(crate) fn for_statements(pages: &[StatementPage], asked: &[FinancialStatement]) -> Self {
        let asked: Vec<(i64, u32)> = pages
            .iter()
            .filter(|page| asked.contains(&page.statement))
            .map(|page| (page.doc_id, page.page))
            .collect();
        Self::for_pages(&asked, STATEMENT_BOOST)
    }

    /// `pages` (document, page), each boosted by `boost`.
    pub(crate) fn for_pages(pages: &[(i64, u32)], boost: f32) -> Self {
        let mut boosts = Self::default();
        for &(doc_id, page) in pages {
            boosts.add(doc_id, page, boost);
        }
        boosts
    }

    /// These boosts and `other`'s together: a page boosted by both keeps the larger
    /// boost, so that a page that is both named and a statement is not lifted twice.
    pub(crate) fn with(mut self, other: &PageBoosts) -> Self {
        for (&doc_id, pages) in &other.by_document {
            for &(page, boost) in pages {
                self.add(doc_id, page, boost);
            }
        }
        self
    }

    fn add(&mut self, doc_id: i64, page: u32, boost: f32) {
        let pages = self.by_document.entry(doc_id).or_default();
        match pages.binary_search_by_key(&page, |&(listed, _)| listed) {
            Ok(at) => pages[at].1 = pages[at].1.max(boost),
            Err(at) => pages.insert(at, (page, boost)),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.by_document.is_empty()
    }

    /// The boost of the page `page` of `doc_id` (0 when it has none).
    pub(crate) fn of_page(&self, doc_id: i64, page: u32) -> f32 {
        self.of_span(doc_id, page, page)
    }

    /// The boost of a node over pages `first..=last`: a section is lifted by the
    /// largest boost of a page under it.
    pub(crate) fn of_span(&self, doc_id: i64, first: u32, last: u32) -> f32 {
        let Some(pages) = self.by_document.get(&doc_id) else {
            return 0.0;
        };
        let from = pages.partition_point(|&(page, _)| page < first);
        pages[from..]
            .iter()
            .take_while(|&&(page, _)| page <= last)
            .map(|&(_, boost)| boost)
            .fold(0.0, f32::max)
    }

    /// The node ids of the boosted pages of the documents `keep` accepts.
    pub(crate) fn page_ids(&self, keep: impl Fn(i64) -> bool) -> Vec<u64> {
        let mut ids: Vec<u64> = self
            .by_document
            .iter()
            .filter(|(&doc_id, _)| keep(doc_id))
            .flat_map(|(&doc_id, pages)| {
                pages
                    .iter()
                    .map(move |&(page, _)| page_node_id(doc_id, page))
            })
            .collect();
        ids.sort_unstable();
        ids
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use FinancialStatement::*;

    fn pages() -> Vec<StatementPage> {
        [
            (1, 40, IncomeStatement),
            (1, 42, BalanceSheet),
            (1, 44, CashFlows),
            (2, 9, BalanceSheet),
        ]
        .into_iter()
        .map(|(doc_id, page, statement)| StatementPage {
            doc_id,
            page,
            statement,
        })
        .collect()
    }

    #[test]
    fn only_the_statements_asked_are_boosted_and_sections_holding_them() {
        let boosts = PageBoosts::for_statements(&pages(), &[BalanceSheet]);
        assert_eq!(boosts.of_page(1, 42), STATEMENT_BOOST);
        assert_eq!(boosts.of_page(2, 9), STATEMENT_BOOST);
        assert_eq!(boosts.of_page(1, 40), 0.0);
        assert_eq!(boosts.of_page(1, 44), 0.0);
        assert_eq!(boosts.of_span(1, 41, 43), STATEMENT_BOOST);
        assert_eq!(boosts.of_span(1, 43, 50), 0.0);
        assert_eq!(boosts.of_span(3, 1, 100), 0.0);
        assert_eq!(boosts.page_ids(|doc| doc == 1), vec![page_node_id(1, 42)]);
    }

    #[test]
    fn each_page_keeps_its_own_boost_and_a_section_takes_its_largest() {
        let statements = PageBoosts::for_statements(&pages(), &[BalanceSheet]);
        let named = PageBoosts::for_pages(&[(1, 42), (1, 45)], 3.0);
        let boosts = statements.with(&named);
        assert_eq!(boosts.of_page(1, 42), 3.0, "the larger of two boosts");
        assert_eq!(boosts.of_page(1, 45), 3.0);
        assert_eq!(boosts.of_page(2, 9), STATEMENT_BOOST);
        assert_eq!(boosts.of_span(1, 40, 50), 3.0);
        assert_eq!(boosts.of_span(1, 46, 50), 0.0);
        assert_eq!(
            boosts.page_ids(|doc| doc == 1),
            vec![page_node_id(1, 42), page_node_id(1, 45)]
        );
    }

    #[test]
    fn a_question_asking_for_no_statement_boosts_nothing() {
        let boosts = PageBoosts::for_statements(&pages(), &[]);
        assert!(boosts.is_empty());
        assert!(boosts.page_ids(|_| true).is_empty());
    }
}
