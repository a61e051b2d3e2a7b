//! Calendar dates as documents write them ("December 31, 2018", "DEC. 31 , 2018",
//! "31 December 2018", "2018-12-31") and as PDF metadata stores them ("D:20190207…").

use std::sync::OnceLock;

use regex::Regex;

/// A calendar day, checked to exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Day {
    pub year: i32,
    pub month: u32,
    pub day: u32,
}

/// A date found in a text, with where it starts and ends (byte offsets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FoundDay {
    pub day: Day,
    pub start: usize,
    pub end: usize,
}

/// English month names, as filings and questions write them.
pub(crate) const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// Years a business document plausibly covers; anything else is a page number or an
/// amount that happens to look like a year.
pub(crate) const PLAUSIBLE_YEARS: std::ops::RangeInclusive<i32> = 1950..=2100;

impl Day {
    pub fn new(year: i32, month: u32, day: u32) -> Option<Self> {
        let valid = PLAUSIBLE_YEARS.contains(&year)
            && (1..=12).contains(&month)
            && day >= 1
            && day <= days_in_month(year, month);
        valid.then_some(Self { year, month, day })
    }

    pub(crate) fn iso(self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    /// "December 31, 2018", the way SEC covers write it.
    pub fn long(self) -> String {
        let index = (self.month as usize).wrapping_sub(1);
        let mut name = MONTHS.get(index).copied().unwrap_or("month").to_string();
        name[..1].make_ascii_uppercase();
        format!("{name} {}, {}", self.day, self.year)
    }
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 31,
    }
}

/// Spanish month names and Russian ones in the genitive ("31 декабря 2022"), so that
/// documents in those languages get their dates read too.
const OTHER_LANGUAGE_MONTHS: [(&str, u32); 25] = [
    ("enero", 1),
    ("febrero", 2),
    ("marzo", 3),
    ("abril", 4),
    ("mayo", 5),
    ("junio", 6),
    ("julio", 7),
    ("agosto", 8),
    ("septiembre", 9),
    ("setiembre", 9),
    ("octubre", 10),
    ("noviembre", 11),
    ("diciembre", 12),
    ("января", 1),
    ("февраля", 2),
    ("марта", 3),
    ("апреля", 4),
    ("мая", 5),
    ("июня", 6),
    ("июля", 7),
    ("августа", 8),
    ("сентября", 9),
    ("октября", 10),
    ("ноября", 11),
    ("декабря", 12),
];

/// The month a (possibly abbreviated, any case) English month name, or a full Spanish
/// or Russian one, means.
pub(crate) fn month_number(name: &str) -> Option<u32> {
    let name = name.trim_end_matches('.').to_lowercase();
    if let Some((_, month)) = OTHER_LANGUAGE_MONTHS
        .iter()
        .find(|(other, _)| *other == name)
    {
        return Some(*month);
    }
    if name.len() < 3 {
        return None;
    }
    // "Sept" is a common abbreviation that is not a prefix of the 3-letter form.
    let name = if name == "sept" {
        "sep".to_string()
    } else {
        name
    };
    MONTHS
        .iter()
        .position(|month| month.starts_with(&name))
        .map(|index| index as u32 + 1)
}

fn month_pattern() -> &'static str {
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
}

/// "December 31, 2018": pdfium may put blanks before the comma or none after it.
fn month_first() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(&format!(
            r"(?i)\b({})\s*(\d{{1,2}})(?:st|nd|rd|th)?\s*,?\s*((?:19|20)\d\d)\b",
            month_pattern()
        ))
        .expect("valid regex")
    })
}

/// "31 December 2018", "31 de diciembre de 2022", "31 декабря 2022 г.".
fn day_first() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        let other: Vec<&str> = OTHER_LANGUAGE_MONTHS
            .iter()
            .map(|(name, _)| *name)
            .collect();
        Regex::new(&format!(
            r"(?i)\b(\d{{1,2}})(?:\s+de)?\s+({}|{})\s*(?:,|de)?\s*((?:19|20)\d\d)\b",
            other.join("|"),
            month_pattern()
        ))
        .expect("valid regex")
    })
}

fn iso_date() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\b((?:19|20)\d\d)-(\d\d)-(\d\d)\b").expect("valid regex"))
}

/// Every date in `text`, in the order they appear.
pub(crate) fn find_days(text: &str) -> Vec<FoundDay> {
    let mut found = Vec::new();
    for caps in month_first().captures_iter(text) {
        push_day(&mut found, &caps, 3, 1, 2);
    }
    for caps in day_first().captures_iter(text) {
        push_day(&mut found, &caps, 3, 2, 1);
    }
    for caps in iso_date().captures_iter(text) {
        push_day(&mut found, &caps, 1, 2, 3);
    }
    found.sort_by_key(|found| found.start);
    // The same text can match two patterns ("1 June 30, 2023"): keep the first.
    found.dedup_by(|later, earlier| later.start < earlier.end);
    found
}

fn push_day(
    found: &mut Vec<FoundDay>,
    caps: &regex::Captures<'_>,
    year: usize,
    month: usize,
    day: usize,
) {
    let (Some(whole), Some(y), Some(m), Some(d)) =
        (caps.get(0), caps.get(year), caps.get(month), caps.get(day))
    else {
        return;
    };
    let month = month_number(m.as_str()).or_else(|| m.as_str().parse().ok());
    let parsed = match (y.as_str().parse(), month, d.as_str().parse()) {
        (Ok(y), Some(m), Ok(d)) => Day::new(y, m, d),
        _ => None,
    };
    if let Some(day) = parsed {
        found.push(FoundDay {
            day,
            start: whole.start(),
            end: whole.end(),
        });
    }
}

/// The first date in `text`.
pub(crate) fn first_day(text: &str) -> Option<Day> {
    find_days(text).first().map(|found| found.day)
}

/// A PDF date string ("D:20190207153012-05'00'", or without the "D:") as a day.
pub(crate) fn pdf_metadata_day(value: &str) -> Option<Day> {
    let digits = value.trim().trim_start_matches("D:");
    let number = |range: std::ops::Range<usize>| -> Option<u32> {
        let part = digits.get(range)?;
        part.bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let year = number(0..4)? as i32;
    // Month and day are optional in the PDF format; a bare year is not a day.
    Day::new(year, number(4..6)?, number(6..8)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(year: i32, month: u32, day: u32) -> Day {
        Day::new(year, month, day).expect("valid day")
    }

    #[test]
    fn dates_are_read_in_the_layouts_pdf_text_gives() {
        assert_eq!(
            first_day("ended December 31, 2018"),
            Some(day(2018, 12, 31))
        );
        assert_eq!(
            first_day("ENDED DECEMBER 31 , 2018"),
            Some(day(2018, 12, 31))
        );
        assert_eq!(first_day("ended Dec. 31,2018"), Some(day(2018, 12, 31)));
        assert_eq!(first_day("ended\nJune 30,\n2023"), Some(day(2023, 6, 30)));
        assert_eq!(first_day("le 31 December 2018"), Some(day(2018, 12, 31)));
        assert_eq!(first_day("dated 2022-07-01"), Some(day(2022, 7, 1)));
        assert_eq!(first_day("Sept. 12, 2023"), Some(day(2023, 9, 12)));
        assert_eq!(
            first_day("Madrid, 31 de diciembre de 2022"),
            Some(day(2022, 12, 31))
        );
        assert_eq!(first_day("Москва, 1 марта 2023 г."), Some(day(2023, 3, 1)));
    }

    #[test]
    fn impossible_dates_are_not_dates() {
        assert_eq!(first_day("February 30, 2023"), None);
        assert_eq!(first_day("May 2023"), None);
        assert_eq!(first_day("Mayday 12, 2023"), None);
        assert_eq!(first_day(""), None);
    }

    #[test]
    fn pdf_metadata_dates_are_read() {
        assert_eq!(
            pdf_metadata_day("D:20190207153012-05'00'"),
            Some(day(2019, 2, 7))
        );
        assert_eq!(pdf_metadata_day("20230101"), Some(day(2023, 1, 1)));
        assert_eq!(pdf_metadata_day("D:2019"), None);
        assert_eq!(pdf_metadata_day("D:2019ab07"), None);
        assert_eq!(pdf_metadata_day("Дата"), None);
    }

    #[test]
    fn long_form_is_the_sec_style() {
        assert_eq!(day(2018, 12, 31).long(), "December 31, 2018");
    }
}
