//! Who issued a document: the name it gives itself, the short forms people type and
//! its ticker.

use std::collections::HashMap;
use std::sync::OnceLock;

use regex::Regex;

use super::dates::find_days;
use super::text::{flat, has_lowercase, loose_regex, squashed, window, window_before};

/// A name found in the document, and whether it was read from a statement that names
/// the issuer (a cover, a dateline) or guessed from how often it occurs.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundName {
    pub name: String,
    pub sure: bool,
}

/// Names longer than this are a sentence that happened to sit where a name goes.
const MAX_NAME_CHARS: usize = 80;
const MAX_NAME_WORDS: usize = 8;

/// The registrant's name on an SEC cover: the text just before "(Exact name of
/// registrant as specified in its charter)", after whatever cover item precedes it.
pub(crate) fn registrant_on_cover(cover: &str) -> Option<String> {
    static LABEL: OnceLock<Regex> = OnceLock::new();
    let label = LABEL.get_or_init(|| loose_regex("(exact name of"));
    let found = label.find(cover)?;
    // The name sits on the few lines above the label (one word a line on some covers).
    let before = window_before(cover, found.start(), 300);
    let lines: Vec<&str> = before.lines().collect();
    let recent = lines[lines.len().saturating_sub(12)..].join(" ");
    let after_anchor = text_after_last_cover_item(&recent);
    clean_name(&without_dates_and_brackets(after_anchor))
}

/// Covers without the "(Exact name of registrant …)" label put the name on the line
/// after the commission file number ("Commission file number 1-3285\n3M COMPANY").
pub(crate) fn registrant_after_file_number(cover: &str) -> Option<String> {
    static FILE_NUMBER: OnceLock<Regex> = OnceLock::new();
    let file_number = FILE_NUMBER.get_or_init(|| {
        Regex::new(r"(?i)^commission\s+file\s+(?:number|no\.?)\s*:?\s*[0-9][0-9-]*$")
            .expect("valid regex")
    });
    let mut lines = cover.lines().map(str::trim);
    lines.find(|line| file_number.is_match(line))?;
    let name = clean_name(lines.next()?)?;
    // Only a name set apart as names are: in capitals or with its legal form.
    let set_apart = !has_lowercase(&name)
        || name
            .split_whitespace()
            .last()
            .is_some_and(|last| is_legal_suffix(last.trim_end_matches(',')));
    set_apart.then_some(name)
}

/// What follows the last cover item before a name: the commission file number, the
/// transition-period line, the date of report, a rule of underscores or dashes.
fn text_after_last_cover_item(text: &str) -> &str {
    static ANCHORS: OnceLock<Regex> = OnceLock::new();
    let anchors = ANCHORS.get_or_init(|| {
        Regex::new(
            r"(?i)commission\s+file\s+(?:number|no\.?)\s*:?\s*[0-9][0-9-]*|transition\s+period\s+from\s*[_\s]*to\b[_\s]*|earliest\s+event\s+reported\s*\)\s*:?|_{2,}|-{2,}|act\s+of\s+1934|\(mark\s+one\)",
        )
        .expect("valid regex")
    });
    let end = anchors
        .find_iter(text)
        .last()
        .map(|found| found.end())
        .unwrap_or(0);
    &text[end..]
}

fn without_dates_and_brackets(text: &str) -> String {
    static BRACKETS: OnceLock<Regex> = OnceLock::new();
    let brackets = BRACKETS.get_or_init(|| Regex::new(r"\([^)]*\)").expect("valid regex"));
    let mut kept = text.to_string();
    for found in find_days(text).iter().rev() {
        kept.replace_range(found.start..found.end, " ");
    }
    brackets.replace_all(&kept, " ").into_owned()
}

/// A candidate trimmed of punctuation and checked to look like a name.
fn clean_name(text: &str) -> Option<String> {
    let name = flat(&join_small_caps(&flat(text)));
    let name = name
        .trim_matches(|c: char| !c.is_alphanumeric() && c != '.' && c != ')')
        .trim_start_matches('.')
        .trim()
        .to_string();
    let words = name.split_whitespace().count();
    let letters = name.chars().filter(|c| c.is_alphabetic()).count();
    let boilerplate = ["pursuant", "report", "commission", "indicate", "registrant"]
        .iter()
        .any(|word| name.to_lowercase().contains(word));
    let plausible = letters >= 2
        && name.chars().count() <= MAX_NAME_CHARS
        && (1..=MAX_NAME_WORDS).contains(&words)
        && !boilerplate;
    plausible.then_some(name)
}

/// Small capitals come out of pdfium as a capital and the rest of the word apart
/// ("MGM R ESORTS I NTERNATIONAL"); a lone capital before a capitalised word joins it.
fn join_small_caps(text: &str) -> String {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| Regex::new(r"\b([A-Z]) ([A-Z]{2,})\b").expect("valid regex"));
    re.replace_all(text, "$1$2").into_owned()
}

/// The issuer a press release names with its listing: "Pfizer Inc. (NYSE: PFE)".
pub(crate) fn name_before_listing(text: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"((?:[A-Z0-9][\w&'’.-]*,?\s+){0,5}[A-Z0-9][\w&'’.-]*)\s*\(\s*(?:NYSE|NASDAQ|Nasdaq|ASX|LSE|TSX|NYSE American)\s*:",
        )
        .expect("valid regex")
    });
    let flat_text = flat(text);
    let caps = re.captures(&flat_text)?;
    clean_name(caps.get(1)?.as_str())
}

/// The subject of a release's headline: "Amcor reports fiscal 2023 results",
/// "MGM RESORTS INTERNATIONAL REPORTS FOURTH QUARTER …".
pub(crate) fn headline_subject(first_page: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)^(.{2,80}?)\s+(?:reports|reported|announces|posts|delivers)\b")
            .expect("valid regex")
    });
    first_page
        .lines()
        .take(12)
        .filter_map(|line| re.captures(line.trim()))
        .find_map(|caps| clean_name(caps.get(1)?.as_str()))
}

/// The company a filing agent's PDF title names: "Form 10-Q for Foot Locker INC filed
/// 12/07/2022", "10-K - 02/07/2019 - 3M Company", "NETFLIX INC (Form: 10-K, …)".
pub(crate) fn name_in_metadata_title(title: &str) -> Option<String> {
    static PATTERNS: OnceLock<Vec<Regex>> = OnceLock::new();
    let patterns = PATTERNS.get_or_init(|| {
        [
            r"(?i)^\s*form\s+\S+\s+for\s+(.+?)\s+filed\b",
            r"(?i)^\s*(?:10-?k|10-?q|8-?k)\S*\s+-\s+[\d/.-]+\s+-\s+(.+?)\s*$",
            r"(?i)^\s*(.+?)\s*\(\s*form\s*:",
        ]
        .iter()
        .map(|pattern| Regex::new(pattern).expect("valid regex"))
        .collect()
    });
    patterns
        .iter()
        .find_map(|re| clean_name(re.captures(title)?.get(1)?.as_str()))
}

const LEGAL_SUFFIXES: [&str; 18] = [
    "Inc.",
    "Inc",
    "Incorporated",
    "Corporation",
    "Corp.",
    "Corp",
    "Company",
    "Co.",
    "plc",
    "Limited",
    "Ltd.",
    "Ltd",
    "LLC",
    "L.P.",
    "N.V.",
    "S.A.",
    "AG",
    "SE",
];

/// The most frequent "Name, Inc." / "Name Corporation" / "Name plc" in the text: a
/// last resort for covers whose name is a logo.
pub(crate) fn most_frequent_legal_name(text: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        let suffixes: Vec<String> = LEGAL_SUFFIXES.iter().map(|s| regex::escape(s)).collect();
        Regex::new(&format!(
            r"\b((?:[A-Z0-9][\w&'’-]*\s+){{0,3}}[A-Z0-9][\w&'’-]*),?\s+({})(?:\W|$)",
            suffixes.join("|")
        ))
        .expect("valid regex")
    });
    let flat_text = flat(text);
    let mut counts: HashMap<String, (usize, usize, String)> = HashMap::new();
    for (order, caps) in re.captures_iter(&flat_text).enumerate() {
        let (Some(whole), Some(stem)) = (caps.get(0), caps.get(1)) else {
            continue;
        };
        if is_common_word(stem.as_str()) {
            continue;
        }
        let name = whole
            .as_str()
            .trim_end_matches(|c: char| !c.is_alphanumeric() && c != '.')
            .to_string();
        let entry = counts.entry(squashed(&name)).or_insert((0, order, name));
        entry.0 += 1;
    }
    counts
        .into_values()
        .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))
        .and_then(|(_, _, name)| clean_name(&name))
}

/// Words that stand before "Company" or "Inc." without being a name ("The Company").
fn is_common_word(stem: &str) -> bool {
    const COMMON: [&str; 12] = [
        "the",
        "this",
        "our",
        "such",
        "each",
        "any",
        "a",
        "an",
        "parent",
        "holding",
        "operating",
        "registrant",
    ];
    COMMON.contains(&stem.trim().to_lowercase().as_str())
}

/// The way the document itself writes an all-capitals name ("MGM RESORTS
/// INTERNATIONAL" is "MGM Resorts International" in its text); failing that, the name
/// in title case with legal suffixes and acronyms kept as they are usually written.
pub(crate) fn usual_casing(name: &str, texts: &[&str]) -> String {
    if has_lowercase(name) && !ends_in_capitals_suffix(name) {
        return name.to_string();
    }
    written_in_text(name, texts).unwrap_or_else(|| title_case(name))
}

/// "Foot Locker INC": mixed case but for a shouted suffix, as filing agents write it.
fn ends_in_capitals_suffix(name: &str) -> bool {
    name.split_whitespace().last().is_some_and(|last| {
        last.len() > 1
            && !has_lowercase(last)
            && LEGAL_SUFFIXES
                .iter()
                .any(|suffix| suffix.eq_ignore_ascii_case(last) && has_lowercase(suffix))
    })
}

fn written_in_text(name: &str, texts: &[&str]) -> Option<String> {
    let words: Vec<String> = name
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|word| !word.is_empty())
        .map(|word| regex::escape(word.trim_end_matches('.')))
        .collect();
    if words.is_empty() {
        return None;
    }
    // A final full stop belongs to the name only after an abbreviation ("Inc."): after
    // "Incorporated" it ends a sentence.
    let stop = if ends_in_abbreviation(name) {
        r"\.?"
    } else {
        ""
    };
    let pattern = format!(r"(?i)\b{}\b{stop}", words.join(r"[\s,]*"));
    let re = Regex::new(&pattern).ok()?;
    texts.iter().find_map(|text| {
        let flat_text = flat(text);
        re.find_iter(&flat_text)
            .map(|found| found.as_str().to_string())
            .find(|found| has_lowercase(found))
    })
}

fn ends_in_abbreviation(name: &str) -> bool {
    let last = name.split_whitespace().last().unwrap_or("");
    let dotted = format!("{}.", last.trim_end_matches('.'));
    name.ends_with('.')
        || LEGAL_SUFFIXES
            .iter()
            .any(|suffix| suffix.eq_ignore_ascii_case(&dotted))
}

fn title_case(name: &str) -> String {
    const SMALL_WORDS: [&str; 6] = ["THE", "OF", "AND", "FOR", "ON", "IN"];
    name.split_whitespace()
        .map(|word| {
            let bare = word.trim_end_matches(['.', ',']);
            if let Some(suffix) = LEGAL_SUFFIXES
                .iter()
                .find(|suffix| suffix.trim_end_matches('.').eq_ignore_ascii_case(bare))
            {
                let punctuation = &word[bare.len()..];
                return format!("{}{punctuation}", suffix.trim_end_matches('.'));
            }
            let acronym = bare.chars().any(|c| c.is_ascii_digit())
                || (bare.chars().count() <= 3 && !SMALL_WORDS.contains(&bare));
            if acronym {
                return word.to_string();
            }
            capitalised(word)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first
            .to_uppercase()
            .chain(chars.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
    }
}

/// Words that describe a business rather than name it: "Verizon Communications" is
/// "Verizon", "MGM Resorts" is also "MGM".
const DESCRIPTORS: [&str; 30] = [
    "Communications",
    "Resorts",
    "Technologies",
    "Technology",
    "Systems",
    "Pharmaceuticals",
    "Industries",
    "Enterprises",
    "Brands",
    "Holdings",
    "Group",
    "Financial",
    "Bancorp",
    "Networks",
    "Entertainment",
    "Airlines",
    "Motors",
    "Foods",
    "Energy",
    "Petroleum",
    "Solutions",
    "Services",
    "Partners",
    "Capital",
    "Worldwide",
    "Global",
    "Media",
    "Laboratories",
    "International",
    "Stores",
];

/// Short forms of an organisation's name, longest first: "The Boeing Company" →
/// "Boeing"; "MGM Resorts International" → "MGM Resorts", "MGM".
pub(crate) fn short_forms(organization: &str) -> Vec<String> {
    let mut words: Vec<String> = organization
        .split_whitespace()
        .map(|word| word.trim_end_matches(',').to_string())
        .collect();
    if words.len() > 1 && words[0].eq_ignore_ascii_case("the") {
        words.remove(0);
    }
    while words.len() > 1 && is_legal_suffix(words.last().map(String::as_str).unwrap_or("")) {
        words.pop();
    }
    let mut forms = vec![words.join(" ")];
    while words.len() > 1 && is_descriptor(words.last().map(String::as_str).unwrap_or("")) {
        words.pop();
        forms.push(words.join(" "));
    }
    forms.retain(|form| !form.is_empty() && squashed(form) != squashed(organization));
    forms.dedup();
    forms
}

fn is_legal_suffix(word: &str) -> bool {
    let bare = word.trim_end_matches('.');
    LEGAL_SUFFIXES
        .iter()
        .any(|suffix| suffix.trim_end_matches('.').eq_ignore_ascii_case(bare))
}

fn is_descriptor(word: &str) -> bool {
    DESCRIPTORS.iter().any(|d| d.eq_ignore_ascii_case(word))
}

/// The issuer's ticker: from a listing in the text ("NYSE: MMM") or from the cover's
/// table of registered securities, the symbol of its first row (the common stock).
pub(crate) fn ticker(text: &str) -> Option<String> {
    let flat_text = flat(text);
    listed_symbol(&flat_text).or_else(|| symbol_in_registration_table(&flat_text))
}

fn listed_symbol(text: &str) -> Option<String> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"\b(?:NYSE|NASDAQ|Nasdaq|ASX|LSE|TSX)\s*:\s*([A-Z][A-Z.]{0,5})\b")
            .expect("valid regex")
    });
    Some(
        re.captures(text)?
            .get(1)?
            .as_str()
            .trim_end_matches('.')
            .to_string(),
    )
}

fn symbol_in_registration_table(text: &str) -> Option<String> {
    static HEADER: OnceLock<Regex> = OnceLock::new();
    static ROW: OnceLock<Regex> = OnceLock::new();
    let header = HEADER.get_or_init(|| loose_regex("trading symbol"));
    // Without the "Trading Symbol" column, capitals before an exchange are the class
    // of stock shouted ("COMMON STOCK NEW YORK STOCK EXCHANGE"), not a symbol.
    let header_start = header.find(text)?.start();
    // The rows follow the "Section 12(b)" line, or the column headers where a cover
    // has no such line; some covers put the headers under the rows.
    let table_start = loose_regex("pursuant to section 12(b)")
        .find(text)
        .map(|found| found.end())
        .unwrap_or(header_start);
    let row = ROW.get_or_init(|| {
        Regex::new(
            r"\b([A-Z]{1,5})\s+(?:The\s+)?(?:New York Stock Exchange|NYSE|Nasdaq|NASDAQ|Chicago Stock Exchange)",
        )
        .expect("valid regex")
    });
    let rows = window(text, table_start, 700);
    Some(row.captures(rows)?.get(1)?.as_str().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registrant_is_read_from_the_line_before_its_label() {
        let cover = "For the transition period from __________ to __________\n\
                     Commission File Number 001-38932\nAMCOR PLC\n\
                     (Exact name of Registrant as specified in its charter)\nJersey 98-1455367";
        assert_eq!(registrant_on_cover(cover).as_deref(), Some("AMCOR PLC"));
    }

    #[test]
    fn registrant_survives_one_line_covers_and_small_caps() {
        let one_line = "For the transition period from ___ to ___ Commission file number: 1-3247 \
                        CORNING INCORPORATED\n(Exact name of registrant as specified in its charter)";
        assert_eq!(
            registrant_on_cover(one_line).as_deref(),
            Some("CORNING INCORPORATED")
        );
        let small_caps = "Commission\nFile\nNo.\n001-10362\nMGM\nR\nESORTS I\nNTERNATIONAL\n\
                          (Exact name of Registrant as specified in its charter)";
        assert_eq!(
            registrant_on_cover(small_caps).as_deref(),
            Some("MGM RESORTS INTERNATIONAL")
        );
    }

    #[test]
    fn registrant_after_a_date_of_report_drops_the_dates() {
        let cover =
            "Date of Report (Date of earliest event reported): July 1, 2022 (June 30, 2022)\n\
                     AMCOR PLC\n(Exact name of registrant as specified in its charter)";
        assert_eq!(registrant_on_cover(cover).as_deref(), Some("AMCOR PLC"));
    }

    #[test]
    fn a_cover_without_the_label_names_the_registrant_after_the_file_number() {
        let cover = "For the fiscal year ended December 31, 2018\nCommission file number 1-3285\n\
                     3M COMPANY\nState of Incorporation: Delaware";
        assert_eq!(
            registrant_after_file_number(cover).as_deref(),
            Some("3M COMPANY")
        );
        let label_next = "Commission File No. 1-10299\n(Exact name of registrant as specified)";
        assert_eq!(registrant_after_file_number(label_next), None);
        let prose = "Commission file number 1-3285\nState of Incorporation: Delaware";
        assert_eq!(registrant_after_file_number(prose), None);
    }

    #[test]
    fn a_logo_cover_has_no_registrant_line() {
        let cover = "For the transition period from to\nCommission File No. 1-10299\n\
                     (Exact name of registrant as specified in its charter)\nNew York 13-3513936";
        assert_eq!(registrant_on_cover(cover), None);
    }

    #[test]
    fn short_forms_drop_articles_suffixes_and_descriptors() {
        assert_eq!(short_forms("The Boeing Company"), vec!["Boeing"]);
        assert_eq!(short_forms("3M Company"), vec!["3M"]);
        assert_eq!(short_forms("Foot Locker, Inc."), vec!["Foot Locker"]);
        assert_eq!(short_forms("Amcor plc"), vec!["Amcor"]);
        assert_eq!(short_forms("Corning Incorporated"), vec!["Corning"]);
        assert_eq!(
            short_forms("MGM Resorts International"),
            vec!["MGM Resorts", "MGM"]
        );
        assert_eq!(
            short_forms("Verizon Communications Inc."),
            vec!["Verizon Communications", "Verizon"]
        );
        assert!(short_forms("Pfizer").is_empty());
        assert!(short_forms("").is_empty());
    }

    #[test]
    fn capitals_take_the_casing_the_document_uses() {
        let texts = ["MGM Resorts International (NYSE: MGM) today reported"];
        assert_eq!(
            usual_casing("MGM RESORTS INTERNATIONAL", &texts),
            "MGM Resorts International"
        );
        assert_eq!(
            usual_casing("THE BOEING COMPANY", &[]),
            "The Boeing Company"
        );
        assert_eq!(usual_casing("3M COMPANY", &[]), "3M Company");
        assert_eq!(usual_casing("PFIZER INC.", &[]), "Pfizer Inc.");
        assert_eq!(usual_casing("AMCOR PLC", &[]), "Amcor plc");
        let sentence = ["as does Corning Incorporated."];
        assert_eq!(
            usual_casing("CORNING INCORPORATED", &sentence),
            "Corning Incorporated"
        );
        let body = ["owned by Foot Locker, Inc. or its subsidiaries"];
        assert_eq!(usual_casing("Foot Locker INC", &body), "Foot Locker, Inc.");
    }

    #[test]
    fn tickers_come_from_listings_and_the_registration_table() {
        assert_eq!(
            ticker("MGM Resorts International (NYSE: MGM) today").as_deref(),
            Some("MGM")
        );
        let cover = "Securities registered pursuant to Section 12(b) of the Act:\n\
                     Title of each class Trading Symbol(s) Name of each exchange on which registered\n\
                     Common Stock, Par Value $.01 Per Share MMM New York Stock Exchange\n\
                     0.950% Notes due 2023 MMM23 New York Stock Exchange";
        assert_eq!(ticker(cover).as_deref(), Some("MMM"));
        let boeing = "Securities registered pursuant to Section 12(b) of the Act:\n\
                      Common Stock, $5.00 Par Value BA New York Stock Exchange\n\
                      (Title of each class) (Trading Symbol) (Name of each exchange)";
        assert_eq!(ticker(boeing).as_deref(), Some("BA"));
        let no_section_line = "Title of each class Trading\nSymbol(s)\nName of each exchange\n\
                               Common Stock, par value $0.01 FL New York Stock Exchange";
        assert_eq!(ticker(no_section_line).as_deref(), Some("FL"));
        let shouted = "Securities registered pursuant to Section 12(b) of the Act:\n\
                       COMMON STOCK NEW YORK STOCK EXCHANGE";
        assert_eq!(ticker(shouted), None);
    }

    #[test]
    fn metadata_titles_of_filing_agents_name_the_company() {
        assert_eq!(
            name_in_metadata_title("Form 10-Q for Foot Locker INC filed 12/07/2022").as_deref(),
            Some("Foot Locker INC")
        );
        assert_eq!(
            name_in_metadata_title("10-K - 02/07/2019 - 3M Company").as_deref(),
            Some("3M Company")
        );
        assert_eq!(
            name_in_metadata_title("NETFLIX INC (Form: 10-K, Received: 01/27/2022 17:04:52)")
                .as_deref(),
            Some("NETFLIX INC")
        );
        assert_eq!(name_in_metadata_title("0000012927-16-000099"), None);
    }

    #[test]
    fn releases_name_their_issuer() {
        let text = "NEW YORK, Tuesday, August 1, 2023 – Pfizer Inc. (NYSE: PFE) reported";
        assert_eq!(name_before_listing(text).as_deref(), Some("Pfizer Inc."));
        let headline =
            "Page 1 of 15\nExhibit 99.1\nMGM RESORTS INTERNATIONAL REPORTS FOURTH QUARTER";
        assert_eq!(
            headline_subject(headline).as_deref(),
            Some("MGM RESORTS INTERNATIONAL")
        );
        assert_eq!(
            headline_subject("Amcor reports fiscal 2023 results").as_deref(),
            Some("Amcor")
        );
    }

    #[test]
    fn the_most_frequent_legal_name_is_a_fallback() {
        let text = "Foot Locker, Inc., incorporated in 1989. The Company is owned by \
                    Foot Locker, Inc. and Nike, Inc. sells to Foot Locker, Inc.";
        assert_eq!(
            most_frequent_legal_name(text).as_deref(),
            Some("Foot Locker, Inc.")
        );
        assert_eq!(most_frequent_legal_name("The Company is great."), None);
    }
}
