//! A document's tree with every node described: pages from their descriptions,
//! parents summarised from their children's, level by level. Here rather than in
//! `tree`, which only knows shapes and ids, so that the tree does not depend on how
//! text is described.

use super::{DescribeReport, Describer, Description, TermStats};
use crate::structure::shape::TreeShape;
use crate::tree::{add_parent, leaves, Node};

/// Builds the whole tree of one document from its page descriptions, in `shape` (see
/// [`crate::structure::shape`]). Parents are described from their children's
/// descriptions; their keywords are the union of the children's, in order of first
/// appearance; titles come from the shape.
pub async fn build_tree(
    doc_id: i64,
    file_name: &str,
    pages: Vec<Description>,
    shape: TreeShape,
    describer: &Describer,
    stats: &TermStats,
) -> (Vec<Node>, DescribeReport) {
    let mut nodes = leaves(doc_id, file_name, pages);
    for (node, title) in nodes.iter_mut().zip(shape.page_titles) {
        node.title = title;
    }
    let mut report = DescribeReport::default();
    for parents in shape.levels {
        let texts: Vec<Vec<&str>> = parents
            .iter()
            .map(|parent| {
                parent
                    .children
                    .iter()
                    .map(|&i| nodes[i].description.as_str())
                    .collect()
            })
            .collect();
        let (summaries, step_report) = describer.summarise_groups(&texts, stats).await;
        report.add(step_report);
        let mut summaries = summaries.into_iter();
        for parent in parents {
            add_parent(
                &mut nodes,
                &parent.children,
                summaries.next().unwrap_or_default(),
                parent.title,
            );
        }
    }
    (nodes, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{check_invariants, doc_id_of};

    fn pages(n: usize) -> Vec<Description> {
        (0..n)
            .map(|i| Description {
                description: format!("Page {i} is about topic{i}."),
                keywords: vec![format!("topic{i}"), "shared".into()],
            })
            .collect()
    }

    #[tokio::test]
    async fn trees_of_every_small_size_hold_the_invariants() {
        for count in 1..=40usize {
            for width in 3..=5 {
                let (nodes, _) = build_tree(
                    7,
                    "a.pdf",
                    pages(count),
                    crate::structure::shape::shape(count, &[], width),
                    &Describer::Extractive,
                    &TermStats::default(),
                )
                .await;
                check_invariants(&nodes, count as u32)
                    .unwrap_or_else(|e| panic!("{count} pages, width {width}: {e}"));
                let root = nodes.iter().find(|n| n.is_root()).expect("a root");
                assert_eq!((root.page_start, root.page_end), (1, count as u32));
                assert!(nodes.iter().all(|n| doc_id_of(n.id) == 7));
            }
        }
    }

    #[tokio::test]
    async fn parent_keywords_are_the_union_in_order() {
        let (nodes, _) = build_tree(
            1,
            "a.pdf",
            pages(3),
            crate::structure::shape::shape(3, &[], 3),
            &Describer::Extractive,
            &TermStats::default(),
        )
        .await;
        let root = nodes.iter().find(|n| n.is_root()).expect("root");
        assert_eq!(root.keywords, vec!["topic0", "shared", "topic1", "topic2"]);
        assert_eq!(root.level, 1);
        assert!(root.description.contains("topic1"));
    }
}
