//! What a question says about the documents it is about — organisations as the
//! library's cards name them, fiscal periods, kinds of document, dates — and what a
//! search does with it: a filter when the organisation is unambiguous, a boost of the
//! documents whose period and kind match, and nothing when nothing is recognised.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::dates::MONTHS;
use super::{CardField, DocumentCard, DocumentKind};

/// The first step's boost of a document whose card matches every period and kind the
/// question names, added to its fused score. Fused root scores are at most 1 with the
/// default fusion, so among one organisation's filings the card decides and content
/// breaks ties. Together with the whole-year prior and the recency boost, it brings the
/// question's filing among the first few documents more often than a smaller boost
/// alone.
pub(crate) const FULL_MATCH_BOOST: f32 = 2.0;

/// With no period named, the organisation's most recent documents rank up by this
/// much: a question in the present tense ("What industry does it operate in?") is about
/// the latest filing. Half of a full match: content still decides between the latest
/// filing and one of the year before (which gets half of this). A smaller boost leaves
/// several years' reports whose text reads alike in the knee, and their older pages
/// fill the budget; a larger one finds no more.
pub(crate) const RECENT_BOOST: f32 = 1.0;

/// A document whose kind a question names in a common word ("the slides", "this
/// report", "the manual") ranks up by this share of a full match: such words are loose
/// ("report" is said of any document), so content still decides between documents.
pub(crate) const GENERIC_KIND_SHARE: f32 = 0.25;

/// What was recognised in a question, and how the search used it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct QuestionAnalysis {
    /// Organisations named, as the library's cards name them.
    pub organizations: Vec<String>,
    /// Fiscal or calendar years named, in the order they appear.
    pub years: Vec<i32>,
    pub quarters: Vec<u8>,
    pub kinds: Vec<DocumentKind>,
    /// Dates named (`YYYY-MM-DD`).
    pub dates: Vec<String>,
    /// The documents the search was restricted to, when an organisation was named
    /// unambiguously.
    pub filter: Option<Vec<i64>>,
    /// Documents ranked up at the first step, with their boosts, best first.
    pub boosts: Vec<(i64, f32)>,
    /// How the analysis was used, in words, for the trace.
    pub note: String,
}

impl QuestionAnalysis {
    pub fn recognised_anything(&self) -> bool {
        !(self.organizations.is_empty()
            && self.years.is_empty()
            && self.quarters.is_empty()
            && self.kinds.is_empty()
            && self.dates.is_empty())
    }
}

/// Analyses `question` against the cards of the documents a search may use.
pub fn analyse_question(question: &str, cards: &[(i64, DocumentCard)]) -> QuestionAnalysis {
    let words = split_words(question);
    let periods = Periods::read(&words);
    let kinds = kinds_named(&words);
    let dates = dates_named(&words);
    let named = organizations_named(&words, cards);

    let mut analysis = QuestionAnalysis {
        organizations: named.organizations.clone(),
        years: periods.years.clone(),
        quarters: periods.quarters.clone(),
        kinds: kinds.clone(),
        dates: dates.clone(),
        ..QuestionAnalysis::default()
    };
    let mut notes = Vec::new();
    let candidates: Vec<&(i64, DocumentCard)> = if named.documents.is_empty() {
        cards.iter().collect()
    } else if named.ambiguous {
        notes.push(format!(
            "\"{}\" names several organisations; their documents are ranked up, not filtered",
            named.organizations.join("\", \"")
        ));
        cards.iter().collect()
    } else {
        analysis.filter = Some(named.documents.iter().copied().collect());
        notes.push(format!(
            "searched the {} document(s) of {}",
            named.documents.len(),
            named.organizations.join(", ")
        ));
        cards
            .iter()
            .filter(|(id, _)| named.documents.contains(id))
            .collect()
    };

    // The year after every searched document's (a forecast: "for FY2023" asked of
    // filings up to FY2022) is answered by the newest filing, which looks ahead to it.
    // A year further out is not a forecast any filing makes.
    let newest = candidates
        .iter()
        .filter(|(_, card)| has_period(card))
        .filter_map(|(_, card)| card.fiscal_year)
        .max();
    let year = match (periods.latest(), newest) {
        (Some(latest), Some(newest)) if newest + 1 == latest => {
            notes.push(format!(
                "no document covers {latest} yet: the newest ({newest}) ranks first"
            ));
            Some(newest)
        }
        (latest, _) => latest,
    };
    let wanted = Wanted {
        periods: &periods,
        year,
        kinds: &kinds,
        dates: &dates,
    };
    let organisation_boost = |id: i64| {
        if named.ambiguous && named.documents.contains(&id) {
            0.5 * FULL_MATCH_BOOST
        } else {
            0.0
        }
    };
    let mut boosts: Vec<(i64, f32)> = candidates
        .iter()
        .map(|(id, card)| (*id, wanted.score(card) + organisation_boost(*id)))
        .filter(|(_, boost)| *boost > 0.0)
        .collect();
    boosts.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    if wanted.is_empty() {
        if analysis.filter.is_some() {
            boosts = recency_boosts(&candidates);
            if !boosts.is_empty() {
                notes.push("no period named: the most recent documents rank first".to_string());
            }
        }
    } else if boosts.is_empty() {
        notes.push(
            "no document's card matches the period or kind named; ranked by content alone"
                .to_string(),
        );
    } else {
        notes.push(format!(
            "ranked up {} document(s) whose period or kind matches",
            boosts.len()
        ));
    }
    let generic = generic_kinds_named(&words);
    if add_generic_kind_boosts(&mut boosts, &generic, &candidates) > 0 {
        let labels: Vec<&str> = generic.iter().map(|kind| kind.label()).collect();
        notes.push(format!("ranked up the {} in scope", labels.join(", ")));
    }
    analysis.boosts = boosts;
    analysis.note = if notes.is_empty() {
        "nothing in the question names a document".to_string()
    } else {
        notes.join("; ")
    };
    analysis
}

/// `RECENT_BOOST` for the documents of the latest fiscal year among `candidates`, half
/// of it for the year before.
fn recency_boosts(candidates: &[&(i64, DocumentCard)]) -> Vec<(i64, f32)> {
    let Some(latest) = candidates.iter().filter_map(|(_, c)| c.fiscal_year).max() else {
        return Vec::new();
    };
    let mut boosts: Vec<(i64, f32)> = candidates
        .iter()
        .filter_map(|(id, card)| match card.fiscal_year {
            Some(year) if year == latest => Some((*id, RECENT_BOOST)),
            Some(year) if year + 1 == latest => Some((*id, RECENT_BOOST / 2.0)),
            _ => None,
        })
        .collect();
    boosts.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    boosts
}

/// What the question asks of a document's card.
struct Wanted<'a> {
    periods: &'a Periods,
    /// The fiscal year a matching card has: the latest named, or the newest searched
    /// when none covers it yet.
    year: Option<i32>,
    kinds: &'a [DocumentKind],
    dates: &'a [String],
}

impl Wanted<'_> {
    fn is_empty(&self) -> bool {
        self.periods.years.is_empty() && self.kinds.is_empty() && self.dates.is_empty()
    }

    /// 0 (nothing matches) to `FULL_MATCH_BOOST` (everything named matches): a mean
    /// of the parts named, weighted so that a period or a date outweighs a kind.
    fn score(&self, card: &DocumentCard) -> f32 {
        const PERIOD: f32 = 2.0;
        const NAMED_KIND: f32 = 1.0;
        const LIKELY_KIND: f32 = 1.0;
        let mut parts: Vec<(f32, f32)> = Vec::new();
        if let Some(year) = self.year {
            let matches = if has_period(card) {
                year_match(card, year, &self.periods.years)
            } else {
                0.0
            };
            parts.push((PERIOD, matches));
        }
        if !self.periods.quarters.is_empty() {
            let matches = card
                .fiscal_quarter
                .is_some_and(|q| self.periods.quarters.contains(&q));
            parts.push((NAMED_KIND, f32::from(u8::from(matches))));
        }
        if !self.kinds.is_empty() {
            let matches = card.kind.is_some_and(|kind| self.kinds.contains(&kind));
            parts.push((NAMED_KIND, f32::from(u8::from(matches))));
        } else if self.periods.fiscal_year_named && self.periods.quarters.is_empty() {
            // A question about a fiscal year without a quarter is about a whole year;
            // annual reports and full-year releases cover one, quarterly reports do not.
            // A fourth-quarter release reports the whole year beside its quarter, so it
            // matches as fully as the annual report and content decides between them
            // (at a partial match, a release the question was about lost to the annual
            // report at the first step by the boost alone).
            let likely = match card.kind {
                Some(DocumentKind::AnnualReport) => 1.0,
                Some(DocumentKind::EarningsRelease) if card.fiscal_quarter == Some(4) => 1.0,
                _ => 0.0,
            };
            parts.push((LIKELY_KIND, likely));
        }
        if !self.dates.is_empty() {
            let dated = card
                .date
                .as_ref()
                .is_some_and(|d| self.dates.iter().any(|wanted| wanted == d));
            parts.push((PERIOD, f32::from(u8::from(dated))));
        }
        let weight: f32 = parts.iter().map(|(w, _)| w).sum();
        if weight == 0.0 {
            return 0.0;
        }
        FULL_MATCH_BOOST * parts.iter().map(|(w, v)| w * v).sum::<f32>() / weight
    }
}

/// Whether a card's fiscal year says what period the document covers: read with
/// confidence, or on a document of a known kind (a filing covers one period even where
/// its year is a guess from its dates). A year guessed for a document of no known kind
/// is only the first date it mentions: on xquad-dev's Russian articles the card of an
/// article on climate science that opens "since 8 October 2015" took 2015, and every
/// question naming 2015 ranked that article first by the boost alone.
fn has_period(card: &DocumentCard) -> bool {
    let kind_known = card.kind.is_some() && !card.unsure.contains(&CardField::Kind);
    kind_known || !card.unsure.contains(&CardField::FiscalYear)
}

/// How well a card's fiscal year fits a question naming `years`, whose latest is
/// `latest`: a question over several years is answered by the latest year's filing,
/// and a filing also reports the two years before its own as comparatives.
fn year_match(card: &DocumentCard, latest: i32, years: &[i32]) -> f32 {
    match card.fiscal_year {
        Some(year) if year == latest => 1.0,
        Some(year) if year == latest + 1 => 0.3,
        // A forecast for a year no filing covers yet is in the year before's.
        Some(year) if year + 1 == latest => 0.2,
        Some(year) if year == latest + 2 || years.contains(&year) => 0.15,
        _ => 0.0,
    }
}

/// A question's words: lowercased, split at spaces and punctuation other than the
/// marks periods are written with, possessives dropped.
fn split_words(question: &str) -> Vec<String> {
    question
        .split(|c: char| {
            c.is_whitespace() || matches!(c, ',' | '?' | '(' | ')' | ';' | ':' | '"' | '!')
        })
        .map(|word| {
            let word = word.trim_matches(|c: char| matches!(c, '.' | '\u{2019}' | '\'' | '-'));
            let word = word
                .strip_suffix("'s")
                .or_else(|| word.strip_suffix("\u{2019}s"))
                .unwrap_or(word);
            word.to_lowercase()
        })
        .filter(|word| !word.is_empty())
        .collect()
}

/// Years and quarters named in a question.
#[derive(Debug, Default, PartialEq)]
struct Periods {
    years: Vec<i32>,
    quarters: Vec<u8>,
    /// "FY2019", "fiscal 2019", "fiscal year": the question is about fiscal years.
    fiscal_year_named: bool,
}

impl Periods {
    fn read(words: &[String]) -> Self {
        let mut periods = Periods::default();
        for (index, word) in words.iter().enumerate() {
            let previous = index.checked_sub(1).map(|i| words[i].as_str());
            let compact = word.replace('\'', "");
            if let Some(rest) = compact.strip_prefix("fy") {
                periods.fiscal_year_named = true;
                if let Some(year) = year_of(rest) {
                    periods.add_year(year);
                } else if rest.is_empty() {
                    // "FY 2023": the year is the next word.
                    if let Some(year) = words.get(index + 1).and_then(|w| full_year(w)) {
                        periods.add_year(year);
                    }
                }
                continue;
            }
            if word == "fiscal" {
                periods.fiscal_year_named = true;
                continue;
            }
            if let Some((quarter, year)) = quarter_of(&compact) {
                periods.add_quarter(quarter);
                if let Some(year) = year {
                    periods.add_year(year);
                }
                continue;
            }
            if let Some(quarter) = ordinal_quarter(word, words.get(index + 1)) {
                periods.add_quarter(quarter);
                continue;
            }
            if let Some(year) = full_year(&compact) {
                if previous != Some("fy") {
                    periods.add_year(year);
                }
            }
        }
        periods
    }

    fn add_year(&mut self, year: i32) {
        if !self.years.contains(&year) {
            self.years.push(year);
        }
    }

    fn add_quarter(&mut self, quarter: u8) {
        if !self.quarters.contains(&quarter) {
            self.quarters.push(quarter);
        }
    }

    fn latest(&self) -> Option<i32> {
        self.years.iter().copied().max()
    }
}

/// A four-digit year 1990–2099, or two digits after "FY" (`19` → 2019).
fn year_of(text: &str) -> Option<i32> {
    let digits: String = text.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.len() != text.len() {
        return None;
    }
    match digits.len() {
        2 => digits.parse::<i32>().ok().map(|y| 2000 + y),
        4 => full_year(&digits),
        _ => None,
    }
}

fn full_year(text: &str) -> Option<i32> {
    if text.len() != 4 || !text.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    text.parse::<i32>()
        .ok()
        .filter(|y| (1990..=2099).contains(y))
}

/// `q2`, `q2'23`, `q2-2023`, `2023q2`, `h1`: the quarter and any year with it. A half
/// names its last quarter. Words in any script pass through (a Russian or Spanish
/// question is full of six-byte words that are not quarters).
fn quarter_of(word: &str) -> Option<(u8, Option<i32>)> {
    let word = word.replace('-', "");
    let (quarter, year) = if let Some(rest) = word.strip_prefix('q') {
        let digit = rest.chars().next()?.to_digit(10)? as u8;
        (digit, &rest[1..])
    } else if let Some(rest) = word.strip_prefix('h') {
        let half = rest.chars().next()?.to_digit(10)? as u8;
        (half * 2, &rest[1..])
    } else if word.len() == 6 && word.is_ascii() && &word[4..5] == "q" {
        let digit = word[5..].parse::<u8>().ok()?;
        (digit, &word[..4])
    } else {
        return None;
    };
    if !(1..=4).contains(&quarter) {
        return None;
    }
    if year.is_empty() {
        return Some((quarter, None));
    }
    Some((quarter, Some(year_of(year)?)))
}

/// "second quarter", "4th quarter".
fn ordinal_quarter(word: &str, next: Option<&String>) -> Option<u8> {
    if !next.is_some_and(|n| n.starts_with("quarter")) {
        return None;
    }
    match word {
        "first" | "1st" => Some(1),
        "second" | "2nd" => Some(2),
        "third" | "3rd" => Some(3),
        "fourth" | "4th" => Some(4),
        _ => None,
    }
}

/// Kinds of document named: "10-K", "annual report", "8-K filing", "earnings release".
fn kinds_named(words: &[String]) -> Vec<DocumentKind> {
    let mut kinds = Vec::new();
    let mut add = |kind: DocumentKind| {
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    };
    for (index, word) in words.iter().enumerate() {
        let next = words.get(index + 1).map(String::as_str);
        let compact = word.replace('-', "");
        match compact.as_str() {
            "10k" | "10ks" => add(DocumentKind::AnnualReport),
            "10q" | "10qs" => add(DocumentKind::QuarterlyReport),
            "8k" | "8ks" => add(DocumentKind::CurrentReport),
            "annual" if next.is_some_and(|n| n.starts_with("report")) => {
                add(DocumentKind::AnnualReport)
            }
            "quarterly" if next.is_some_and(|n| n.starts_with("report")) => {
                add(DocumentKind::QuarterlyReport)
            }
            "earnings" if next.is_some_and(|n| n.starts_with("release") || n == "report") => {
                add(DocumentKind::EarningsRelease)
            }
            "press" if next.is_some_and(|n| n.starts_with("release")) => {
                add(DocumentKind::EarningsRelease)
            }
            _ => {}
        }
    }
    kinds
}

/// Kinds a question names in a common word: "the slides", "this paper", "the user
/// guide", "el informe", "в презентации". "Annual report" and "earnings report" are
/// filings' names, read by [`kinds_named`].
fn generic_kinds_named(words: &[String]) -> Vec<DocumentKind> {
    let mut kinds = Vec::new();
    for (index, word) in words.iter().enumerate() {
        let previous = index.checked_sub(1).and_then(|i| words.get(i));
        let next = words.get(index + 1);
        let kind = match word.as_str() {
            "slide" | "slides" | "deck" | "presentation" | "diapositiva" | "diapositivas"
            | "presentación" => Some(DocumentKind::Slides),
            "paper" | "article" | "artículo" => Some(DocumentKind::Paper),
            "report" | "survey" | "informe" | "encuesta"
                if !previous.is_some_and(|p| {
                    matches!(p.as_str(), "annual" | "quarterly" | "earnings" | "current")
                }) =>
            {
                Some(DocumentKind::Report)
            }
            "manual" | "guide" | "guidebook" | "handbook" | "tutorial" | "guía" => {
                Some(DocumentKind::Manual)
            }
            "brochure" | "leaflet" | "folleto" => Some(DocumentKind::Brochure),
            "form" | "formulario"
                if !next.is_some_and(|n| n.chars().next().is_some_and(|c| c.is_ascii_digit())) =>
            {
                Some(DocumentKind::Form)
            }
            w if w.starts_with("слайд") || w.starts_with("презентаци") => {
                Some(DocumentKind::Slides)
            }
            w if w.starts_with("отчет") || w.starts_with("отчёт") || w.starts_with("доклад") => {
                Some(DocumentKind::Report)
            }
            w if w.starts_with("руководств") || w.starts_with("инструкци") => {
                Some(DocumentKind::Manual)
            }
            w if w.starts_with("стать") && w.len() <= "статьях".len() => {
                Some(DocumentKind::Paper)
            }
            _ => None,
        };
        if let Some(kind) = kind.filter(|kind| !kinds.contains(kind)) {
            kinds.push(kind);
        }
    }
    kinds
}

/// Adds `GENERIC_KIND_SHARE` of a full match to every candidate of a kind named; returns
/// how many were ranked up.
fn add_generic_kind_boosts(
    boosts: &mut Vec<(i64, f32)>,
    kinds: &[DocumentKind],
    candidates: &[&(i64, DocumentCard)],
) -> usize {
    let boost = GENERIC_KIND_SHARE * FULL_MATCH_BOOST;
    let mut ranked = 0;
    for (id, card) in candidates {
        if !card.kind.is_some_and(|kind| kinds.contains(&kind)) {
            continue;
        }
        ranked += 1;
        match boosts.iter_mut().find(|(doc, _)| doc == id) {
            Some((_, existing)) => *existing += boost,
            None => boosts.push((*id, boost)),
        }
    }
    if ranked > 0 {
        boosts.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    }
    ranked
}

/// Full dates: `2022-07-01`, "July 1 2022", "1st July 2022", "1 July, 2022".
fn dates_named(words: &[String]) -> Vec<String> {
    let mut dates = Vec::new();
    let month_of = |word: &str| {
        MONTHS
            .iter()
            .position(|m| *m == word || (word.len() >= 3 && m.starts_with(word) && word != "may"))
            .map(|i| i as u32 + 1)
    };
    let day_of = |word: &str| {
        let digits: String = word.chars().take_while(|c| c.is_ascii_digit()).collect();
        let suffix = &word[digits.len()..];
        if !matches!(suffix, "" | "st" | "nd" | "rd" | "th") {
            return None;
        }
        digits.parse::<u32>().ok().filter(|d| (1..=31).contains(d))
    };
    for (index, word) in words.iter().enumerate() {
        if word.len() == 10 && super::llm::is_iso_date(word) {
            dates.push(word.clone());
            continue;
        }
        let Some(month) = month_of(word) else {
            continue;
        };
        let before = index.checked_sub(1).and_then(|i| day_of(&words[i]));
        let after = words.get(index + 1).and_then(|w| day_of(w));
        let year_at = |offset: usize| words.get(index + offset).and_then(|w| full_year(w));
        let found = match (before, after) {
            (Some(day), _) => year_at(1).map(|year| (year, day)),
            (None, Some(day)) => year_at(2).map(|year| (year, day)),
            _ => None,
        };
        if let Some((year, day)) = found {
            let date = format!("{year:04}-{month:02}-{day:02}");
            if !dates.contains(&date) {
                dates.push(date);
            }
        }
    }
    dates
}

/// Organisations a question names, by the names and short forms on the cards.
#[derive(Debug, Default)]
struct Named {
    /// Each organisation named, as its card writes it.
    organizations: Vec<String>,
    documents: BTreeSet<i64>,
    /// A name that stands for more than one organisation.
    ambiguous: bool,
}

fn organizations_named(words: &[String], cards: &[(i64, DocumentCard)]) -> Named {
    // Organisation (normalised) → its documents and the name to show.
    let mut by_organization: BTreeMap<String, (String, BTreeSet<i64>)> = BTreeMap::new();
    // Name form (as words) → organisations it stands for.
    let mut forms: BTreeMap<Vec<String>, BTreeSet<String>> = BTreeMap::new();
    for (id, card) in cards {
        let Some(organization) = card.organization.as_deref() else {
            continue;
        };
        let key = normalise(organization);
        if key.is_empty() {
            continue;
        }
        let entry = by_organization
            .entry(key.clone())
            .or_insert_with(|| (organization.to_string(), BTreeSet::new()));
        entry.1.insert(*id);
        for name in std::iter::once(organization).chain(card.aliases.iter().map(String::as_str)) {
            let form = split_words(name);
            if form.is_empty() || is_too_generic(&form) {
                continue;
            }
            forms.entry(form).or_default().insert(key.clone());
        }
    }
    let joined: Vec<String> = words.iter().map(|w| w.replace(['.', '&'], "")).collect();
    let mut named_keys: BTreeSet<String> = BTreeSet::new();
    let mut ambiguous = false;
    for (form, organizations) in &forms {
        if contains_form(&joined, form) {
            if organizations.len() > 1 {
                ambiguous = true;
            }
            named_keys.extend(organizations.iter().cloned());
        }
    }
    let mut named = Named {
        ambiguous,
        ..Named::default()
    };
    for key in &named_keys {
        if let Some((name, documents)) = by_organization.get(key) {
            named.organizations.push(name.clone());
            named.documents.extend(documents.iter().copied());
        }
    }
    named
}

/// Whether `form` occurs in `words` as consecutive words, or written as one word
/// ("Foot Locker" in "Footlocker").
fn contains_form(words: &[String], form: &[String]) -> bool {
    let form: Vec<String> = form.iter().map(|w| w.replace(['.', '&'], "")).collect();
    if form.iter().any(String::is_empty) {
        return false;
    }
    if words
        .windows(form.len())
        .any(|window| window == form.as_slice())
    {
        return true;
    }
    let glued = form.concat();
    form.len() > 1 && words.contains(&glued)
}

/// One short common word ("the", "inc", "group") would name an organisation in any
/// question; such forms are not matched.
fn is_too_generic(form: &[String]) -> bool {
    const GENERIC: [&str; 16] = [
        "the",
        "inc",
        "company",
        "corp",
        "corporation",
        "group",
        "plc",
        "ltd",
        "llc",
        "co",
        "international",
        "holdings",
        "resorts",
        "communications",
        "incorporated",
        "sa",
    ];
    form.len() == 1 && (form[0].chars().count() < 2 || GENERIC.contains(&form[0].as_str()))
}

/// An organisation's name reduced to what identifies it: lowercase letters and digits,
/// without legal suffixes, so that "PFIZER INC." and "Pfizer Inc" are one organisation.
fn normalise(name: &str) -> String {
    const SUFFIXES: [&str; 9] = [
        "inc",
        "incorporated",
        "corporation",
        "corp",
        "company",
        "co",
        "plc",
        "ltd",
        "llc",
    ];
    split_words(name)
        .into_iter()
        .map(|w| w.replace(['.', ','], ""))
        .filter(|w| !w.is_empty() && w != "the" && !SUFFIXES.contains(&w.as_str()))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(organization: &str, aliases: &[&str], kind: DocumentKind, year: i32) -> DocumentCard {
        DocumentCard {
            organization: Some(organization.into()),
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
            kind: Some(kind),
            fiscal_year: Some(year),
            ..DocumentCard::default()
        }
    }

    fn library() -> Vec<(i64, DocumentCard)> {
        use DocumentKind::*;
        let mut q2 = card("Amcor plc", &["Amcor", "AMCR"], QuarterlyReport, 2023);
        q2.fiscal_quarter = Some(2);
        let mut eight_k = card("Amcor plc", &["Amcor"], CurrentReport, 2022);
        eight_k.date = Some("2022-07-01".into());
        vec![
            (1, card("3M Company", &["3M", "MMM"], AnnualReport, 2018)),
            (2, card("3M COMPANY", &["3M"], AnnualReport, 2019)),
            (3, card("3M Company", &["3M"], AnnualReport, 2022)),
            (4, card("Amcor plc", &["Amcor"], AnnualReport, 2023)),
            (5, q2),
            (6, eight_k),
            (
                7,
                card(
                    "MGM Resorts International",
                    &["MGM Resorts", "MGM"],
                    AnnualReport,
                    2022,
                ),
            ),
            (
                8,
                card("Foot Locker, Inc.", &["Foot Locker"], CurrentReport, 2022),
            ),
        ]
    }

    #[test]
    fn fiscal_periods_in_their_usual_spellings() {
        let read = |q: &str| Periods::read(&split_words(q));
        assert_eq!(read("What is the FY2018 capex?").years, vec![2018]);
        assert_eq!(read("between FY20 and FY'21").years, vec![2020, 2021]);
        assert_eq!(read("Adjusted EBITDA for FY 2023").years, vec![2023]);
        let quarter = read("restructuring liability as oF Q2 of FY2023 close");
        assert_eq!((quarter.years, quarter.quarters), (vec![2023], vec![2]));
        assert_eq!(read("In H1 FY2023").quarters, vec![2]);
        assert_eq!(read("results of Q2'23").years, vec![2023]);
        assert_eq!(read("in the second quarter of 2023").quarters, vec![2]);
        assert_eq!(read("as of 2022, did it").years, vec![2022]);
        assert!(read("fiscal 2019 revenue").fiscal_year_named);
        assert_eq!(
            read("We sold 1500 units, round to 2 decimals").years,
            Vec::<i32>::new()
        );
    }

    #[test]
    fn a_kind_named_in_a_common_word_ranks_its_documents_up_a_little() {
        let mut cards = library();
        let mut deck = DocumentCard {
            title: Some("Cloud strategy".to_string()),
            kind: Some(DocumentKind::Slides),
            ..DocumentCard::default()
        };
        cards.push((90, deck.clone()));
        deck.kind = Some(DocumentKind::Manual);
        cards.push((91, deck));
        let analysis = analyse_question("What does the third slide of the deck list?", &cards);
        assert_eq!(
            analysis.boosts,
            vec![(90, GENERIC_KIND_SHARE * FULL_MATCH_BOOST)]
        );
        assert!(analysis.filter.is_none());
        assert_eq!(
            generic_kinds_named(&split_words("Según el informe, ¿qué dice la guía?")),
            vec![DocumentKind::Report, DocumentKind::Manual]
        );
        assert_eq!(
            generic_kinds_named(&split_words("В отчёте и на слайде")),
            vec![DocumentKind::Report, DocumentKind::Slides]
        );
        // Filings' names are not generic kinds.
        assert!(generic_kinds_named(&split_words("the annual report and Form 10-K")).is_empty());
    }

    #[test]
    fn dates_and_kinds() {
        assert_eq!(
            dates_named(&split_words("the 8k filing dated 1st July 2022?")),
            vec!["2022-07-01"]
        );
        assert_eq!(
            dates_named(&split_words("on July 1, 2022")),
            vec!["2022-07-01"]
        );
        assert_eq!(
            dates_named(&split_words("filed 2022-04-26")),
            vec!["2022-04-26"]
        );
        assert!(dates_named(&split_words("in May we")).is_empty());
        assert_eq!(
            kinds_named(&split_words("in its 10-K and the earnings release")),
            vec![DocumentKind::AnnualReport, DocumentKind::EarningsRelease]
        );
        assert_eq!(
            kinds_named(&split_words("the 8k filing")),
            vec![DocumentKind::CurrentReport]
        );
    }

    #[test]
    fn a_guessed_year_of_a_document_of_no_known_kind_ranks_nothing_up() {
        let article = |year: i32| DocumentCard {
            fiscal_year: Some(year),
            date: Some(format!("{year}-10-08")),
            unsure: vec![CardField::Kind, CardField::FiscalYear, CardField::Date],
            ..DocumentCard::default()
        };
        let cards = vec![(1, article(2015)), (2, article(2026))];
        let question = "How many interceptions did the Panthers' defence make in 2015?";
        let analysis = analyse_question(question, &cards);
        assert_eq!(analysis.years, vec![2015]);
        assert!(analysis.boosts.is_empty(), "{analysis:?}");

        // The same guess on a filing of a known kind still counts: a filing covers a
        // period, and an 8-K's year is often read from its date alone.
        let mut filing = article(2015);
        filing.kind = Some(DocumentKind::CurrentReport);
        filing.unsure = vec![CardField::FiscalYear];
        let analysis = analyse_question(question, &[(1, filing), (2, article(2026))]);
        assert_eq!(analysis.boosts, vec![(1, FULL_MATCH_BOOST)]);
    }

    #[test]
    fn a_named_organisation_filters_and_its_year_ranks_first() {
        let analysis = analyse_question(
            "What is the FY2018 capital expenditure amount (in USD millions) for 3M?",
            &library(),
        );
        assert_eq!(analysis.organizations, vec!["3M Company"]);
        assert_eq!(analysis.filter, Some(vec![1, 2, 3]), "{analysis:?}");
        assert_eq!(analysis.boosts[0], (1, FULL_MATCH_BOOST));
        // The next year's filing reports 2018 as a comparative: ranked up, below.
        assert_eq!(analysis.boosts[1].0, 2);
        assert!(analysis.boosts[1].1 < FULL_MATCH_BOOST);
    }

    #[test]
    fn documents_tied_on_the_period_stay_and_comparative_years_rank_below() {
        let mut cards = library();
        let mut quarterly = card("3M Company", &["3M"], DocumentKind::QuarterlyReport, 2018);
        quarterly.fiscal_quarter = Some(2);
        cards.push((10, quarterly));
        let analysis = analyse_question("How did 3M's revenue change in 2018?", &cards);
        assert_eq!(analysis.filter, Some(vec![1, 2, 3, 10]), "{analysis:?}");
        let order: Vec<i64> = analysis.boosts.iter().map(|(id, _)| *id).collect();
        assert_eq!(order, vec![1, 10, 2], "{analysis:?}");
        assert_eq!(analysis.boosts[1].1, FULL_MATCH_BOOST);
        assert!(analysis.boosts[2].1 < FULL_MATCH_BOOST);
        // A forecast for a year no filing covers is in the year before's filing.
        let forecast = analyse_question("What does 3M forecast for FY2023?", &cards);
        assert_eq!(
            forecast.boosts.first().map(|b| b.0),
            Some(3),
            "{forecast:?}"
        );
        // As firmly as a filing of the year named would be: the other years' filings,
        // ranked up as annual reports, must not come close.
        assert_eq!(forecast.boosts[0].1, FULL_MATCH_BOOST, "{forecast:?}");
        assert!(
            forecast.boosts[1].1 < 0.5 * FULL_MATCH_BOOST,
            "{forecast:?}"
        );
        assert!(
            forecast.note.contains("no document covers 2023 yet"),
            "{}",
            forecast.note
        );
    }

    #[test]
    fn a_fiscal_year_finds_its_fourth_quarter_release_as_fully_as_its_annual_report() {
        let mut cards = library();
        let mut q4 = card(
            "MGM Resorts International",
            &["MGM"],
            DocumentKind::EarningsRelease,
            2022,
        );
        q4.fiscal_quarter = Some(4);
        let mut q2 = q4.clone();
        q2.fiscal_quarter = Some(2);
        cards.push((20, q4));
        cards.push((21, q2));
        let analysis = analyse_question("Which region had MGM's worst revenue in FY2022?", &cards);
        let boost = |id: i64| {
            analysis
                .boosts
                .iter()
                .find(|(document, _)| *document == id)
                .map_or(0.0, |(_, boost)| *boost)
        };
        assert_eq!(boost(7), FULL_MATCH_BOOST, "{analysis:?}");
        assert_eq!(
            boost(20),
            FULL_MATCH_BOOST,
            "the Q4 release reports the year"
        );
        assert!(
            boost(21) < FULL_MATCH_BOOST,
            "a Q2 release does not: {analysis:?}"
        );
    }

    #[test]
    fn without_a_period_the_latest_documents_rank_first() {
        let analysis = analyse_question("Is 3M's business cyclical?", &library());
        assert_eq!(analysis.filter, Some(vec![1, 2, 3]));
        assert_eq!(analysis.boosts, vec![(3, RECENT_BOOST)]);
        assert!(analysis.note.contains("most recent"), "{}", analysis.note);
    }

    #[test]
    fn short_forms_glued_names_and_quarters() {
        let cards = library();
        let mgm = analyse_question(
            "Which region had the highest EBITDAR for MGM during FY2022?",
            &cards,
        );
        assert_eq!(mgm.filter, Some(vec![7]));
        let foot = analyse_question("a CEO similar to Footlocker?", &cards);
        assert_eq!(foot.filter, Some(vec![8]));
        let quarter =
            analyse_question("AMCOR's restructuring liability as of Q2 of FY2023", &cards);
        assert_eq!(quarter.filter, Some(vec![4, 5, 6]));
        assert_eq!(quarter.boosts[0], (5, FULL_MATCH_BOOST));
        let dated = analyse_question(
            "What was the key agenda of the AMCOR's 8k filing dated 1st July 2022?",
            &cards,
        );
        assert_eq!(dated.boosts[0], (6, FULL_MATCH_BOOST));
    }

    #[test]
    fn nothing_recognised_means_no_filter_and_no_boost() {
        let analysis = analyse_question("What industry is this company in?", &library());
        assert!(!analysis.recognised_anything());
        assert_eq!(analysis.filter, None);
        assert!(analysis.boosts.is_empty());
        assert!(analysis.note.contains("nothing"), "{}", analysis.note);
        // Generic words of organisation names never match on their own.
        let generic = analyse_question("Which international resorts company grew?", &library());
        assert_eq!(generic.filter, None);
    }

    #[test]
    fn a_period_no_card_has_ranks_by_content_and_says_so() {
        let analysis = analyse_question("3M's capex in FY2030?", &library());
        assert_eq!(analysis.filter, Some(vec![1, 2, 3]));
        assert!(analysis.boosts.iter().all(|(_, b)| *b < FULL_MATCH_BOOST));
        let none = analyse_question("3M 8-K dated July 1, 2031", &library());
        assert!(none.boosts.is_empty(), "{none:?}");
        assert!(
            none.note.contains("no document's card matches"),
            "{}",
            none.note
        );
    }

    #[test]
    fn a_name_two_organisations_share_boosts_instead_of_filtering() {
        let mut cards = library();
        cards.push((
            9,
            card("3M Health Care", &["3M"], DocumentKind::AnnualReport, 2024),
        ));
        let analysis = analyse_question("3M's revenue", &cards);
        assert_eq!(analysis.filter, None);
        assert!(
            analysis.note.contains("several organisations"),
            "{}",
            analysis.note
        );
        let boosted: Vec<i64> = analysis.boosts.iter().map(|(id, _)| *id).collect();
        assert_eq!(boosted, vec![1, 2, 3, 9]);
    }

    #[test]
    fn documents_without_cards_are_never_filtered_in() {
        let analysis = analyse_question("3M revenue FY2018", &[]);
        assert_eq!(analysis.filter, None);
        assert!(analysis.boosts.is_empty());
        assert_eq!(analysis.years, vec![2018]);
    }

    #[test]
    fn questions_in_other_scripts_are_read_without_error() {
        // Six-byte words whose fifth byte is inside a character: "anotó", "люк".
        for question in [
            "¿Quién anotó el primer gol en 2015?",
            "Кто открыл люк в 1969 году?",
            "Что было во втором квартале?",
            "q€ h½ 2023ñq",
        ] {
            let analysis = analyse_question(question, &[]);
            assert!(analysis.organizations.is_empty(), "{question}");
        }
        assert_eq!(quarter_of("2023q2"), Some((2, Some(2023))));
    }

    proptest::proptest! {
        #[test]
        fn any_question_is_analysed_without_panicking(question in "\\PC{0,80}") {
            let _ = analyse_question(&question, &[]);
        }
    }
}
