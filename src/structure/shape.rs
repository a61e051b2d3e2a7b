//! The shape of a document's tree from its section starts: a chapter is a section over
//! its pages (or over its own sections), a section wider than five children groups them
//! consecutively, and the root holds the top sections. Without section starts the shape
//! is the consecutive grouping of [`crate::tree::tree_shape`].

use super::SectionStart;
use crate::tree::{group_level, tree_shape, Group, MAX_GROUP_WIDTH};

/// A parent to add: its children (positions in the document's node list: the pages
/// first, then the parents in the order the levels list them) and its title.
#[derive(Debug, Clone, PartialEq)]
pub struct ParentShape {
    pub children: Vec<usize>,
    pub title: Option<String>,
}

/// A document's tree before it is described.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeShape {
    /// The heading of a section that is a single page, by page position.
    pub page_titles: Vec<Option<String>>,
    /// Parents level by level: every child of a parent comes before it.
    pub levels: Vec<Vec<ParentShape>>,
}

enum Item {
    Page(usize),
    Group {
        title: Option<String>,
        children: Vec<usize>,
    },
}

struct Builder {
    items: Vec<Item>,
    page_titles: Vec<Option<String>>,
    width: usize,
}

/// The tree shape of a document of `page_count` pages whose sections begin at `starts`.
pub fn shape(page_count: usize, starts: &[SectionStart], width: usize) -> TreeShape {
    if starts.is_empty() || page_count < 2 {
        return consecutive(page_count, width, vec![None; page_count]);
    }
    // A root holds up to five pages itself: sections would only add a level to click
    // through, so a page takes the heading that opens on it as its title.
    if page_count <= MAX_GROUP_WIDTH {
        return consecutive(page_count, width, titles_by_page(page_count, starts));
    }
    let mut builder = Builder {
        items: (0..page_count).map(Item::Page).collect(),
        page_titles: vec![None; page_count],
        width,
    };
    let top = builder.sections(1, page_count as u32, starts, 0);
    let top = builder.capped(top);
    if top.len() > 1 {
        builder.group(None, top);
    }
    builder.into_shape(page_count)
}

/// The heading that opens on each page (the outermost where several do).
fn titles_by_page(page_count: usize, starts: &[SectionStart]) -> Vec<Option<String>> {
    let mut titles = vec![None; page_count];
    for start in starts {
        let Some(slot) = titles.get_mut((start.page as usize).wrapping_sub(1)) else {
            continue;
        };
        if slot.is_none() {
            *slot = Some(start.title.clone());
        }
    }
    titles
}

/// Pages grouped consecutively, as [`tree_shape`] does, with the given page titles.
fn consecutive(page_count: usize, width: usize, page_titles: Vec<Option<String>>) -> TreeShape {
    TreeShape {
        page_titles,
        levels: tree_shape(page_count, width)
            .into_iter()
            .map(|level| {
                level
                    .into_iter()
                    .map(|children| ParentShape {
                        children,
                        title: None,
                    })
                    .collect()
            })
            .collect(),
    }
}

impl Builder {
    /// The sections of pages `first..=last` at the shallowest depth below `outer` that
    /// `starts` names there; the pages themselves where it names none.
    fn sections(
        &mut self,
        first: u32,
        last: u32,
        starts: &[SectionStart],
        outer: u8,
    ) -> Vec<usize> {
        let inside: Vec<&SectionStart> = starts
            .iter()
            .filter(|s| s.depth > outer && (first..=last).contains(&s.page))
            .collect();
        let Some(depth) = inside.iter().map(|s| s.depth).min() else {
            return (first..=last).map(|page| page as usize - 1).collect();
        };
        let mut bounds: Vec<(u32, String)> = inside
            .iter()
            .filter(|s| s.depth == depth)
            .map(|s| (s.page, s.title.clone()))
            .collect();
        // Stable: of two sections opening on one page, the first named keeps it.
        bounds.sort_by_key(|(page, _)| *page);
        bounds.dedup_by_key(|(page, _)| *page);
        let mut spans: Vec<(u32, u32, Option<String>)> = Vec::new();
        if bounds[0].0 > first {
            spans.push((first, bounds[0].0 - 1, None));
        }
        for (index, (page, title)) in bounds.iter().enumerate() {
            let end = bounds.get(index + 1).map_or(last, |(next, _)| next - 1);
            spans.push((*page, end, Some(title.clone())));
        }
        spans
            .into_iter()
            .map(|(start, end, title)| {
                let children = self.sections(start, end, starts, depth);
                let children = self.capped(children);
                self.section(title, children)
            })
            .collect()
    }

    /// One section over `children`: a lone child is the section itself (a page takes
    /// the section's title; a group keeps its own when it has one).
    fn section(&mut self, title: Option<String>, children: Vec<usize>) -> usize {
        if let [only] = children[..] {
            match &mut self.items[only] {
                Item::Page(page) => {
                    if title.is_some() {
                        self.page_titles[*page] = title;
                    }
                }
                Item::Group { title: own, .. } => {
                    if own.is_none() {
                        *own = title;
                    }
                }
            }
            return only;
        }
        self.group(title, children)
    }

    fn group(&mut self, title: Option<String>, children: Vec<usize>) -> usize {
        self.items.push(Item::Group { title, children });
        self.items.len() - 1
    }

    /// `items` grouped consecutively, `width` at a time, until at most five remain.
    fn capped(&mut self, mut items: Vec<usize>) -> Vec<usize> {
        while items.len() > MAX_GROUP_WIDTH {
            items = group_level(items.len(), self.width)
                .into_iter()
                .map(|group| match group {
                    Group::Carried(position) => items[position],
                    Group::Parent(range) => self.group(None, items[range].to_vec()),
                })
                .collect();
        }
        items
    }

    fn into_shape(self, page_count: usize) -> TreeShape {
        let mut height = vec![0usize; self.items.len()];
        for (index, item) in self.items.iter().enumerate() {
            if let Item::Group { children, .. } = item {
                height[index] = 1 + children.iter().map(|&c| height[c]).max().unwrap_or(0);
            }
        }
        let mut groups: Vec<usize> = (page_count..self.items.len()).collect();
        groups.sort_by_key(|&index| (height[index], index));
        // Pages keep their places; groups follow them in the order they are added.
        let mut position: Vec<usize> = (0..self.items.len()).collect();
        for (offset, &index) in groups.iter().enumerate() {
            position[index] = page_count + offset;
        }
        let mut levels: Vec<Vec<ParentShape>> = Vec::new();
        for &index in &groups {
            let Item::Group { title, children } = &self.items[index] else {
                continue;
            };
            let level = height[index] - 1;
            if levels.len() <= level {
                levels.resize_with(level + 1, Vec::new);
            }
            levels[level].push(ParentShape {
                children: children.iter().map(|&c| position[c]).collect(),
                title: title.clone(),
            });
        }
        TreeShape {
            page_titles: self.page_titles,
            levels,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(page: u32, depth: u8, title: &str) -> SectionStart {
        SectionStart {
            page,
            depth,
            title: title.into(),
        }
    }

    /// Each parent's pages, in document order, with its title.
    fn sections(shape: &TreeShape, pages: usize) -> Vec<(Option<String>, Vec<usize>)> {
        let mut spans: Vec<Vec<usize>> = (0..pages).map(|p| vec![p]).collect();
        let mut out = Vec::new();
        for level in &shape.levels {
            for parent in level {
                let mut covered: Vec<usize> = parent
                    .children
                    .iter()
                    .flat_map(|&c| spans[c].clone())
                    .collect();
                covered.sort_unstable();
                spans.push(covered.clone());
                out.push((parent.title.clone(), covered));
            }
        }
        out
    }

    #[test]
    fn chapters_are_sections_over_their_pages() {
        let starts = [
            start(2, 1, "Introduction"),
            start(5, 1, "Methods"),
            start(6, 1, "Results"),
        ];
        let shape = shape(12, &starts, 4);
        let found = sections(&shape, 12);
        assert!(
            found.contains(&(Some("Introduction".into()), vec![1, 2, 3])),
            "{found:?}"
        );
        assert!(
            found.contains(&(Some("Results".into()), (5..12).collect())),
            "{found:?}"
        );
        // A one-page chapter is its page, titled.
        assert_eq!(shape.page_titles[4].as_deref(), Some("Methods"));
        // The cover before the first chapter is a page of the root.
        let root = found.last().expect("a root");
        assert_eq!(root.1, (0..12).collect::<Vec<_>>());
        assert_eq!(
            shape.levels.last().map(Vec::len),
            Some(1),
            "one root, added last"
        );
    }

    #[test]
    fn a_chapter_holds_its_own_sections_and_wide_ones_are_grouped() {
        let starts = [
            start(1, 1, "Part one"),
            start(1, 2, "One A"),
            start(4, 2, "One B"),
            start(8, 1, "Part two"),
        ];
        let shape = shape(30, &starts, 4);
        let found = sections(&shape, 30);
        assert!(
            found.contains(&(Some("Part one".into()), (0..7).collect())),
            "{found:?}"
        );
        assert!(
            found.contains(&(Some("One A".into()), vec![0, 1, 2])),
            "{found:?}"
        );
        assert!(
            found.contains(&(Some("Part two".into()), (7..30).collect())),
            "{found:?}"
        );
        for level in &shape.levels {
            assert!(
                level
                    .iter()
                    .all(|p| (2..=MAX_GROUP_WIDTH).contains(&p.children.len())),
                "{level:?}"
            );
        }
    }

    #[test]
    fn without_starts_the_pages_are_grouped_consecutively() {
        let shape = shape(9, &[], 4);
        assert_eq!(shape.levels.len(), 2);
        assert_eq!(shape.levels[0][0].children, vec![0, 1, 2, 3]);
        assert!(shape.page_titles.iter().all(Option::is_none));
    }

    #[test]
    fn a_document_of_five_pages_or_fewer_is_a_root_over_its_pages() {
        let starts = [
            start(1, 1, "Cover"),
            start(2, 1, "Items"),
            start(2, 2, "Item 8.01"),
            start(4, 1, "Signature"),
        ];
        let shape = shape(4, &starts, 4);
        assert_eq!(shape.levels.len(), 1);
        assert_eq!(shape.levels[0][0].children, vec![0, 1, 2, 3]);
        let titles: Vec<Option<&str>> = shape.page_titles.iter().map(Option::as_deref).collect();
        assert_eq!(
            titles,
            vec![Some("Cover"), Some("Items"), None, Some("Signature")]
        );
    }
}
