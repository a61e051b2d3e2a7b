//! What a reader skips when saying what a page is about: running headers and footers
//! (lines repeated on many pages of a document), and the parts of a cover-page form that
//! are the form rather than its answers (fill-in labels, check boxes, street addresses,
//! telephone numbers). Kept out of descriptions and keywords, which feed BM25 and are what
//! the tree view shows; the page's own text is left whole for its dense vector and for
//! answers.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use regex::Regex;

/// A line on at least this share of a document's pages (and on at least
/// [`MIN_REPEATS`] of them) is a running header or footer.
const REPEATED_SHARE: f32 = 0.25;
const MIN_REPEATS: usize = 3;

/// Lines repeated across a document's pages, compared with their numbers blanked out so
/// that "Page 4 of 120" and "Page 5 of 120" count as one.
#[derive(Debug, Clone, Default)]
pub struct RunningLines {
    repeated: HashSet<String>,
}

impl RunningLines {
    pub fn from_pages<'a>(pages: impl IntoIterator<Item = &'a str>) -> Self {
        let mut pages_with: HashMap<String, usize> = HashMap::new();
        let mut page_count = 0usize;
        for page in pages {
            page_count += 1;
            let unique: HashSet<String> = page.lines().filter_map(line_key).collect();
            for key in unique {
                *pages_with.entry(key).or_default() += 1;
            }
        }
        let needed = MIN_REPEATS.max((page_count as f32 * REPEATED_SHARE).ceil() as usize);
        let repeated = pages_with
            .into_iter()
            .filter(|&(_, count)| count >= needed)
            .map(|(key, _)| key)
            .collect();
        Self { repeated }
    }

    pub(crate) fn is_running(&self, line: &str) -> bool {
        line_key(line).is_some_and(|key| self.repeated.contains(&key))
    }
}

/// A line as running headers are compared: lower case, digits as `#`, spaces collapsed;
/// `None` for a line with no letters (a bare page number is never a sentence anyway).
fn line_key(line: &str) -> Option<String> {
    if !line.chars().any(char::is_alphabetic) {
        return None;
    }
    let blanked: String = line
        .chars()
        .map(|c| if c.is_ascii_digit() { '#' } else { c })
        .flat_map(char::to_lowercase)
        .collect();
    Some(blanked.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The questions a form asks: a line holding one is the form's, and so are the lines
/// that finish its sentence.
const FORM_QUESTIONS: &str = "check the appropriate box|indicate by check mark";

/// The labels of a form's fields: a line holding one is the form's.
const FORM_LABELS: &str = "telephone number, including area code|exact name of registrant|address of principal executive offices|commission file number|employer identification|title of each class|name of each exchange|trading symbol|securities registered pursuant to section";

/// A form line this long is a question whose sentence may run on (a shorter one is a
/// label or a table heading, whose next line is an answer).
const QUESTION_WORDS: usize = 8;

/// A form's question runs on over at most this many more lines.
const MAX_CONTINUATION: usize = 3;

/// Check boxes, ticked or not, as PDFs of forms draw them.
const CHECK_BOXES: [char; 8] = ['☐', '☑', '☒', '□', '■', '✓', '✔', '⌧'];

fn compile(pattern: &str) -> Regex {
    Regex::new(pattern).expect("a valid built-in pattern")
}

fn form_line_patterns() -> &'static [Regex; 5] {
    static PATTERNS: OnceLock<[Regex; 5]> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        [
            // A street address with its postal code: "330 West 34th Street, New York, New York 10001".
            compile(
                r"(?i)^\d+[a-z]?\s.*\b(street|st\.|avenue|ave\.|road|boulevard|blvd\.?|drive|parkway|place|plaza|lane|way|court|square|suite)\b.*\b\d{5}(-\d{4})?\b",
            ),
            // A telephone number: "(212) 720-3700", "+1 312 555 0100".
            compile(r"\(\d{3}\)\s?\d{3}[-\s]\d{4}|\+\d{1,3}[\s-]\d{2,4}[\s-]\d{3}[\s-]\d{3,4}"),
            // A form's own words around its fields.
            compile(&format!("(?i){FORM_QUESTIONS}|{FORM_LABELS}")),
            // An employer identification number: "13-3513936".
            compile(r"\b\d{2}-\d{7}\b"),
            // The heading of an SEC form, line by line.
            compile(
                r"(?i)^(united states|securities and exchange commission|washington,? d\.?c\.?( \d{5})?|pursuant to section 13 or 15\(d\) of the securities exchange act of 1934)$",
            ),
        ]
    })
}

/// Whether `line` belongs to the form rather than to what fills it: a check box, a
/// fill-in label such as "(Zip Code)" or a fragment of one, a street address, a
/// telephone number.
fn is_form_line(line: &str) -> bool {
    let trimmed = line.trim();
    if trimmed.chars().any(|c| CHECK_BOXES.contains(&c)) {
        return true;
    }
    let words = trimmed.split_whitespace().count();
    let opens = trimmed.matches('(').count();
    let closes = trimmed.matches(')').count();
    // "(State or other jurisdiction" / "of incorporation)": a label broken over lines.
    if words <= 6 && (trimmed.starts_with('(') || trimmed.ends_with(')')) && opens != closes {
        return true;
    }
    if is_labels_only(trimmed) {
        return true;
    }
    form_line_patterns().iter().any(|p| p.is_match(trimmed))
}

fn form_question() -> &'static Regex {
    static QUESTION: OnceLock<Regex> = OnceLock::new();
    QUESTION.get_or_init(|| compile(&format!("(?i){FORM_QUESTIONS}")))
}

/// "(Address of principal executive offices) (Zip Code)": nothing but parenthesised labels.
fn is_labels_only(line: &str) -> bool {
    static LABELS: OnceLock<Regex> = OnceLock::new();
    LABELS
        .get_or_init(|| compile(r"^(\([^()]{2,80}\)\s*)+$"))
        .is_match(line)
}

/// `text` without its running headers and footers and its form lines. When that would
/// leave nothing with letters (a page that is all form), the text stays as it was, so
/// that every page still says something.
pub fn strip(text: &str, running: &RunningLines) -> String {
    let mut kept: Vec<&str> = Vec::new();
    // Lines still to drop because they finish a form question's sentence.
    let mut continuation = 0;
    for line in text.lines() {
        let trimmed = line.trim_end();
        if continuation > 0 {
            continuation -= 1;
            if trimmed.ends_with(['.', ':']) {
                continuation = 0;
            }
            continue;
        }
        if running.is_running(line) {
            continue;
        }
        if is_form_line(line) {
            let question = trimmed.split_whitespace().count() >= QUESTION_WORDS;
            if question && form_question().is_match(line) && !trimmed.ends_with(['.', ':']) {
                continuation = MAX_CONTINUATION;
            }
            continue;
        }
        kept.push(line);
    }
    if kept
        .iter()
        .any(|line| line.chars().any(char::is_alphabetic))
    {
        kept.join("\n")
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cover page of a real 8-K (Foot Locker, May 2022), as PDFium reads it.
    const COVER: &str = "UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
WASHINGTON, D.C. 20549
FORM 8-K
CURRENT REPORT
Pursuant to Section 13 or 15(d) of the Securities Exchange Act of 1934
Date of report (Date of earliest event reported): May 20, 2022 (May 18, 2022)
Foot Locker, Inc.
(Exact name of registrant as specified in charter)
New York 1-10299 13-3513936
(State or other jurisdiction
of incorporation)
(Commission
File Number)
330 West 34th Street, New York, New York 10001
(Address of principal executive offices) (Zip Code)
Registrant's telephone number, including area code: (212) 720-3700
Check the appropriate box below if the Form 8-K filing is intended to simultaneously satisfy the filing obligation
☐ Written communications pursuant to Rule 425 under the Securities Act (17 CFR 230.425)
following provisions:
☐ Soliciting material pursuant to Rule 14a-12 under the Exchange Act (17 CFR 240.14a-12)
Securities registered pursuant to Section 12(b) of the Act:
Title of each class Trading Symbol(s)
Common Stock, par value $0.01 per share FL New York Stock Exchange
Indicate by check mark whether the registrant is an emerging growth company as defined in Rule 405 (§230.405 of this
chapter) or Rule 12b-2 of the Securities Exchange Act of 1934 (§240.12b-2 of this chapter).
Emerging growth company ☐
Item 5.07. Submission of Matters to a Vote of Security Holders.";

    #[test]
    fn a_cover_page_keeps_what_fills_the_form_and_loses_the_form() {
        let kept = strip(COVER, &RunningLines::default());
        for gone in [
            "Exact name of registrant",
            "jurisdiction",
            "of incorporation)",
            "File Number)",
            "330 West 34th Street",
            "Zip Code",
            "720-3700",
            "Check the appropriate box",
            "Written communications",
            "Emerging growth company",
            "following provisions",
            "Title of each class",
            "emerging growth company as defined",
            "chapter) or Rule 12b-2",
            "13-3513936",
            "SECURITIES AND EXCHANGE COMMISSION",
        ] {
            assert!(!kept.contains(gone), "{gone:?} stayed in:\n{kept}");
        }
        for stays in [
            "FORM 8-K",
            "Date of report (Date of earliest event reported): May 20, 2022 (May 18, 2022)",
            "Foot Locker, Inc.",
            "Common Stock, par value $0.01 per share FL New York Stock Exchange",
            "Item 5.07. Submission of Matters to a Vote of Security Holders.",
        ] {
            assert!(kept.contains(stays), "{stays:?} was dropped from:\n{kept}");
        }
    }

    #[test]
    fn running_headers_and_footers_are_lines_on_many_pages_whatever_their_numbers() {
        let topics = [
            "sales", "leases", "debt", "taxes", "pensions", "stores", "risks", "cash",
        ];
        let pages: Vec<String> = topics
            .iter()
            .zip(1..)
            .map(|(topic, n)| {
                format!("Table of Contents\nThis page is about {topic}.\nAcme Corp | 2023 Form 10-K | {n}")
            })
            .collect();
        let running = RunningLines::from_pages(pages.iter().map(String::as_str));
        let kept = strip(&pages[3], &running);
        assert_eq!(kept, "This page is about taxes.");
    }

    #[test]
    fn a_short_document_has_no_running_lines_and_a_page_of_form_only_stays_whole() {
        let pages = ["Summary\nOne.", "Summary\nTwo."];
        let running = RunningLines::from_pages(pages);
        assert_eq!(strip(pages[0], &running), pages[0]);
        let all_form = "☐ Yes ☐ No\n(Zip Code)";
        assert_eq!(strip(all_form, &RunningLines::default()), all_form);
    }

    #[test]
    fn ordinary_sentences_with_parentheses_or_numbers_stay() {
        for line in [
            "Net sales (in millions) were $8,958, up 4% (see Note 3).",
            "The Company leases 330 stores in 28 states.",
            "Revenue rose (partly offset by currency).",
        ] {
            assert!(!is_form_line(line), "{line:?} taken for form text");
        }
    }
}
