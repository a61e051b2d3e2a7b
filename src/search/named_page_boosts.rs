//! The boosts of the pages a question names (see [`super::named_pages`]) in the
//! documents searched: a page is found by its printed label, else as the PDF page of
//! that number (see [`Catalog::pages_named`]); a range is every page from the first to
//! the last page its two ends find in a document.

use std::collections::BTreeMap;

use super::named_pages::{named_page_boost, PageReference};
use super::page_boosts::PageBoosts;
use crate::catalog::{Catalog, CatalogError};
use crate::store::Fusion;

/// A range boosts at most this many pages from its first: every boosted page is scored
/// in every search, and past this many a page's share of the boost moves little.
pub(crate) const MAX_RANGE_PAGES: u32 = 100;

/// A range's pages share the boost of this many named pages (each gets the whole boost
/// in a range this short, and a share of it in a longer one), so that a long range
/// leans on the ranking no harder than a few named pages do.
pub(crate) const RANGE_FULL_PAGES: u32 = 5;

/// The boosts of the pages `named` in `documents`, with `fusion`'s weights.
pub(crate) async fn named_page_boosts(
    catalog: &Catalog,
    documents: &[i64],
    named: &[PageReference],
    fusion: Fusion,
) -> Result<PageBoosts, CatalogError> {
    let boost = named_page_boost(fusion);
    let mut boosts = PageBoosts::default();
    for reference in named {
        let found = match reference {
            PageReference::Page(label) => {
                PageBoosts::for_pages(&catalog.pages_named(documents, label).await?, boost)
            }
            PageReference::Range { first, last } => {
                let mut ends = catalog.pages_named(documents, first).await?;
                ends.extend(catalog.pages_named(documents, last).await?);
                range_boosts(&ends, boost)
            }
        };
        boosts = boosts.with(&found);
    }
    Ok(boosts)
}

/// The boosts of a range whose ends found the pages `ends` (document, page): in each
/// document, every page from the first found to the last (one page where only one end
/// was found), each with its share of `boost`.
fn range_boosts(ends: &[(i64, u32)], boost: f32) -> PageBoosts {
    let mut spans: BTreeMap<i64, (u32, u32)> = BTreeMap::new();
    for &(doc_id, page) in ends {
        let span = spans.entry(doc_id).or_insert((page, page));
        *span = (span.0.min(page), span.1.max(page));
    }
    let mut boosts = PageBoosts::default();
    for (doc_id, (first, last)) in spans {
        let last = last.min(first + MAX_RANGE_PAGES - 1);
        let count = last - first + 1;
        let share = boost * (RANGE_FULL_PAGES as f32 / count as f32).min(1.0);
        let pages: Vec<(i64, u32)> = (first..=last).map(|page| (doc_id, page)).collect();
        boosts = boosts.with(&PageBoosts::for_pages(&pages, share));
    }
    boosts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_range_gives_each_of_its_pages_the_whole_boost() {
        let boosts = range_boosts(&[(1, 21), (1, 23)], 3.0);
        for page in 21..=23 {
            assert_eq!(boosts.of_page(1, page), 3.0, "page {page}");
        }
        assert_eq!(boosts.of_page(1, 20), 0.0);
        assert_eq!(boosts.of_page(1, 24), 0.0);
    }

    #[test]
    fn a_long_range_shares_the_boost_of_a_few_pages_among_its_pages() {
        let boosts = range_boosts(&[(1, 62), (1, 21)], 3.0);
        let share = 3.0 * RANGE_FULL_PAGES as f32 / 42.0;
        for page in [21, 40, 62] {
            assert!(
                (boosts.of_page(1, page) - share).abs() < 1e-6,
                "page {page}"
            );
        }
        assert_eq!(boosts.of_page(1, 63), 0.0);
    }

    #[test]
    fn a_range_stops_after_its_most_pages() {
        let boosts = range_boosts(&[(1, 1), (1, 500)], 3.0);
        assert!(boosts.of_page(1, MAX_RANGE_PAGES) > 0.0);
        assert_eq!(boosts.of_page(1, MAX_RANGE_PAGES + 1), 0.0);
    }

    #[test]
    fn each_document_has_its_own_span_and_a_lone_end_is_one_page() {
        // Document 1 labels the ends PDF pages 25 and 27; document 2 has only the first.
        let boosts = range_boosts(&[(1, 25), (2, 21), (1, 27)], 3.0);
        assert_eq!(boosts.of_span(1, 25, 27), 3.0);
        assert_eq!(boosts.of_page(1, 26), 3.0);
        assert_eq!(boosts.of_page(2, 21), 3.0);
        assert_eq!(boosts.of_page(2, 22), 0.0);
    }
}
