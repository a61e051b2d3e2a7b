//! What kind of document a front matter belongs to: an SEC form by its cover, an
//! earnings release by its headline, a slide deck by its pages' shape, and a paper, a
//! contract, a report, a manual, a brochure or a form by its title or telling words.

use std::sync::OnceLock;

use regex::Regex;

use super::text::{loose_regex, window};
use super::{DocumentKind, FrontMatter};

/// How far into the cover the form's name is looked for: past it, a cover only
/// mentions other forms ("Part III of this Form 10-K", "Form 8-K filing is intended").
const COVER_HEAD: usize = 1_500;

/// The SEC form a cover page announces, if it is one.
pub(crate) fn sec_form(cover: &str) -> Option<DocumentKind> {
    let head = window(cover, 0, COVER_HEAD);
    if !looks_like_sec_cover(head) {
        return None;
    }
    form_named_first(head).or_else(|| form_by_report_heading(head))
}

fn looks_like_sec_cover(head: &str) -> bool {
    static CUES: OnceLock<Vec<Regex>> = OnceLock::new();
    let cues = CUES.get_or_init(|| {
        [
            "securities and exchange commission",
            "pursuant to section 13 or 15(d)",
            "exact name of registrant",
        ]
        .iter()
        .map(|phrase| loose_regex(phrase))
        .collect()
    });
    cues.iter().any(|cue| cue.is_match(head))
}

/// The first "Form 10-K" / "FORM 10-Q" / "Form 8-K" in the head: the cover's title comes
/// before its check boxes mention any other form.
fn form_named_first(head: &str) -> Option<DocumentKind> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)\bform\s*(10\s*-?\s*k|10\s*-?\s*q|8\s*-?\s*k)(?:\s*/\s*a)?\b")
            .expect("valid regex")
    });
    let form = re.captures(head)?.get(1)?.as_str().to_lowercase();
    kind_of_form(&form)
}

fn kind_of_form(form: &str) -> Option<DocumentKind> {
    let compact: String = form.chars().filter(|c| c.is_alphanumeric()).collect();
    match compact.as_str() {
        "10k" => Some(DocumentKind::AnnualReport),
        "10q" => Some(DocumentKind::QuarterlyReport),
        "8k" => Some(DocumentKind::CurrentReport),
        _ => None,
    }
}

/// Covers whose form name is an image still say which report they are.
fn form_by_report_heading(head: &str) -> Option<DocumentKind> {
    static HEADINGS: OnceLock<Vec<(Regex, DocumentKind)>> = OnceLock::new();
    let headings = HEADINGS.get_or_init(|| {
        [
            ("quarterly report pursuant", DocumentKind::QuarterlyReport),
            ("current report pursuant", DocumentKind::CurrentReport),
            ("annual report pursuant", DocumentKind::AnnualReport),
        ]
        .into_iter()
        .map(|(phrase, kind)| (loose_regex(phrase), kind))
        .collect()
    });
    headings
        .iter()
        .filter_map(|(re, kind)| re.find(head).map(|found| (found.start(), *kind)))
        .min_by_key(|(start, _)| *start)
        .map(|(_, kind)| kind)
}

/// Whether the first page reads like a press release of results: "Pfizer Reports
/// Second-Quarter 2023 Results", "… reported financial results for the quarter".
pub(crate) fn is_earnings_release(first_page: &str) -> bool {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"(?i)\breports?\b.{0,60}?\b(?:quarter|full[\s-]*year|fiscal|annual|half[\s-]*year|(?:19|20)\d\d)\b.{0,40}?\b(?:results|earnings)\b|\breported\s+(?:financial\s+)?results\s+for\s+the\b|\bearnings\s+release\b",
        )
        .expect("valid regex")
    });
    re.is_match(window(first_page, 0, COVER_HEAD))
}

/// The kind a form name in PDF metadata gives ("Form 10-Q filed on …", "10-K"), for
/// documents whose cover has no text layer.
pub(crate) fn form_in_metadata(value: &str) -> Option<DocumentKind> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)(?:^|[^\w-])(10-?k|10-?q|8-?k)(?:[^\w-]|$)").expect("valid regex")
    });
    let form = re.captures(value)?.get(1)?.as_str().to_lowercase();
    kind_of_form(&form)
}

/// The kind of a document that is not a filing, from what it looks like and says about
/// itself, first match wins: a slide deck by its landscape pages of few words, a paper or
/// a contract by the words they cannot do without, then the kind its title names
/// (`heading`: the metadata title and the cover's first line), then the cues of its
/// first pages.
pub(crate) fn generic_kind(front: &FrontMatter, heading: &str, text: &str) -> Option<DocumentKind> {
    if looks_like_slides(front) {
        return Some(DocumentKind::Slides);
    }
    paper_or_contract(text)
        .or_else(|| kind_in_title(heading))
        .or_else(|| kind_by_cues(text))
}

/// Most pages landscape and the first pages short: a deck, not a landscape report.
fn looks_like_slides(front: &FrontMatter) -> bool {
    const MIN_PAGES: usize = 4;
    const MAX_MEAN_WORDS: usize = 120;
    if front.page_count < MIN_PAGES || front.landscape_pages * 10 < front.page_count * 6 {
        return false;
    }
    let pages = front.first_pages.len().max(1);
    let words: usize = front
        .first_pages
        .iter()
        .map(|page| page.split_whitespace().count())
        .sum();
    words / pages <= MAX_MEAN_WORDS
}

/// The kind a title names in so many words ("User Guide", "Annual Survey Report",
/// "Informe anual", "Руководство пользователя"), in English, Spanish and Russian.
fn kind_in_title(heading: &str) -> Option<DocumentKind> {
    const NAMES: [(&str, DocumentKind); 27] = [
        ("presentation", DocumentKind::Slides),
        ("slides", DocumentKind::Slides),
        ("webinar", DocumentKind::Slides),
        ("presentación", DocumentKind::Slides),
        ("презентация", DocumentKind::Slides),
        ("manual", DocumentKind::Manual),
        ("guide", DocumentKind::Manual),
        ("guidebook", DocumentKind::Manual),
        ("handbook", DocumentKind::Manual),
        ("tutorial", DocumentKind::Manual),
        ("instructions", DocumentKind::Manual),
        ("guía", DocumentKind::Manual),
        ("руководство", DocumentKind::Manual),
        ("инструкция", DocumentKind::Manual),
        ("brochure", DocumentKind::Brochure),
        ("leaflet", DocumentKind::Brochure),
        ("prospectus", DocumentKind::Brochure),
        ("folleto", DocumentKind::Brochure),
        ("буклет", DocumentKind::Brochure),
        ("form", DocumentKind::Form),
        ("formulario", DocumentKind::Form),
        ("анкета", DocumentKind::Form),
        ("report", DocumentKind::Report),
        ("survey", DocumentKind::Report),
        ("informe", DocumentKind::Report),
        ("отчет", DocumentKind::Report),
        ("доклад", DocumentKind::Report),
    ];
    let lower = heading.to_lowercase().replace('ё', "е");
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .collect();
    NAMES
        .iter()
        .find(|(name, _)| words.contains(name))
        .map(|(_, kind)| *kind)
}

/// Reports, manuals and forms by phrases of their first pages; two different cues are
/// needed, as for papers.
fn kind_by_cues(text: &str) -> Option<DocumentKind> {
    const CUES: [(DocumentKind, &[&str]); 3] = [
        (
            DocumentKind::Form,
            &[
                "please print",
                "signature",
                "date of birth",
                "check one",
                "for official use",
                "firma",
                "fecha de nacimiento",
                "подпись",
                "дата рождения",
            ],
        ),
        (
            DocumentKind::Manual,
            &[
                "step 1",
                "warning",
                "caution",
                "getting started",
                "how to",
                "troubleshooting",
                "paso 1",
                "advertencia",
                "шаг 1",
                "внимание",
            ],
        ),
        (
            DocumentKind::Report,
            &[
                "executive summary",
                "key findings",
                "methodology",
                "survey",
                "respondents",
                "findings",
                "resumen ejecutivo",
                "metodología",
                "методология",
                "результаты",
            ],
        ),
    ];
    let lower = text.to_lowercase();
    CUES.iter()
        .find(|(_, cues)| cues.iter().filter(|cue| lower.contains(*cue)).count() >= 2)
        .map(|(kind, _)| *kind)
}

/// Papers and contracts by the words they cannot do without, in English, Spanish and
/// Russian. Two different cues are needed: one word is too easily a coincidence.
fn paper_or_contract(text: &str) -> Option<DocumentKind> {
    const PAPER: [&str; 12] = [
        "abstract",
        "references",
        "introduction",
        "et al.",
        "doi:",
        "arxiv",
        "resumen",
        "referencias",
        "introducción",
        "аннотация",
        "список литературы",
        "введение",
    ];
    const CONTRACT: [&str; 14] = [
        "agreement",
        "hereinafter",
        "parties",
        "party",
        "whereas",
        "witnesseth",
        "contrato",
        "las partes",
        "en adelante",
        "cláusula",
        "договор",
        "стороны",
        "именуем",
        "соглашение",
    ];
    let lower = text.to_lowercase();
    let cues = |words: &[&str]| words.iter().filter(|word| lower.contains(*word)).count();
    let (paper, contract) = (cues(&PAPER), cues(&CONTRACT));
    match (paper >= 2, contract >= 2) {
        (true, false) => Some(DocumentKind::Paper),
        (false, true) => Some(DocumentKind::Contract),
        (true, true) if paper > contract => Some(DocumentKind::Paper),
        (true, true) => Some(DocumentKind::Contract),
        (false, false) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn front(pages: &[&str], page_count: usize, landscape_pages: usize) -> FrontMatter {
        FrontMatter {
            first_pages: pages.iter().map(|page| page.to_string()).collect(),
            page_count,
            landscape_pages,
            ..FrontMatter::default()
        }
    }

    #[test]
    fn a_deck_is_landscape_pages_of_few_words() {
        let slides = [
            "Quarterly update",
            "Agenda\nResults\nOutlook",
            "Results\nUp 4%",
        ];
        let deck = front(&slides, 20, 19);
        assert_eq!(
            generic_kind(&deck, "", &slides.join(" ")),
            Some(DocumentKind::Slides)
        );
        // The same pages upright, or landscape pages full of prose, are not a deck.
        let upright = front(&slides, 20, 2);
        assert_ne!(generic_kind(&upright, "", ""), Some(DocumentKind::Slides));
        let prose = "word ".repeat(400);
        let report = front(&[&prose, &prose], 20, 20);
        assert_ne!(
            generic_kind(&report, "", &prose),
            Some(DocumentKind::Slides)
        );
    }

    #[test]
    fn a_title_names_its_kind_in_three_languages() {
        let none = front(&[""], 30, 0);
        for (heading, kind) in [
            ("Canon EOS User Guide", DocumentKind::Manual),
            ("Guía del estudiante 2024", DocumentKind::Manual),
            ("Руководство пользователя", DocumentKind::Manual),
            ("Global Attitudes Survey", DocumentKind::Report),
            ("Informe anual de sostenibilidad", DocumentKind::Report),
            ("Годовой отчёт", DocumentKind::Report),
            ("Application Form for Admission", DocumentKind::Form),
            ("Visit Lisbon brochure", DocumentKind::Brochure),
        ] {
            assert_eq!(generic_kind(&none, heading, ""), Some(kind), "{heading}");
        }
        // A word inside another is not the word: "formation", "reported".
        assert_eq!(generic_kind(&none, "Rock formation as reported", ""), None);
    }

    #[test]
    fn papers_outrank_titles_and_cues_need_two_words() {
        let none = front(&[""], 12, 0);
        let paper = "Abstract We study ... 1 Introduction ... References";
        assert_eq!(
            generic_kind(&none, "A survey of retrieval", paper),
            Some(DocumentKind::Paper)
        );
        assert_eq!(
            generic_kind(&none, "", "Executive summary. Key findings: ..."),
            Some(DocumentKind::Report)
        );
        assert_eq!(generic_kind(&none, "", "A warning about nothing"), None);
    }
}
