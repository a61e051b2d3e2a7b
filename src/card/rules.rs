//! Reads a card by rules from a document's front matter: the SEC cover (or a release's
//! headline) names the issuer, the form and the period; metadata fills gaps, marked
//! unsure. The file name is never looked at.

use super::dates::{first_day, pdf_metadata_day, Day};
use super::kind::{form_in_metadata, generic_kind, is_earnings_release, sec_form};
use super::names::{
    headline_subject, most_frequent_legal_name, name_before_listing, name_in_metadata_title,
    registrant_after_file_number, registrant_on_cover, short_forms, ticker, usual_casing,
    FoundName,
};
use super::period::{
    annual_period_end, closing_month, dateline, fiscal_year_end_month, fiscal_year_of_quarter,
    full_year_results, quarter_from_year_end, quarterly_period_end, release_period_end,
    release_period_month_day, report_date, stated_quarter, year_to_date_quarter,
};
use super::text::{flat, squashed, window};
use super::{CardField, CardSource, DocumentCard, DocumentKind, FrontMatter};

/// A card read without an LLM.
pub fn read_card(front: &FrontMatter) -> DocumentCard {
    let text = FrontText::new(front);
    let mut card = DocumentCard {
        source: CardSource::Rules,
        ..DocumentCard::default()
    };
    read_kind(&mut card, &text, front);
    read_organization(&mut card, &text, front);
    match card.kind {
        Some(DocumentKind::AnnualReport) => read_annual_period(&mut card, &text),
        Some(DocumentKind::QuarterlyReport) => read_quarterly_period(&mut card, &text),
        Some(DocumentKind::CurrentReport) => read_report_date(&mut card, &text),
        Some(DocumentKind::EarningsRelease) => read_release_period(&mut card, &text),
        _ => read_date_near_the_top(&mut card, &text),
    }
    fall_back_to_metadata_date(&mut card, front);
    if card.fiscal_year.is_none() && !card.reports_a_period() {
        year_of_the_date(&mut card);
    }
    card.title = title(&mut card, &text, front);
    card.unsure.sort_by_key(|field| field.name());
    card.unsure.dedup();
    card
}

/// The front pages in the shapes the rules read them.
struct FrontText {
    /// The first page with a text layer: a filing's cover, a release's first page.
    cover: String,
    /// `cover` on one line.
    cover_flat: String,
    /// Every front page on one line.
    all_flat: String,
    pages: Vec<String>,
}

impl FrontText {
    fn new(front: &FrontMatter) -> Self {
        // A scanned cover has no text; the first page that has some stands in for it.
        const MIN_LETTERS: usize = 40;
        let cover = front
            .first_pages
            .iter()
            .find(|page| page.chars().filter(|c| c.is_alphabetic()).count() >= MIN_LETTERS)
            .or(front.first_pages.first())
            .cloned()
            .unwrap_or_default();
        Self {
            cover_flat: flat(&cover),
            all_flat: flat(&front.first_pages.join("\n")),
            pages: front.first_pages.clone(),
            cover,
        }
    }

    fn page_refs(&self) -> Vec<&str> {
        self.pages.iter().map(String::as_str).collect()
    }
}

fn read_kind(card: &mut DocumentCard, text: &FrontText, front: &FrontMatter) {
    if let Some(form) = sec_form(&text.cover) {
        card.kind = Some(form);
        return;
    }
    if is_earnings_release(&text.cover) {
        card.kind = Some(DocumentKind::EarningsRelease);
        return;
    }
    let in_metadata = [&front.subject, &front.title]
        .into_iter()
        .flatten()
        .find_map(|value| form_in_metadata(value));
    card.kind = in_metadata.or_else(|| generic_kind(front, &heading(text, front), &text.all_flat));
    // Metadata and word cues are guesses; so is having no kind at all.
    card.unsure.push(CardField::Kind);
}

fn read_organization(card: &mut DocumentCard, text: &FrontText, front: &FrontMatter) {
    let Some(found) = find_organization(card.kind, text, front) else {
        return;
    };
    let mut texts = text.page_refs();
    texts.extend(front.title.as_deref());
    let organization = usual_casing(&found.name, &texts);
    if !found.sure {
        card.unsure.push(CardField::Organization);
        card.unsure.push(CardField::Aliases);
    }
    card.aliases = aliases(&organization, text);
    card.organization = Some(organization);
}

fn find_organization(
    kind: Option<DocumentKind>,
    text: &FrontText,
    front: &FrontMatter,
) -> Option<FoundName> {
    let sure = |name: String| FoundName { name, sure: true };
    let guessed = |name: String| FoundName { name, sure: false };
    let release = kind == Some(DocumentKind::EarningsRelease);
    registrant_on_cover(&text.cover)
        .or_else(|| registrant_after_file_number(&text.cover))
        .map(sure)
        .or_else(|| name_before_listing(&text.cover).map(sure))
        .or_else(|| {
            release
                .then(|| headline_subject(&text.cover))
                .flatten()
                .map(sure)
        })
        .or_else(|| {
            front
                .title
                .as_deref()
                .and_then(name_in_metadata_title)
                .map(guessed)
        })
        .or_else(|| most_frequent_legal_name(&text.all_flat).map(guessed))
}

/// Short forms of the name and the ticker, each once.
fn aliases(organization: &str, text: &FrontText) -> Vec<String> {
    let mut aliases = short_forms(organization);
    aliases.extend(ticker(&text.cover).or_else(|| ticker(&text.all_flat)));
    let mut seen = vec![squashed(organization)];
    aliases.retain(|alias| {
        let key = squashed(alias);
        let fresh = !key.is_empty() && !seen.contains(&key);
        seen.push(key);
        fresh
    });
    aliases
}

fn read_annual_period(card: &mut DocumentCard, text: &FrontText) {
    let Some(end) =
        annual_period_end(&text.cover_flat).or_else(|| annual_period_end(&text.all_flat))
    else {
        return;
    };
    let (year, _) = closing_month(end);
    // A 52/53-week year that ends in early January is named for the year before.
    if year != end.year {
        card.unsure.push(CardField::FiscalYear);
    }
    card.fiscal_year = Some(year);
    card.period_end = Some(end.iso());
}

fn read_quarterly_period(card: &mut DocumentCard, text: &FrontText) {
    let Some(end) =
        quarterly_period_end(&text.cover_flat).or_else(|| quarterly_period_end(&text.all_flat))
    else {
        return;
    };
    card.period_end = Some(end.iso());
    let closing = closing_month(end);
    let quarter = quarter_of_quarterly_report(text, closing);
    let fiscal_year = fiscal_year_of_quarter(closing, quarter.number);
    let stated_year_differs = quarter.stated_year.is_some_and(|year| year != fiscal_year);
    if !quarter.sure {
        card.unsure.push(CardField::FiscalQuarter);
    }
    // Some companies name a fiscal year for the year it starts in ("Third Quarter
    // 2022" closing in October 2022 of a year ending January 2023); cards name it for
    // the year it ends in, as for 10-Ks, and flag the disagreement.
    if !quarter.sure || stated_year_differs {
        card.unsure.push(CardField::FiscalYear);
    }
    card.fiscal_quarter = Some(quarter.number);
    card.fiscal_year = Some(fiscal_year);
}

struct QuarterReading {
    number: u8,
    sure: bool,
    stated_year: Option<i32>,
}

/// Which quarter of its fiscal year a 10-Q covers: from its year-to-date columns, the
/// quarter it names, or the fiscal year end it mentions; failing all, a calendar year.
fn quarter_of_quarterly_report(text: &FrontText, closing: (i32, u32)) -> QuarterReading {
    let all = &text.all_flat;
    // A named quarter counts only with a year near the report's own: 10-Qs also
    // mention other quarters in passing.
    let stated = stated_quarter(all)
        .filter(|(_, year)| year.is_some_and(|year| (closing.0..=closing.0 + 1).contains(&year)));
    let stated_year = stated.and_then(|(_, year)| year);
    if let Some(number) = year_to_date_quarter(all) {
        return QuarterReading {
            number,
            sure: true,
            stated_year,
        };
    }
    if let Some((number, _)) = stated {
        return QuarterReading {
            number,
            sure: true,
            stated_year,
        };
    }
    if let Some(year_end_month) = fiscal_year_end_month(all) {
        let (number, on_boundary) = quarter_from_year_end(closing.1, year_end_month);
        return QuarterReading {
            number,
            sure: on_boundary,
            stated_year,
        };
    }
    let (number, _) = quarter_from_year_end(closing.1, 12);
    QuarterReading {
        number,
        sure: false,
        stated_year,
    }
}

fn read_report_date(card: &mut DocumentCard, text: &FrontText) {
    let Some(day) = report_date(&text.cover_flat).or_else(|| report_date(&text.all_flat)) else {
        return;
    };
    card.date = Some(day.iso());
    // An 8-K reports an event, not a period: the year of its date is a fair guess.
    card.fiscal_year = Some(day.year);
    card.unsure.push(CardField::FiscalYear);
}

fn read_release_period(card: &mut DocumentCard, text: &FrontText) {
    let cover = &text.cover_flat;
    card.date = dateline(cover).map(Day::iso);
    let period_end = release_period_end(cover);
    card.period_end = period_end.map(Day::iso);
    if let Some((quarter, Some(year))) = stated_quarter(cover) {
        card.fiscal_quarter = Some(quarter);
        card.fiscal_year = Some(year);
    } else if let Some(year) = full_year_results(cover) {
        // A full-year release also reports the year's last quarter.
        card.fiscal_year = Some(year);
        card.fiscal_quarter = Some(4);
        card.unsure.push(CardField::FiscalQuarter);
        if card.period_end.is_none() {
            // Its tables close "June 30," and leave the year to the columns.
            let year_end =
                release_period_month_day(cover).and_then(|(month, day)| Day::new(year, month, day));
            if let Some(end) = year_end {
                card.period_end = Some(end.iso());
                card.unsure.push(CardField::PeriodEnd);
            }
        }
    } else if let Some(end) = period_end {
        let closing = closing_month(end);
        let (quarter, _) = quarter_from_year_end(closing.1, 12);
        card.fiscal_quarter = Some(quarter);
        card.fiscal_year = Some(fiscal_year_of_quarter(closing, quarter));
        card.unsure.push(CardField::FiscalQuarter);
        card.unsure.push(CardField::FiscalYear);
    }
}

/// A letter's or a paper's date usually sits in its first lines; any date there is a
/// guess at the document's own.
fn read_date_near_the_top(card: &mut DocumentCard, text: &FrontText) {
    const TOP_CHARS: usize = 600;
    if let Some(day) = first_day(window(&text.cover_flat, 0, TOP_CHARS)) {
        card.date = Some(day.iso());
        card.unsure.push(CardField::Date);
    }
}

fn fall_back_to_metadata_date(card: &mut DocumentCard, front: &FrontMatter) {
    if card.date.is_some() {
        return;
    }
    let from_metadata = [&front.creation_date, &front.modification_date]
        .into_iter()
        .flatten()
        .find_map(|value| pdf_metadata_day(value));
    if let Some(day) = from_metadata {
        card.date = Some(day.iso());
        card.unsure.push(CardField::Date);
    }
}

/// Papers, contracts and unknown documents have no fiscal year; the year of their date
/// is what a person asking for "the 2019 paper" means.
fn year_of_the_date(card: &mut DocumentCard) {
    let year = card
        .date
        .as_deref()
        .and_then(|date| date.get(..4))
        .and_then(|year| year.parse().ok());
    if let Some(year) = year {
        card.fiscal_year = Some(year);
        card.unsure.push(CardField::FiscalYear);
    }
}

fn title(card: &mut DocumentCard, text: &FrontText, front: &FrontMatter) -> Option<String> {
    if let Some(built) = title_from_fields(card) {
        return Some(built);
    }
    if let Some(meta) = front.title.as_deref().filter(|t| is_meaningful_title(t)) {
        return Some(meta.trim().to_string());
    }
    let first_line = text
        .cover
        .lines()
        .map(str::trim)
        .find(|line| line.chars().filter(|c| c.is_alphabetic()).count() >= 3)?;
    card.unsure.push(CardField::Title);
    Some(shortened(first_line, 120))
}

/// What a document calls itself at the top: its metadata title when that says
/// something, and the cover's first line when it is short enough to be a title.
fn heading(text: &FrontText, front: &FrontMatter) -> String {
    const TITLE_WORDS: usize = 12;
    let meta = front.title.as_deref().filter(|t| is_meaningful_title(t));
    let first_line = text
        .cover
        .lines()
        .map(str::trim)
        .find(|line| line.chars().any(char::is_alphabetic))
        .filter(|line| line.split_whitespace().count() <= TITLE_WORDS);
    [meta, first_line]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("\n")
}

/// "3M Company Form 10-K for the fiscal year ended December 31, 2018".
fn title_from_fields(card: &mut DocumentCard) -> Option<String> {
    let long = |iso: &Option<String>| iso.as_deref().and_then(day_from_iso).map(Day::long);
    let subject = card.organization.clone().unwrap_or_default();
    let body = match card.kind? {
        DocumentKind::AnnualReport => match long(&card.period_end) {
            Some(end) => format!("Form 10-K for the fiscal year ended {end}"),
            None => "Form 10-K".to_string(),
        },
        DocumentKind::QuarterlyReport => match long(&card.period_end) {
            Some(end) => format!("Form 10-Q for the quarterly period ended {end}"),
            None => "Form 10-Q".to_string(),
        },
        DocumentKind::CurrentReport => match long(&card.date) {
            Some(date) => format!("Form 8-K dated {date}"),
            None => "Form 8-K".to_string(),
        },
        DocumentKind::EarningsRelease => match (card.fiscal_quarter, card.fiscal_year) {
            (Some(quarter), Some(year)) => format!("Q{quarter} {year} earnings release"),
            (None, Some(year)) => format!("{year} earnings release"),
            _ => "earnings release".to_string(),
        },
        DocumentKind::Paper
        | DocumentKind::Contract
        | DocumentKind::Report
        | DocumentKind::Slides
        | DocumentKind::Manual
        | DocumentKind::Brochure
        | DocumentKind::Form
        | DocumentKind::Other => return None,
    };
    let built_on_guesses = card.unsure.iter().any(|field| {
        matches!(
            field,
            CardField::Organization | CardField::Kind | CardField::FiscalQuarter
        )
    });
    if built_on_guesses {
        card.unsure.push(CardField::Title);
    }
    Some(format!("{subject} {body}").trim().to_string())
}

fn day_from_iso(iso: &str) -> Option<Day> {
    let mut parts = iso.splitn(3, '-').map(|part| part.parse::<u32>().ok());
    let (year, month, day) = (parts.next()??, parts.next()??, parts.next()??);
    Day::new(i32::try_from(year).ok()?, month, day)
}

/// Whether a PDF's title metadata says something: filing agents and word processors
/// fill it with accession numbers, file names and placeholders.
fn is_meaningful_title(title: &str) -> bool {
    let trimmed = title.trim();
    let lower = trimmed.to_lowercase();
    let letters = trimmed.chars().filter(|c| c.is_alphabetic()).count();
    const FILE_ENDINGS: [&str; 8] = [
        ".pdf", ".doc", ".docx", ".htm", ".html", ".txt", ".rtf", ".indd",
    ];
    const PLACEHOLDERS: [&str; 4] = ["untitled", "document", "title", "microsoft word"];
    letters >= 3
        && !FILE_ENDINGS.iter().any(|ending| lower.ends_with(ending))
        && !PLACEHOLDERS
            .iter()
            .any(|placeholder| lower.starts_with(placeholder))
}

fn shortened(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_string();
    }
    let cut: String = text.chars().take(max_chars).collect();
    let at_word = cut.rsplit_once(' ').map(|(head, _)| head).unwrap_or(&cut);
    format!("{at_word}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn front(pages: &[&str]) -> FrontMatter {
        FrontMatter {
            first_pages: pages.iter().map(|page| page.to_string()).collect(),
            ..FrontMatter::default()
        }
    }

    const TEN_K_COVER: &str = "UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\n\
        Washington, D.C. 20549\nFORM 10-K\n\
        ☒ ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n\
        For the fiscal year ended December 31, 2018\nOR\n\
        ☐ TRANSITION REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n\
        For the transition period from to\nCommission file number 1-442\nTHE BOEING COMPANY\n\
        (Exact name of registrant as specified in its charter)\nDelaware 91-0425694\n\
        Securities registered pursuant to Section 12(b) of the Act:\n\
        Common Stock, $5.00 Par Value BA New York Stock Exchange\n\
        (Title of each class) (Trading Symbol) (Name of each exchange on which registered)\n\
        Indicate by check mark whether the registrant has filed all reports. Yes ☒ No ☐\n\
        in Part III of this Form 10-K or any amendment to this Form 10-K. ☐\n\
        Indicate by check mark whether the registrant is a shell company. Form 10-Q";

    #[test]
    fn a_10k_cover_gives_issuer_form_and_fiscal_year() {
        let card = read_card(&front(&[TEN_K_COVER]));
        assert_eq!(card.kind, Some(DocumentKind::AnnualReport));
        assert_eq!(card.organization.as_deref(), Some("The Boeing Company"));
        assert_eq!(card.aliases, vec!["Boeing", "BA"]);
        assert_eq!(card.fiscal_year, Some(2018));
        assert_eq!(card.fiscal_quarter, None);
        assert_eq!(card.period_end.as_deref(), Some("2018-12-31"));
        assert_eq!(
            card.title.as_deref(),
            Some("The Boeing Company Form 10-K for the fiscal year ended December 31, 2018")
        );
        assert_eq!(card.source, CardSource::Rules);
        for field in [
            CardField::Kind,
            CardField::Organization,
            CardField::FiscalYear,
        ] {
            assert!(
                !card.unsure.contains(&field),
                "{field:?} is read, not guessed"
            );
        }
    }

    #[test]
    fn an_8k_with_a_press_release_attached_is_still_an_8k() {
        let cover = "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 8-K\nCURRENT REPORT\n\
            Pursuant to Section 13 or 15(d) of The Securities Exchange Act of 1934\n\
            Date of Report (Date of earliest event reported): March 1, 2023\n\
            MGM RESORTS INTERNATIONAL\n(Exact name of registrant as specified in its charter)\n\
            Check the appropriate box below if the Form 8-K filing is intended to satisfy";
        let release =
            "Exhibit 99.1\nMGM RESORTS INTERNATIONAL REPORTS FOURTH QUARTER AND FULL YEAR \
            2022 FINANCIAL AND OPERATING RESULTS\nLas Vegas, Nevada, February 8, 2023 – \
            MGM Resorts International (NYSE: MGM) today reported financial results.";
        let card = read_card(&front(&[cover, release]));
        assert_eq!(card.kind, Some(DocumentKind::CurrentReport));
        assert_eq!(
            card.organization.as_deref(),
            Some("MGM Resorts International")
        );
        assert_eq!(card.aliases, vec!["MGM Resorts", "MGM"]);
        assert_eq!(card.date.as_deref(), Some("2023-03-01"));
        assert_eq!(card.fiscal_year, Some(2023));
        assert!(card.unsure.contains(&CardField::FiscalYear));
    }

    #[test]
    fn a_non_calendar_10q_gets_the_quarter_of_its_own_fiscal_year() {
        let cover = "SECURITIES AND EXCHANGE COMMISSION\nFORM 10-Q\n\
            ☒ QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n\
            For the Quarterly Period Ended December 31, 2022\nCommission File Number 001-38932\n\
            AMCOR PLC\n(Exact name of Registrant as specified in its charter)";
        let body = "risk factors in our Annual Report on Form 10-K for the fiscal year ended \
            June 30, 2022, as updated. Amcor plc's Current Report";
        let card = read_card(&front(&[cover, body]));
        assert_eq!(card.kind, Some(DocumentKind::QuarterlyReport));
        assert_eq!(card.organization.as_deref(), Some("Amcor plc"));
        assert_eq!(card.aliases, vec!["Amcor"]);
        assert_eq!(card.period_end.as_deref(), Some("2022-12-31"));
        assert_eq!(card.fiscal_quarter, Some(2));
        assert_eq!(card.fiscal_year, Some(2023));
        assert!(!card.unsure.contains(&CardField::FiscalQuarter));
    }

    #[test]
    fn a_10q_without_clues_is_guessed_as_calendar_and_marked() {
        let cover = "SECURITIES AND EXCHANGE COMMISSION\nFORM 10-Q\n\
            For the quarterly period ended September 30, 2023\nCommission File Number 1-1\n\
            Acme Widgets, Inc.\n(Exact name of registrant as specified in its charter)";
        let card = read_card(&front(&[cover]));
        assert_eq!(card.fiscal_quarter, Some(3));
        assert_eq!(card.fiscal_year, Some(2023));
        assert!(card.unsure.contains(&CardField::FiscalQuarter));
        assert!(card.unsure.contains(&CardField::FiscalYear));
    }

    #[test]
    fn an_earnings_release_gives_its_quarter_year_and_date() {
        let page = "Pfizer Reports Second-Quarter 2023 Results\n\
            ▪ Second-Quarter 2023 Revenues of $12.7 Billion\n\
            NEW YORK, Tuesday, August 1, 2023 – Pfizer Inc. (NYSE: PFE) reported financial \
            results for the second quarter of 2023.";
        let card = read_card(&front(&[page]));
        assert_eq!(card.kind, Some(DocumentKind::EarningsRelease));
        assert_eq!(card.organization.as_deref(), Some("Pfizer Inc."));
        assert_eq!(card.aliases, vec!["Pfizer", "PFE"]);
        assert_eq!(
            (card.fiscal_quarter, card.fiscal_year),
            (Some(2), Some(2023))
        );
        assert_eq!(card.date.as_deref(), Some("2023-08-01"));
        assert_eq!(
            card.title.as_deref(),
            Some("Pfizer Inc. Q2 2023 earnings release")
        );
    }

    #[test]
    fn a_full_year_release_of_a_june_year_reports_its_fourth_quarter() {
        let page = "Amcor reports fiscal 2023 results and provides outlook for fiscal 2024\n\
            June 2023 quarter:\nKey Financials\nTwelve Months Ended June 30,\n\
            GAAP results 2022 $ million 2023 $ million";
        let card = read_card(&front(&[page]));
        assert_eq!(card.kind, Some(DocumentKind::EarningsRelease));
        assert_eq!(card.organization.as_deref(), Some("Amcor"));
        assert_eq!(
            (card.fiscal_quarter, card.fiscal_year),
            (Some(4), Some(2023))
        );
        assert_eq!(card.period_end.as_deref(), Some("2023-06-30"));
        assert!(card.unsure.contains(&CardField::PeriodEnd));
    }

    #[test]
    fn metadata_dates_are_only_a_fallback_and_unsure() {
        let mut matter = front(&[TEN_K_COVER]);
        matter.creation_date = Some("D:20190207153012-05'00'".to_string());
        let card = read_card(&matter);
        assert_eq!(card.date.as_deref(), Some("2019-02-07"));
        assert!(card.unsure.contains(&CardField::Date));
        assert_eq!(
            card.fiscal_year,
            Some(2018),
            "the metadata date is not the period"
        );
    }

    #[test]
    fn garbage_and_empty_input_do_not_panic() {
        let inputs: [&[&str]; 6] = [
            &[],
            &[""],
            &["", "", ""],
            &["\u{0}\u{fffe}(Exact name of\u{ad}"],
            &["Form 10-K (Exact name of registrant For the fiscal year ended February 30, 2023"],
            &["ЁЖ ñ 🙂 (Exact name of Date of earliest event reported) ) ) Q9 9999 — – -"],
        ];
        for pages in inputs {
            let card = read_card(&front(pages));
            assert_eq!(card.source, CardSource::Rules);
        }
        let odd = FrontMatter {
            title: Some("\u{0}".to_string()),
            creation_date: Some("D:2é".to_string()),
            modification_date: Some("D:".to_string()),
            first_pages: vec!["x".repeat(100_000)],
            ..FrontMatter::default()
        };
        let card = read_card(&odd);
        assert_eq!(card.date, None);
    }

    #[test]
    fn russian_text_gets_a_title_and_year_marked_unsure() {
        let matter = FrontMatter {
            title: None,
            creation_date: Some("D:20230301000000+03'00'".to_string()),
            first_pages: vec![
                "Московский метрополитен\nМосковский метрополитен был открыт в мае 1935 года."
                    .to_string(),
            ],
            ..FrontMatter::default()
        };
        let card = read_card(&matter);
        assert_eq!(card.title.as_deref(), Some("Московский метрополитен"));
        assert_eq!(card.kind, None);
        assert_eq!(card.fiscal_year, Some(2023));
        for field in [
            CardField::Title,
            CardField::Kind,
            CardField::FiscalYear,
            CardField::Date,
        ] {
            assert!(card.unsure.contains(&field), "{field:?} is a guess");
        }
    }

    #[test]
    fn a_spanish_contract_is_recognised_by_its_words() {
        let page = "CONTRATO DE ARRENDAMIENTO\nMadrid, 31 de diciembre de 2022\n\
            Reunidas las partes, en adelante el ARRENDADOR y el ARRENDATARIO, acuerdan la \
            siguiente cláusula.";
        let card = read_card(&front(&[page]));
        assert_eq!(card.kind, Some(DocumentKind::Contract));
        assert!(card.unsure.contains(&CardField::Kind));
        assert_eq!(card.title.as_deref(), Some("CONTRATO DE ARRENDAMIENTO"));
        assert_eq!(card.date.as_deref(), Some("2022-12-31"));
        assert_eq!(card.fiscal_year, Some(2022));
    }

    #[test]
    fn an_english_paper_is_recognised_by_its_abstract_and_references() {
        let page = "Attention Is All You Need\nAbstract\nThe dominant sequence transduction \
            models ...\n1 Introduction\n...\nReferences\n[1] Bahdanau et al.";
        let card = read_card(&front(&[page]));
        assert_eq!(card.kind, Some(DocumentKind::Paper));
        assert_eq!(card.title.as_deref(), Some("Attention Is All You Need"));
    }

    #[test]
    fn meaningless_metadata_titles_are_ignored() {
        assert!(!is_meaningful_title("0000012927-16-000099"));
        assert!(!is_meaningful_title("Microsoft Word - draft.docx"));
        assert!(!is_meaningful_title("report.pdf"));
        assert!(is_meaningful_title("Cyrillic fixture"));
    }
}
