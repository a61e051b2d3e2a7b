//! The passages of a page an answer can quote: its sentences (at least a clause each)
//! and its table rows, read across the row with each value's column header.

use std::collections::HashSet;

use unicode_segmentation::UnicodeSegmentation;

use super::layout::{BoxRect, PageLayout};

/// Fewest words a quoted sentence has: a clause, never a lone word or a heading.
const MIN_SENTENCE_WORDS: usize = 5;
/// Longest quote of a sentence, in words; a longer one is cut with an ellipsis.
const MAX_SENTENCE_WORDS: usize = 60;
/// How far above a row its column headers are looked for, in rows.
const HEADER_ROWS_UP: usize = 40;
/// How far above a row of column headers the headers of groups of columns are looked
/// for ("Three Months Ended" over "2023  2022"), in rows.
const GROUP_HEADER_ROWS_UP: usize = 3;
/// How far a group's header may sit from the middle of its columns, as a share of half
/// the narrowest column spacing: headers are centred, give or take a little.
const GROUP_CENTRING: f32 = 0.75;
/// Most values of a row that are shown.
const MAX_ROW_VALUES: usize = 8;
/// A footnote's mark is set smaller than the capital after it (pdfium's boxes of a Pew
/// report's mark: 0.63 of it) ...
const RAISED_SIZE: f32 = 0.8;
/// ... and raised off its line (there: by 0.37 of the capital's height).
const RAISED_BY: f32 = 0.15;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassageKind {
    Sentence,
    Row,
}

/// One value of a table row under its column's header.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The header of the group of columns the value's is in ("Twelve Months Ended").
    pub group: Option<String>,
    pub header: Option<String>,
    pub value: String,
}

impl Cell {
    /// The group's header and the column's, as one would read them down the table.
    fn headers(&self) -> impl Iterator<Item = &str> {
        self.group
            .as_deref()
            .into_iter()
            .chain(self.header.as_deref())
    }
}

/// A passage that may answer a question.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub kind: PassageKind,
    /// A sentence as printed; a row's label.
    pub text: String,
    /// A row's values with their headers (empty for a sentence).
    pub cells: Vec<Cell>,
    /// The page's glyphs the passage is made of (empty without a layout).
    pub glyphs: Vec<usize>,
    /// Glyphs of the headers of a row's values (boxed too).
    pub header_glyphs: Vec<usize>,
}

impl Candidate {
    /// The text the question is matched against: a sentence, or a row's label with its
    /// headers.
    pub fn match_text(&self) -> String {
        match self.kind {
            PassageKind::Sentence => self.text.clone(),
            PassageKind::Row => {
                let mut headers: Vec<&str> = Vec::new();
                for header in self.cells.iter().flat_map(Cell::headers) {
                    if !headers.contains(&header) {
                        headers.push(header);
                    }
                }
                format!("{} {}", self.text, headers.join(" "))
                    .trim()
                    .to_string()
            }
        }
    }

    /// The quote as shown: a sentence, or a row's label and values with their headers,
    /// the values under `first_years` first.
    pub fn quote(&self, first_years: &[u16]) -> String {
        match self.kind {
            PassageKind::Sentence => self.text.clone(),
            PassageKind::Row => {
                let named = |cell: &Cell| {
                    cell.headers()
                        .any(|h| years_in(h).iter().any(|y| first_years.contains(y)))
                };
                let mut cells: Vec<&Cell> = self.cells.iter().filter(|c| named(c)).collect();
                cells.extend(self.cells.iter().filter(|c| !named(c)));
                format!("{} — {}", self.text, grouped_values(&cells))
            }
        }
    }

    /// Years the passage names (a row's, in its headers and label).
    pub fn years(&self) -> Vec<u16> {
        years_in(&self.match_text())
    }
}

/// A row's values with their headers, each group of columns named once before its
/// values: "Twelve Months Ended (Rigid: 3,540; Total: 14,694)".
fn grouped_values(cells: &[&Cell]) -> String {
    let value = |cell: &Cell| match &cell.header {
        Some(header) => format!("{header}: {}", cell.value),
        None => cell.value.clone(),
    };
    let mut parts: Vec<String> = Vec::new();
    let mut at = 0;
    while at < cells.len() {
        let group = &cells[at].group;
        let run = cells[at..]
            .iter()
            .take_while(|cell| &cell.group == group)
            .count();
        let values: Vec<String> = cells[at..at + run].iter().map(|c| value(c)).collect();
        parts.push(match group {
            Some(group) => format!("{group} ({})", values.join("; ")),
            None => values.join("; "),
        });
        at += run;
    }
    parts.join("; ")
}

/// Years from 1900 to 2099 written as four digits, or as `FY22`.
pub(crate) fn years_in(text: &str) -> Vec<u16> {
    let mut years = Vec::new();
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        let upper = word.to_ascii_uppercase();
        let digits = upper
            .strip_prefix("FY")
            .or_else(|| upper.strip_prefix('Q').and_then(|r| r.get(1..)))
            .unwrap_or(&upper);
        let year = match digits.len() {
            4 => digits
                .parse::<u16>()
                .ok()
                .filter(|y| (1900..2100).contains(y)),
            2 if upper.starts_with("FY") => digits.parse::<u16>().ok().map(|y| 2000 + y),
            _ => None,
        };
        if let Some(year) = year.filter(|y| !years.contains(y)) {
            years.push(year);
        }
    }
    years
}

/// True for a table value: a number with its sign, currency, percent or parentheses,
/// or a dash standing for nothing.
pub(crate) fn is_value(text: &str) -> bool {
    let t = text.trim();
    if matches!(t, "—" | "–" | "-" | "— %" | "—%") {
        return true;
    }
    let core = t
        .trim_start_matches(['(', '$', '€', '£', '¥', '+', '-', '−', '–', ' '])
        .trim_end_matches([')', '%', ' ', '*']);
    let core = core.trim_start_matches(['$', '€', '£', ' ']);
    !core.is_empty()
        && core.chars().any(|c| c.is_ascii_digit())
        && core
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | ' '))
        && !core.contains("  ")
}

fn is_plain_year(text: &str) -> bool {
    let t = text.trim();
    t.len() == 4 && years_in(t).len() == 1
}

fn word_count(text: &str) -> usize {
    text.split_whitespace().count()
}

/// A run of a line's characters with no column gap inside.
#[derive(Debug, Clone)]
struct Fragment {
    text: String,
    glyphs: Vec<usize>,
    rect: BoxRect,
}

/// The passages of a page read from its layout.
pub fn from_layout(layout: &PageLayout) -> Vec<Candidate> {
    let fragments = fragments(layout);
    let rows = rows(&fragments);
    let (mut candidates, used) = table_rows(&rows, &fragments);
    candidates.retain(|row| !is_running_page_number(row, layout));
    let used: HashSet<usize> = used
        .into_iter()
        .flat_map(|f| fragments[f].glyphs.iter().copied())
        .collect();
    // The page's text in reading order, table rows taken out, each char with its glyph.
    let mut flow: Vec<(char, Option<usize>)> = Vec::with_capacity(layout.glyphs.len());
    for (index, glyph) in layout.glyphs.iter().enumerate() {
        if used.contains(&index) {
            if flow.last().is_none_or(|(c, _)| *c != '\u{1}') {
                flow.push(('\u{1}', None));
            }
            continue;
        }
        flow.push((glyph.ch, glyph.rect.map(|_| index)));
    }
    candidates.extend(sentences(&flow, &|index| {
        layout.glyphs.get(index).and_then(|g| g.rect)
    }));
    candidates
}

/// A running header or footer that numbers the page ("Mobile Apps Report Q3 2015 Slide
/// 28"): a row whose only value is the page's number or printed label, in the top or
/// bottom tenth of the page. It is on every page and answers nothing.
fn is_running_page_number(row: &Candidate, layout: &PageLayout) -> bool {
    let [cell] = row.cells.as_slice() else {
        return false;
    };
    let page_number = layout.page.to_string();
    let numbers_page =
        cell.value == page_number || layout.label.as_deref() == Some(cell.value.as_str());
    let rows_box = layout.boxes(row.glyphs.iter().copied()).rects;
    let at_edge = rows_box
        .iter()
        .all(|rect| rect.bottom() <= 0.1 * layout.height || rect.y >= 0.9 * layout.height);
    numbers_page && !rows_box.is_empty() && at_edge
}

/// The passages of a page known only by its text (a page whose file moved, or a scan
/// without OCR's word boxes): sentences, and rows whose values end a line.
pub fn from_text(text: &str) -> Vec<Candidate> {
    let lines: Vec<&str> = text.lines().collect();
    let mut candidates = Vec::new();
    let mut row_lines = HashSet::new();
    for (at, line) in lines.iter().enumerate() {
        let Some((label, values)) = split_row(line) else {
            continue;
        };
        row_lines.insert(at);
        // The header: the nearest line above made of as many short tokens, or years.
        let header = lines[at.saturating_sub(HEADER_ROWS_UP)..at]
            .iter()
            .rev()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .find(|tokens| {
                tokens.len() >= values.len()
                    && tokens[tokens.len() - values.len()..]
                        .iter()
                        .all(|t| is_plain_year(t))
            });
        let cells = values
            .iter()
            .enumerate()
            .map(|(i, value)| Cell {
                group: None,
                header: header
                    .as_ref()
                    .map(|h| h[h.len() - values.len() + i].to_string()),
                value: value.clone(),
            })
            .collect();
        candidates.push(Candidate {
            kind: PassageKind::Row,
            text: label,
            cells,
            glyphs: Vec::new(),
            header_glyphs: Vec::new(),
        });
    }
    let mut flow: Vec<(char, Option<usize>)> = Vec::with_capacity(text.len());
    for (at, line) in lines.iter().enumerate() {
        if row_lines.contains(&at) {
            flow.push(('\u{1}', None));
        } else {
            flow.extend(line.chars().map(|c| (c, None)));
        }
        flow.push(('\n', None));
    }
    candidates.extend(sentences(&flow, &|_| None));
    candidates
}

/// A line that is a label followed by values: the label and the values.
fn split_row(line: &str) -> Option<(String, Vec<String>)> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let mut values: Vec<String> = Vec::new();
    let mut at = tokens.len();
    while at > 0 && is_value(tokens[at - 1]) {
        at -= 1;
        values.insert(0, tokens[at].to_string());
        if at > 0 && matches!(tokens[at - 1], "$" | "€" | "£") {
            at -= 1;
            values[0] = format!("{}{}", tokens[at], values[0]);
        }
    }
    let label = tokens[..at].join(" ");
    let letters = label.chars().filter(|c| c.is_alphabetic()).count();
    if values.is_empty() || letters < 3 || values.iter().all(|v| is_plain_year(v)) {
        return None;
    }
    values.truncate(MAX_ROW_VALUES);
    Some((label.trim_end_matches([':', '.']).to_string(), values))
}

fn fragments(layout: &PageLayout) -> Vec<Fragment> {
    let mut fragments: Vec<Fragment> = Vec::new();
    let mut current: Option<Fragment> = None;
    let mut pending_space = false;
    for (index, glyph) in layout.glyphs.iter().enumerate() {
        let Some(rect) = glyph.rect else {
            if glyph.ch == '\n' {
                fragments.extend(current.take());
            } else if glyph.ch.is_whitespace() {
                pending_space = true;
            }
            continue;
        };
        if let Some(fragment) = current.as_mut() {
            let last = fragment.rect;
            let height = last.height.max(rect.height).max(1.0);
            let same_line =
                (last.center_y() - rect.center_y()).abs() < 0.5 * last.height.min(rect.height);
            let gap = rect.x - last.right();
            if same_line && gap < 0.9 * height && gap > -height {
                if pending_space || gap > 0.2 * height {
                    fragment.text.push(' ');
                }
                fragment.text.push(glyph.ch);
                fragment.glyphs.push(index);
                fragment.rect = last.union(&rect);
                pending_space = false;
                continue;
            }
            fragments.extend(current.take());
        }
        pending_space = false;
        current = Some(Fragment {
            text: glyph.ch.to_string(),
            glyphs: vec![index],
            rect,
        });
    }
    fragments.extend(current);
    fragments
}

/// Fragments grouped into visual rows, top to bottom, each left to right.
fn rows(fragments: &[Fragment]) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..fragments.len()).collect();
    order.sort_by(|&a, &b| {
        fragments[a]
            .rect
            .center_y()
            .total_cmp(&fragments[b].rect.center_y())
    });
    let mut rows: Vec<Vec<usize>> = Vec::new();
    for index in order {
        let rect = fragments[index].rect;
        let joins = rows.last().is_some_and(|row| {
            let first = fragments[row[0]].rect;
            (first.center_y() - rect.center_y()).abs() < 0.45 * first.height.min(rect.height)
        });
        match rows.last_mut() {
            Some(row) if joins => row.push(index),
            _ => rows.push(vec![index]),
        }
    }
    for row in &mut rows {
        row.sort_by(|&a, &b| fragments[a].rect.x.total_cmp(&fragments[b].rect.x));
    }
    rows
}

/// A row's label and value fragments, when it is a table row: a label, then values
/// (a lone currency sign joins the value after it, a lone % the value before).
/// A table row's label fragments and its values' fragments.
type RowParts = (Vec<usize>, Vec<Vec<usize>>);

fn row_parts(row: &[usize], fragments: &[Fragment]) -> Option<RowParts> {
    let mut label = Vec::new();
    let mut values: Vec<Vec<usize>> = Vec::new();
    let mut pending_sign: Option<usize> = None;
    for &index in row {
        let text = fragments[index].text.trim();
        if matches!(text, "$" | "€" | "£") {
            pending_sign = Some(index);
            continue;
        }
        if matches!(text, "%" | ")" | "%)") {
            if let Some(last) = values.last_mut() {
                last.push(index);
                continue;
            }
        }
        // A year first on the line labels its row (a table with a row a year).
        if label.is_empty() && values.is_empty() && is_plain_year(text) {
            label.push(index);
            continue;
        }
        if is_value(text) {
            if label.is_empty() {
                return None;
            }
            let mut value: Vec<usize> = pending_sign.take().into_iter().collect();
            value.push(index);
            values.push(value);
        } else if values.is_empty() {
            label.extend(pending_sign.take());
            label.push(index);
        } else {
            // Text after the values: another table beside this one, left out; unless
            // the label is running text, when the line is two columns of prose (one
            // ending where a figure starts the other), no row.
            if label.iter().any(|&i| is_running_text(&fragments[i].text)) {
                return None;
            }
            break;
        }
    }
    // A run of prose before the label is the column beside a chart or a table, not
    // part of the label: the row starts after it, and the prose stays in its sentence.
    if let Some(last_prose) = label[..label.len().saturating_sub(1)]
        .iter()
        .rposition(|&i| is_running_text(&fragments[i].text))
    {
        label.drain(..=last_prose);
    }
    let label_text: String = label
        .iter()
        .map(|&i| fragments[i].text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let letters = label_text.chars().filter(|c| c.is_alphabetic()).count();
    let labelled = letters >= 3 || (is_plain_year(&label_text) && values.len() >= 2);
    let all_years = values
        .iter()
        .all(|v| v.iter().all(|&i| is_plain_year(&fragments[i].text)));
    if values.is_empty() || !labelled || all_years || word_count(&label_text) > 30 {
        return None;
    }
    Some((label, values))
}

/// The table rows among `rows`, with their headers, and every fragment they used.
fn table_rows(rows: &[Vec<usize>], fragments: &[Fragment]) -> (Vec<Candidate>, Vec<usize>) {
    let parts: Vec<Option<RowParts>> = rows.iter().map(|row| row_parts(row, fragments)).collect();
    let mut candidates = Vec::new();
    let mut used = Vec::new();
    for (at, part) in parts.iter().enumerate() {
        let Some((label, values)) = part else {
            continue;
        };
        let value_rects: Vec<BoxRect> = values
            .iter()
            .map(|v| {
                v.iter()
                    .map(|&i| fragments[i].rect)
                    .reduce(|a, b| a.union(&b))
                    .unwrap_or(fragments[v[0]].rect)
            })
            .collect();
        let headers = headers_above(at, rows, &parts, fragments, &value_rects);
        let text = |indices: &[usize]| {
            indices
                .iter()
                .map(|&i| fragments[i].text.trim())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let label_text = text(label).trim_end_matches([':', '.']).trim().to_string();
        let cells: Vec<Cell> = values
            .iter()
            .zip(&headers)
            .take(MAX_ROW_VALUES)
            .map(|(value, header)| {
                let (group, column) = match header.split_last() {
                    Some((column, groups)) => (
                        (!groups.is_empty()).then(|| text(groups)),
                        Some(text(&[*column])),
                    ),
                    None => (None, None),
                };
                Cell {
                    group,
                    header: column,
                    value: text(value).replace("$ ", "$"),
                }
            })
            .collect();
        let mut glyphs: Vec<usize> = label
            .iter()
            .chain(values.iter().flatten())
            .flat_map(|&i| fragments[i].glyphs.iter().copied())
            .collect();
        glyphs.sort_unstable();
        let mut header_fragments: Vec<usize> = headers.iter().flatten().copied().collect();
        header_fragments.sort_unstable();
        header_fragments.dedup();
        let header_glyphs = header_fragments
            .iter()
            .flat_map(|&i| fragments[i].glyphs.iter().copied())
            .collect();
        used.extend(label.iter().chain(values.iter().flatten()).copied());
        candidates.push(Candidate {
            kind: PassageKind::Row,
            text: label_text,
            cells,
            glyphs,
            header_glyphs,
        });
    }
    (candidates, used)
}

/// For each value of row `at`, the fragments heading its column, the highest first: the
/// one from the nearest row above (that is not a row of values) which has a fragment
/// over every value's column, or over most of them, distinct ones; and above it, those
/// of rows that head groups of these columns (see [`group_headers`]).
fn headers_above(
    at: usize,
    rows: &[Vec<usize>],
    parts: &[Option<RowParts>],
    fragments: &[Fragment],
    values: &[BoxRect],
) -> Vec<Vec<usize>> {
    let none = vec![Vec::new(); values.len()];
    let reach = column_reach(values);
    for above in (at.saturating_sub(HEADER_ROWS_UP)..at).rev() {
        if parts[above].is_some() {
            continue;
        }
        let row = &rows[above];
        if row.iter().any(|&i| word_count(&fragments[i].text) > 15) {
            // Prose: the table started below it.
            return none;
        }
        let over = |value: &BoxRect| {
            row.iter()
                .copied()
                .filter(|&i| is_header_text(&fragments[i].text))
                .map(|i| {
                    let r = fragments[i].rect;
                    (i, r, (r.center_x() - value.center_x()).abs())
                })
                .filter(|&(_, r, distance)| {
                    let overlaps = r.x < value.right() + 2.0 && r.right() > value.x - 2.0;
                    overlaps || distance <= reach
                })
                .min_by(|a, b| a.2.total_cmp(&b.2))
                .map(|(i, _, _)| i)
        };
        let found: Vec<Option<usize>> = values.iter().map(over).collect();
        let matched = found.iter().flatten().count();
        let mut distinct: Vec<usize> = found.iter().flatten().copied().collect();
        distinct.dedup();
        let enough = matched * 2 >= values.len() && matched > 0;
        if enough && (distinct.len() >= 2 || values.len() == 1) {
            let mut headers: Vec<Vec<usize>> = found.into_iter().map(Vec::from_iter).collect();
            for level in group_headers(above, rows, parts, fragments, values, reach) {
                for (header, group) in headers.iter_mut().zip(level) {
                    header.insert(0, group);
                }
            }
            return headers;
        }
    }
    none
}

/// The rows just above the column headers in row `below` that head groups of the
/// columns ("Three Months Ended June 30" over two years, "2023" over "Flexibles Rigid
/// Total"), nearest first: each value takes the row's fragment nearest to it. A row
/// counts when its fragments over the values are all header text, fewer than the
/// values, and tell at least two groups apart; a row of values or prose ends the look.
fn group_headers(
    below: usize,
    rows: &[Vec<usize>],
    parts: &[Option<RowParts>],
    fragments: &[Fragment],
    values: &[BoxRect],
    reach: f32,
) -> Vec<Vec<usize>> {
    let left = values.iter().map(|v| v.x).fold(f32::MAX, f32::min) - reach;
    let right = values.iter().map(BoxRect::right).fold(f32::MIN, f32::max) + reach;
    let mut levels = Vec::new();
    for above in (below.saturating_sub(GROUP_HEADER_ROWS_UP)..below).rev() {
        let row = &rows[above];
        if parts[above].is_some() || row.iter().any(|&i| word_count(&fragments[i].text) > 15) {
            break;
        }
        let over: Vec<usize> = row
            .iter()
            .copied()
            .filter(|&i| fragments[i].rect.right() > left && fragments[i].rect.x < right)
            .collect();
        if over.len() < 2
            || over.len() >= values.len()
            || !over.iter().all(|&i| is_header_text(&fragments[i].text))
        {
            continue;
        }
        let distance = |i: usize, value: &BoxRect| {
            let r = fragments[i].rect;
            let centre = value.center_x();
            (r.x - centre).max(centre - r.right()).max(0.0)
        };
        let level: Vec<usize> = values
            .iter()
            .filter_map(|value| {
                over.iter()
                    .copied()
                    .min_by(|&a, &b| distance(a, value).total_cmp(&distance(b, value)))
            })
            .collect();
        // A group's header is centred over its columns; a text over one column of the
        // group nearest to it is the first line of that column's own header
        // ("Operating" over "Income (Loss)").
        let centred = over.iter().all(|&i| {
            let centres = values
                .iter()
                .zip(&level)
                .filter(|&(_, &group)| group == i)
                .map(|(value, _)| value.center_x());
            let (low, high) =
                centres.fold((f32::MAX, f32::MIN), |(lo, hi), c| (lo.min(c), hi.max(c)));
            low <= high
                && (fragments[i].rect.center_x() - (low + high) / 2.0).abs()
                    <= GROUP_CENTRING * reach
        });
        if centred {
            levels.push(level);
        }
    }
    levels
}

/// Prose rather than a label: several words, most of them running (lower-case) words.
fn is_running_text(text: &str) -> bool {
    let words: Vec<&str> = text.split_whitespace().collect();
    let running = words
        .iter()
        .filter(|w| w.chars().next().is_some_and(char::is_lowercase) && w.chars().count() >= 2)
        .count();
    words.len() >= 6 && running >= 3 && running * 2 >= words.len()
}

/// A fragment that can head a column: a few words or a year, not a figure or a
/// currency sign (a row of totals without a label is not the header of the rows under
/// it).
fn is_header_text(text: &str) -> bool {
    word_count(text) <= 8
        && text.chars().any(char::is_alphanumeric)
        && (is_plain_year(text) || !is_value(text))
}

/// How far a column's header may sit from its value's centre: half the narrowest
/// spacing between the row's columns, since figures are set flush right under headers
/// centred over their column and need not overlap them.
fn column_reach(values: &[BoxRect]) -> f32 {
    let mut centres: Vec<f32> = values.iter().map(BoxRect::center_x).collect();
    centres.sort_by(f32::total_cmp);
    let narrowest = centres
        .windows(2)
        .map(|pair| pair[1] - pair[0])
        .fold(f32::MAX, f32::min);
    if narrowest < f32::MAX {
        narrowest / 2.0
    } else {
        values.first().map_or(0.0, |v| v.width.max(12.0))
    }
}

/// Sentences of a flow of characters (`\u{1}` marks where a table row was taken out),
/// each with its glyphs.
fn sentences(
    flow: &[(char, Option<usize>)],
    rect: &dyn Fn(usize) -> Option<BoxRect>,
) -> Vec<Candidate> {
    // Lines, then paragraphs: a line break inside a sentence joins, one after a
    // sentence's end or after a heading splits.
    let mut lines: Vec<Vec<(char, Option<usize>)>> = vec![Vec::new()];
    for &(ch, glyph) in flow {
        match ch {
            // The line break after a taken-out row's text is the row's, not a blank line.
            '\n' if lines.last().is_some_and(Vec::is_empty)
                && lines.len() >= 2
                && lines[lines.len() - 2] == [('\u{1}', None)] => {}
            '\n' => lines.push(Vec::new()),
            '\u{1}' => {
                // Rows taken out one after another are one break.
                if lines.last().is_some_and(Vec::is_empty) {
                    lines.pop();
                }
                if lines.last().is_none_or(|line| *line != [('\u{1}', None)]) {
                    lines.push(vec![('\u{1}', None)]);
                }
                lines.push(Vec::new());
            }
            _ => {
                if let Some(line) = lines.last_mut() {
                    line.push((ch, glyph));
                }
            }
        }
    }
    let mut paragraphs: Vec<Vec<(char, Option<usize>)>> = vec![Vec::new()];
    let mut previous_shape: Option<LineShape> = None;
    let mut row_taken = false;
    for line in lines {
        let text: String = line.iter().map(|(c, _)| *c).collect();
        let text = text.trim();
        if text == "\u{1}" {
            row_taken = true;
            continue;
        }
        // Spaces between a row's taken-out texts are the row's too.
        if text.is_empty() && !row_taken {
            paragraphs.push(Vec::new());
            previous_shape = None;
        }
        if text.is_empty() {
            continue;
        }
        let shape = LineShape::of(&line, rect);
        let above = std::mem::replace(&mut previous_shape, shape);
        // A table row taken out between two lines ends the paragraph, unless the
        // second line sits right under the first: then the row was beside them (a
        // chart's labels beside prose) and the sentence goes on.
        if std::mem::take(&mut row_taken) {
            let beside = match (above, shape) {
                (Some(above), Some(shape)) => {
                    shape.top >= above.top && !above.set_apart_from(&shape)
                }
                _ => false,
            };
            if !beside {
                paragraphs.push(Vec::new());
            }
        }
        let Some(paragraph) = paragraphs.last_mut() else {
            continue;
        };
        let previous: String = paragraph.iter().map(|(c, _)| *c).collect();
        let previous = previous.trim_end();
        let ends = previous.ends_with(['.', '!', '?', ':', ';']);
        let starts_low = text.chars().next().is_some_and(|c| c.is_lowercase());
        let short = word_count(last_line(previous)) <= 6;
        // A short line is a heading when it stands alone; within a paragraph it is a
        // narrow column's line, unless the type or the spacing sets it apart. Without
        // boxes (or across columns) shortness alone has to tell.
        let heading = !previous.is_empty()
            && !ends
            && match (above, shape) {
                (Some(above), Some(shape)) if shape.top >= above.top => {
                    (short && !previous.contains('\n')) || above.set_apart_from(&shape)
                }
                _ => short,
            };
        let bullet = text.starts_with(['•', '●', '▪', '◦', '■', '–', '-', '*', '·']);
        // A number alone on its line (a page's or a figure's) starts no sentence.
        let lone_number = previous.chars().all(|c| c.is_ascii_digit());
        if !previous.is_empty() && (lone_number || ((ends || heading || bullet) && !starts_low)) {
            paragraphs.push(line);
            continue;
        }
        if previous.ends_with(['-', '\u{ad}']) && starts_low {
            while paragraph
                .last()
                .is_some_and(|(c, _)| matches!(c, '-' | '\u{ad}' | ' '))
            {
                paragraph.pop();
            }
        } else if !previous.is_empty() {
            paragraph.push(('\n', None));
        }
        paragraph.extend(line);
    }
    let mut out = Vec::new();
    for paragraph in paragraphs {
        let text: String = paragraph
            .iter()
            .map(|(c, _)| {
                if *c == '\n' || *c == '\u{ad}' {
                    ' '
                } else {
                    *c
                }
            })
            .collect();
        let char_at: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        for (start, sentence) in text.split_sentence_bound_indices() {
            let (start, sentence) = without_footnote_mark(&text[..start], start, sentence);
            let first = char_at.partition_point(|&i| i < start);
            let count = sentence.chars().count();
            let chars = without_raised_number(&paragraph[first..first + count], rect);
            if let Some(candidate) = sentence_candidate(chars) {
                out.push(candidate);
            }
        }
    }
    out
}

/// `sentence` (at `start`) without the footnote mark the sentence before it ends in:
/// segmentation gives "…the companies.”49" the next sentence's "49 The first…".
fn without_footnote_mark<'a>(before: &str, start: usize, sentence: &'a str) -> (usize, &'a str) {
    let glued = before
        .chars()
        .last()
        .is_some_and(|c| matches!(c, '.' | '!' | '?' | '"' | '\u{201d}' | '\u{2019}' | ')'));
    let digits = sentence.len()
        - sentence
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    if !glued || digits == 0 || digits > 3 {
        return (start, sentence);
    }
    let rest = &sentence[digits..];
    let trimmed = rest.trim_start();
    if trimmed.len() == rest.len() {
        // "2019 was a good year": a number that starts a sentence.
        return (start, sentence);
    }
    (start + sentence.len() - trimmed.len(), trimmed)
}

/// `chars` without the raised, smaller number a footnote starts with ("² This finding
/// is…"): printed as a superscript, it is the note's mark, not part of its sentence.
fn without_raised_number<'a>(
    chars: &'a [(char, Option<usize>)],
    rect: &dyn Fn(usize) -> Option<BoxRect>,
) -> &'a [(char, Option<usize>)] {
    let digits = chars.iter().take_while(|(c, _)| c.is_ascii_digit()).count();
    if digits == 0 || digits > 2 {
        return chars;
    }
    let after = chars[digits..]
        .iter()
        .position(|(c, _)| !c.is_whitespace())
        .map_or(chars.len(), |at| digits + at);
    let Some((capital, Some(glyph))) = chars.get(after) else {
        return chars;
    };
    let (Some(capital), true) = (rect(*glyph), capital.is_uppercase()) else {
        return chars;
    };
    let Some(marks) = chars[..digits]
        .iter()
        .map(|(_, glyph)| glyph.and_then(rect))
        .collect::<Option<Vec<BoxRect>>>()
    else {
        return chars;
    };
    let raised = marks
        .into_iter()
        .reduce(|a, b| a.union(&b))
        .is_some_and(|mark| {
            mark.height < RAISED_SIZE * capital.height
                && capital.bottom() - mark.bottom() >= RAISED_BY * capital.height
        });
    if raised {
        &chars[after..]
    } else {
        chars
    }
}

/// A line's type size (its glyphs' median height) and its top and bottom on the page.
#[derive(Debug, Clone, Copy)]
struct LineShape {
    size: f32,
    top: f32,
    bottom: f32,
}

impl LineShape {
    fn of(line: &[(char, Option<usize>)], rect: &dyn Fn(usize) -> Option<BoxRect>) -> Option<Self> {
        let rects: Vec<BoxRect> = line
            .iter()
            .filter(|(c, _)| c.is_alphanumeric())
            .filter_map(|(_, g)| g.and_then(rect))
            .collect();
        let mut heights: Vec<f32> = rects.iter().map(|r| r.height).collect();
        heights.sort_by(f32::total_cmp);
        let size = *heights.get(heights.len() / 2)?;
        let span = rects.iter().copied().reduce(|a, b| a.union(&b))?;
        Some(Self {
            size,
            top: span.y,
            bottom: span.bottom(),
        })
    }

    /// True when `below` is set in another size, or after more space than lines of
    /// one paragraph leave between them.
    fn set_apart_from(&self, below: &LineShape) -> bool {
        let size = self.size.max(below.size).max(1.0);
        (self.size - below.size).abs() > 0.15 * size || below.top - self.bottom > 0.8 * size
    }
}

fn last_line(text: &str) -> &str {
    text.rsplit('\n').next().unwrap_or(text)
}

/// A sentence worth quoting (a clause: enough words, mostly words), cut to
/// `MAX_SENTENCE_WORDS` words.
fn sentence_candidate(chars: &[(char, Option<usize>)]) -> Option<Candidate> {
    let mut words = 0;
    let mut in_word = false;
    let mut end = chars.len();
    for (at, (ch, _)) in chars.iter().enumerate() {
        let space = ch.is_whitespace() || *ch == '\u{ad}';
        if !space && !in_word {
            words += 1;
            if words > MAX_SENTENCE_WORDS {
                end = at;
                break;
            }
        }
        in_word = !space;
    }
    let kept = &chars[..end];
    let text: String = kept
        .iter()
        .map(|(c, _)| {
            if c.is_whitespace() || *c == '\u{ad}' {
                ' '
            } else {
                *c
            }
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let word_list: Vec<&str> = text.split_whitespace().collect();
    let wordy = word_list
        .iter()
        .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2)
        .count();
    // Running words (lower-case ones) tell a clause from a heading or a table's header
    // line, which are mostly capitalised words and figures.
    let running = word_list
        .iter()
        .filter(|w| w.chars().next().is_some_and(char::is_lowercase) && w.chars().count() >= 2)
        .count();
    if word_list.len() < MIN_SENTENCE_WORDS
        || wordy < 4
        || wordy * 2 < word_list.len()
        || running < 3
        || running * 10 < word_list.len() * 3
    {
        return None;
    }
    let text = if end < chars.len() {
        format!("{text} …")
    } else {
        text
    };
    Some(Candidate {
        kind: PassageKind::Sentence,
        text,
        cells: Vec::new(),
        glyphs: kept.iter().filter_map(|(_, g)| *g).collect(),
        header_glyphs: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::layout::Glyph;

    /// A page laid out from lines of (x, text) pieces, 12 pt apart.
    fn layout(lines: &[&[(f32, &str)]]) -> PageLayout {
        let placed: Vec<PlacedLine<'_>> = lines
            .iter()
            .enumerate()
            .map(|(row, pieces)| (100.0 + 12.0 * row as f32, 10.0, *pieces))
            .collect();
        layout_at(&placed)
    }

    /// A line's y, its type size and its (x, text) pieces.
    type PlacedLine<'a> = (f32, f32, &'a [(f32, &'a str)]);

    /// A page laid out from lines of (x, text) pieces, each at its y and in its type
    /// size (glyphs half as wide as high).
    fn layout_at(lines: &[PlacedLine<'_>]) -> PageLayout {
        let mut glyphs = Vec::new();
        for &(y, size, pieces) in lines {
            for (x, text) in pieces.iter() {
                for (i, ch) in text.chars().enumerate() {
                    glyphs.push(Glyph {
                        ch,
                        rect: (!ch.is_whitespace()).then_some(BoxRect {
                            x: x + 0.5 * size * i as f32,
                            y,
                            width: 0.45 * size,
                            height: size,
                        }),
                    });
                }
                glyphs.push(Glyph {
                    ch: '\n',
                    rect: None,
                });
            }
        }
        PageLayout {
            page: 1,
            label: None,
            width: 612.0,
            height: 792.0,
            glyphs,
        }
    }

    #[test]
    fn a_table_row_is_read_across_with_its_column_headers() {
        let page = layout(&[
            &[(10.0, "Consolidated Statement of Cash Flows")],
            &[(300.0, "2018"), (360.0, "2017"), (420.0, "2016")],
            &[
                (10.0, "Purchases of property, plant and equipment"),
                (300.0, "(1,577)"),
                (360.0, "(1,373)"),
                (420.0, "(1,420)"),
            ],
            &[
                (10.0, "Net income"),
                (290.0, "$"),
                (300.0, "5,363"),
                (360.0, "4,869"),
                (420.0, "5,058"),
            ],
        ]);
        let candidates = from_layout(&page);
        let rows: Vec<&Candidate> = candidates
            .iter()
            .filter(|c| c.kind == PassageKind::Row)
            .collect();
        assert_eq!(rows.len(), 2, "{candidates:#?}");
        assert_eq!(
            rows[0].quote(&[2017]),
            "Purchases of property, plant and equipment — 2017: (1,373); 2018: (1,577); 2016: (1,420)"
        );
        assert_eq!(rows[1].cells[0].value, "$5,363");
        assert_eq!(rows[1].years(), vec![2018, 2017, 2016]);
        assert!(candidates
            .iter()
            .all(|c| c.kind == PassageKind::Row || !c.text.contains("1,577")));
    }

    #[test]
    fn narrow_figures_set_flush_right_take_the_header_centred_over_their_column() {
        // Headers centred over 60-pt columns; "410" sits at the columns' right edge,
        // under no header glyph.
        let page = layout(&[
            &[
                (10.0, "(Millions)"),
                (318.0, "2018"),
                (378.0, "2017"),
                (438.0, "2016"),
            ],
            &[
                (10.0, "Net income"),
                (300.0, "$ 5,363"),
                (360.0, "$ 4,869"),
                (420.0, "$ 5,058"),
            ],
            &[
                (285.0, "$"),
                (300.0, "30,210"),
                (345.0, "$"),
                (360.0, "29,160"),
                (405.0, "$"),
                (420.0, "28,000"),
            ],
            &[
                (10.0, "Pension expense"),
                (340.0, "410"),
                (400.0, "334"),
                (460.0, "250"),
            ],
        ]);
        let rows: Vec<Candidate> = from_layout(&page)
            .into_iter()
            .filter(|c| c.kind == PassageKind::Row)
            .collect();
        assert_eq!(rows.len(), 2, "{rows:#?}");
        assert_eq!(
            rows[1].quote(&[]),
            "Pension expense — 2018: 410; 2017: 334; 2016: 250"
        );
    }

    #[test]
    fn a_footer_that_numbers_the_page_is_no_row_but_a_row_valued_so_elsewhere_is() {
        let page = layout_at(&[
            (100.0, 10.0, &[(10.0, "Subscribers by operator")]),
            (
                112.0,
                10.0,
                &[(10.0, "Operators in the survey"), (300.0, "1")],
            ),
            (
                760.0,
                10.0,
                &[
                    (10.0, "Vietnam Mobile Apps Report Q3 2015 Slide"),
                    (500.0, "1"),
                ],
            ),
        ]);
        let rows: Vec<String> = from_layout(&page)
            .into_iter()
            .filter(|c| c.kind == PassageKind::Row)
            .map(|c| c.text)
            .collect();
        assert_eq!(rows, vec!["Operators in the survey".to_string()]);
    }

    #[test]
    fn a_page_number_alone_on_its_line_starts_no_sentence() {
        let page = layout(&[
            &[(500.0, "10")],
            &[(
                10.0,
                "introduces an innovative method for integrating knowledge",
            )],
            &[(
                10.0,
                "into white-box models via directive fine-tuning [75].",
            )],
        ]);
        let sentences: Vec<String> = from_layout(&page).into_iter().map(|c| c.text).collect();
        assert_eq!(
            sentences,
            vec![
                "introduces an innovative method for integrating knowledge into white-box models via directive fine-tuning [75]."
                    .to_string()
            ]
        );
    }

    #[test]
    fn a_footnote_mark_after_a_sentence_is_in_neither_sentence() {
        let sentences: Vec<String> = from_text(
            "was the impelling force in the organization of the present companies.\u{201d}49 The first farmers\u{2019} elevator, located in Hordville, incorporated in 1906 and grew.\n2019 was a year of record growth for all of the towns.",
        )
        .into_iter()
        .map(|c| c.text)
        .collect();
        assert_eq!(sentences.len(), 3, "{sentences:#?}");
        assert!(
            sentences[1].starts_with("The first farmers"),
            "{sentences:#?}"
        );
        assert!(
            sentences[2].starts_with("2019 was a year"),
            "{sentences:#?}"
        );
    }

    #[test]
    fn a_row_under_two_levels_of_headers_names_both() {
        // Amcor's layout: periods over segments, each period centred over its three.
        let page = layout(&[
            &[(10.0, "($ million)")],
            &[
                (225.0, "Three Months Ended June 30"),
                (405.0, "Twelve Months Ended June 30"),
            ],
            &[
                (220.0, "Flexibles"),
                (280.0, "Rigid"),
                (330.0, "Total"),
                (400.0, "Flexibles"),
                (460.0, "Rigid"),
                (510.0, "Total"),
            ],
            &[
                (10.0, "Net sales"),
                (225.0, "2,777"),
                (285.0, "897"),
                (330.0, "3,673"),
                (405.0, "11,154"),
                (460.0, "3,540"),
                (510.0, "14,694"),
            ],
        ]);
        let rows: Vec<Candidate> = from_layout(&page)
            .into_iter()
            .filter(|c| c.kind == PassageKind::Row)
            .collect();
        assert_eq!(rows.len(), 1, "{rows:#?}");
        assert_eq!(
            rows[0].quote(&[]),
            "Net sales — Three Months Ended June 30 (Flexibles: 2,777; Rigid: 897; Total: 3,673); \
             Twelve Months Ended June 30 (Flexibles: 11,154; Rigid: 3,540; Total: 14,694)"
        );
        // Both levels' glyphs are boxed with the row.
        let boxed: String = rows[0]
            .header_glyphs
            .iter()
            .map(|&g| page.glyphs[g].ch)
            .collect();
        assert!(
            boxed.contains("Twelve") && boxed.contains("Rigid"),
            "{boxed}"
        );
    }

    #[test]
    fn the_first_line_of_one_columns_header_is_not_a_group_header() {
        // 3M's segment table: "Operating" over "Income (Loss)" only, each year centred
        // over its three columns.
        let page = layout(&[
            &[(292.5, "2022"), (472.5, "2021")],
            &[(340.0, "Operating"), (520.0, "Operating")],
            &[
                (230.0, "Net Sales"),
                (290.0, "% of Total"),
                (340.0, "Income (Loss)"),
                (410.0, "Net Sales"),
                (470.0, "% of Total"),
                (520.0, "Income (Loss)"),
            ],
            &[
                (10.0, "Corporate and Unallocated"),
                (240.0, "4"),
                (300.0, "—"),
                (350.0, "1,519"),
                (420.0, "2"),
                (480.0, "—"),
                (530.0, "(176)"),
            ],
        ]);
        let rows: Vec<Candidate> = from_layout(&page)
            .into_iter()
            .filter(|c| c.kind == PassageKind::Row)
            .collect();
        assert_eq!(rows.len(), 1, "{rows:#?}");
        let groups: Vec<Option<&str>> = rows[0].cells.iter().map(|c| c.group.as_deref()).collect();
        assert_eq!(
            groups,
            [
                Some("2022"),
                Some("2022"),
                Some("2022"),
                Some("2021"),
                Some("2021"),
                Some("2021")
            ]
        );
    }

    #[test]
    fn one_heading_over_every_column_is_not_a_group_header() {
        let page = layout(&[
            &[(300.0, "Years ended December 31")],
            &[(300.0, "2018"), (360.0, "2017"), (420.0, "2016")],
            &[
                (10.0, "Net income"),
                (300.0, "5,363"),
                (360.0, "4,869"),
                (420.0, "5,058"),
            ],
        ]);
        let rows: Vec<Candidate> = from_layout(&page)
            .into_iter()
            .filter(|c| c.kind == PassageKind::Row)
            .collect();
        assert_eq!(
            rows[0].quote(&[]),
            "Net income — 2018: 5,363; 2017: 4,869; 2016: 5,058"
        );
    }

    #[test]
    fn sentences_join_lines_and_headings_and_fragments_are_left_out() {
        let page = layout(&[
            &[(10.0, "Liquidity")],
            &[(
                10.0,
                "Capital expenditures were $1.6 billion in 2018, up from",
            )],
            &[(10.0, "the prior year. The")],
            &[(10.0, "2018")],
        ]);
        let candidates = from_layout(&page);
        let texts: Vec<&str> = candidates.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(
            texts,
            ["Capital expenditures were $1.6 billion in 2018, up from the prior year."]
        );
        assert_eq!(
            candidates[0].glyphs.len(),
            texts[0].chars().filter(|c| !c.is_whitespace()).count()
        );
    }

    #[test]
    fn a_narrow_columns_lines_join_whatever_they_start_with() {
        let page = layout_at(&[
            (80.0, 14.0, &[(10.0, "Older Americans more critical")]),
            (100.0, 10.0, &[(10.0, "Most adults view China")]),
            (112.0, 10.0, &[(10.0, "unfavorably, and those ages")]),
            (124.0, 10.0, &[(10.0, "50 and older are the most")]),
            (136.0, 10.0, &[(10.0, "critical of all groups.")]),
            (160.0, 10.0, &[(10.0, "Sources and methods")]),
            (172.0, 10.0, &[(10.0, "Surveys were held in June.")]),
        ]);
        let texts: Vec<String> = from_layout(&page).into_iter().map(|c| c.text).collect();
        assert_eq!(
            texts,
            [
                "Most adults view China unfavorably, and those ages 50 and older are the most critical of all groups.",
                // A short line standing alone is still a heading.
                "Surveys were held in June.",
            ]
        );
    }

    #[test]
    fn a_charts_labels_beside_prose_are_a_row_and_leave_the_prose_whole() {
        let page = layout(&[
            &[(10.0, "Republicans are far more critical of it than")],
            &[
                (10.0, "Democrats of how China has handled the"),
                (300.0, "Rep/Lean Rep"),
                (400.0, "82"),
                (440.0, "15"),
            ],
            &[(10.0, "outbreak, the survey finds.")],
        ]);
        let candidates = from_layout(&page);
        let quotes: Vec<String> = candidates.iter().map(|c| c.quote(&[])).collect();
        assert_eq!(
            quotes,
            [
                "Rep/Lean Rep — 82; 15",
                "Republicans are far more critical of it than Democrats of how China has handled the outbreak, the survey finds.",
            ]
        );
    }

    #[test]
    fn two_columns_of_prose_are_no_row_where_a_figure_starts_the_second() {
        // pdfium reads the left column, then the right.
        let page = layout_at(&[
            (
                100.0,
                10.0,
                &[(10.0, "The model is trained on reviews and then")],
            ),
            (
                112.0,
                10.0,
                &[(10.0, "tested on the held out users of each set.")],
            ),
            (
                100.0,
                10.0,
                &[(300.0, "3.3"), (330.0, "Datasets and their sizes")],
            ),
        ]);
        let candidates = from_layout(&page);
        assert!(
            candidates.iter().all(|c| c.kind == PassageKind::Sentence),
            "{candidates:?}"
        );
        assert_eq!(
            candidates[0].text,
            "The model is trained on reviews and then tested on the held out users of each set."
        );
    }

    #[test]
    fn a_footnote_is_quoted_without_its_raised_mark() {
        let line: &[(f32, &str)] = &[(
            10.0,
            "2 This finding is little changed from 2009, when most adults said so.",
        )];
        let mut page = layout_at(&[(100.0, 10.0, line)]);
        let plain = from_layout(&page);
        assert_eq!(
            plain[0].text, "2 This finding is little changed from 2009, when most adults said so.",
            "a number in the line's own type starts the sentence"
        );
        let mark = page.glyphs[0].rect.as_mut().expect("the mark's box");
        mark.height = 6.0;
        let footnote = from_layout(&page);
        assert_eq!(
            footnote[0].text,
            "This finding is little changed from 2009, when most adults said so."
        );
        assert!(
            footnote[0].glyphs.iter().all(|&g| g != 0),
            "the mark is not boxed"
        );
    }

    #[test]
    fn a_year_first_on_its_line_labels_a_row() {
        let page = layout(&[
            &[(10.0, "Year"), (100.0, "Ada"), (150.0, "Lima")],
            &[(10.0, "1990"), (100.0, "4,225"), (150.0, "389")],
            &[(10.0, "2000"), (100.0, "4,410"), (150.0, "150")],
        ]);
        let quotes: Vec<String> = from_layout(&page).iter().map(|c| c.quote(&[])).collect();
        assert_eq!(
            quotes,
            [
                "1990 — Ada: 4,225; Lima: 389",
                "2000 — Ada: 4,410; Lima: 150"
            ]
        );
    }

    #[test]
    fn rows_of_plain_text_take_a_line_of_years_above_as_headers() {
        let candidates = from_text(
            "(Millions) 2018 2017\nNet sales $ 3,909 3,673\nSales grew in every region this year, the report says.",
        );
        assert_eq!(
            candidates[0].quote(&[]),
            "Net sales — 2018: $3,909; 2017: 3,673"
        );
        assert_eq!(candidates[1].kind, PassageKind::Sentence);
    }

    #[test]
    fn values_and_years() {
        for value in ["1,577", "(1,577)", "$5,363", "12.5%", "—", "(0.3)%"] {
            assert!(is_value(value), "{value}");
        }
        for text in ["FY2018", "Net", "1,577 units", "2018a"] {
            assert!(!is_value(text), "{text}");
        }
        assert_eq!(years_in("FY2018 and FY22, 2019"), vec![2018, 2022, 2019]);
        assert_eq!(years_in("page 1234 of 12,000"), Vec::<u16>::new());
    }

    proptest::proptest! {
        #[test]
        fn any_text_gives_passages_of_more_than_a_word(
            lines in proptest::collection::vec(
                "[A-Za-zéё]{1,9}( [A-Za-z0-9.,$%()-]{1,9}){0,9}[.:]?|[0-9,.() $%-]{1,20}",
                0..12,
            )
        ) {
            for candidate in from_text(&lines.join("\n")) {
                let quote = candidate.quote(&[]);
                proptest::prop_assert!(
                    quote.split_whitespace().count() >= 2,
                    "{quote:?} from {lines:?}"
                );
            }
        }
    }
}
