//! Which period a document covers and which day it carries: "For the fiscal year ended
//! December 31, 2018", "For the quarterly period ended June 30, 2023", "Date of Report
//! (Date of earliest event reported): July 1, 2022", "Fourth Quarter and Full Year 2022".

use std::sync::OnceLock;

use regex::Regex;

use super::dates::{find_days, month_number, Day, PLAUSIBLE_YEARS};
use super::text::{loose_regex, window};

/// The first date that follows `phrase` closely (within `max_gap` characters), in any
/// of its occurrences.
fn date_after(text: &str, phrase: &Regex, max_gap: usize) -> Option<Day> {
    phrase.find_iter(text).find_map(|found| {
        let after = window(text, found.end(), max_gap + 40);
        find_days(after)
            .first()
            .filter(|day| after[..day.start].chars().count() <= max_gap)
            .map(|day| day.day)
    })
}

/// The last day of a 10-K's fiscal year, from its cover.
pub(crate) fn annual_period_end(cover: &str) -> Option<Day> {
    static PHRASE: OnceLock<Regex> = OnceLock::new();
    date_after(cover, PHRASE.get_or_init(|| loose_regex("year ended")), 12)
}

/// The last day of a 10-Q's quarter, from its cover.
pub(crate) fn quarterly_period_end(cover: &str) -> Option<Day> {
    static PHRASE: OnceLock<Regex> = OnceLock::new();
    date_after(
        cover,
        PHRASE.get_or_init(|| loose_regex("period ended")),
        12,
    )
}

/// An 8-K's "Date of Report (Date of earliest event reported)": the date right after
/// the label, or on covers that put it first, the date just before it.
pub(crate) fn report_date(cover: &str) -> Option<Day> {
    static LABELS: OnceLock<Vec<Regex>> = OnceLock::new();
    let labels = LABELS.get_or_init(|| {
        vec![
            Regex::new(&format!(
                r"{}\s*\)?\s*:?",
                super::text::loose("earliest event reported")
            ))
            .expect("valid regex"),
            loose_regex("date of report"),
        ]
    });
    labels.iter().find_map(|label| {
        let found = label.find(cover)?;
        date_after(&cover[found.start()..], label, 30).or_else(|| {
            let before = super::text::window_before(cover, found.start(), 120);
            find_days(before).last().map(|day| day.day)
        })
    })
}

/// The period a release reports on, from "quarter and year ended December 31, 2022" or
/// "Twelve Months Ended June 30, 2023".
pub(crate) fn release_period_end(text: &str) -> Option<Day> {
    static PHRASE: OnceLock<Regex> = OnceLock::new();
    let phrase = PHRASE.get_or_init(|| {
        Regex::new(r"(?i)\b(?:quarter|year|months|weeks)\s+ended\b").expect("valid regex")
    });
    date_after(text, phrase, 12)
}

/// The month and day a release's table headers close on when they leave the year to
/// the columns ("Twelve Months Ended June 30," over "2022 2023").
pub(crate) fn release_period_month_day(text: &str) -> Option<(u32, u32)> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(r"(?i)\b(?:quarter|year|months|weeks)\s+ended\s+([a-z]{3,9})\.?\s+(\d{1,2})\b")
            .expect("valid regex")
    });
    re.captures_iter(text).find_map(|caps| {
        let month = month_number(caps.get(1)?.as_str())?;
        let day = caps.get(2)?.as_str().parse().ok()?;
        Some((month, day))
    })
}

/// A release's own date: the dateline's, which a dash follows ("Las Vegas, Nevada,
/// February 8, 2023 – MGM Resorts …").
pub(crate) fn dateline(text: &str) -> Option<Day> {
    find_days(text).into_iter().find_map(|found| {
        let after = window(text, found.end, 4);
        after
            .trim_start()
            .starts_with(['–', '—', '-', '/'])
            .then_some(found.day)
    })
}

/// The year and month a period really ends in: 52/53-week years end on the Saturday
/// nearest a month's end, so "July 2, 2023" closes June and "January 2, 2016" closes
/// 2015's December.
pub(crate) fn closing_month(day: Day) -> (i32, u32) {
    const EARLY_DAYS: u32 = 10;
    if day.day > EARLY_DAYS {
        (day.year, day.month)
    } else if day.month == 1 {
        (day.year - 1, 12)
    } else {
        (day.year, day.month - 1)
    }
}

fn add_months((year, month): (i32, u32), months: u32) -> (i32, u32) {
    let index = year * 12 + month as i32 - 1 + months as i32;
    (index.div_euclid(12), index.rem_euclid(12) as u32 + 1)
}

/// The fiscal year (named, as cards name it, by the year it ends in) of a quarter that
/// closes in `closing` and is quarter `quarter` of its year.
pub(crate) fn fiscal_year_of_quarter(closing: (i32, u32), quarter: u8) -> i32 {
    let remaining = 4u32.saturating_sub(quarter.clamp(1, 4) as u32) * 3;
    add_months(closing, remaining).0
}

/// Which quarter of a fiscal year ending in `year_end_month` closes in `month`, and
/// whether the months fall on quarter boundaries at all.
pub(crate) fn quarter_from_year_end(month: u32, year_end_month: u32) -> (u8, bool) {
    let months_after = (month + 12 - year_end_month) % 12;
    let quarter = match months_after.div_ceil(3) {
        0 => 4,
        q => q.min(4) as u8,
    };
    (quarter, months_after.is_multiple_of(3))
}

/// The quarter a 10-Q's year-to-date columns give away: "Six Months Ended" is the
/// second quarter, "Thirty-Nine Weeks Ended" the third.
pub(crate) fn year_to_date_quarter(text: &str) -> Option<u8> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"(?i)\b(six|nine|twelve|twenty[\s-]*six|thirty[\s-]*nine|fifty[\s-]*two|26|39|52)[\s-]+(months|weeks)\s+ended\b",
        )
        .expect("valid regex")
    });
    re.captures_iter(text)
        .filter_map(|caps| {
            let count: String = caps
                .get(1)?
                .as_str()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric())
                .collect();
            match count.as_str() {
                "six" | "twentysix" | "26" => Some(2),
                "nine" | "thirtynine" | "39" => Some(3),
                "twelve" | "fiftytwo" | "52" => Some(4),
                _ => None,
            }
        })
        .max()
}

/// A quarter the text names, with the fiscal year it gives it if any: "second quarter
/// of fiscal 2023", "Fourth Quarter and Full Year 2022", "fiscal 2023 fourth quarter",
/// "Third Quarter 2022", "Q2 2023", "4Q 2023".
pub(crate) fn stated_quarter(text: &str) -> Option<(u8, Option<i32>)> {
    static PATTERNS: OnceLock<Vec<Regex>> = OnceLock::new();
    let patterns = PATTERNS.get_or_init(|| {
        [
            r"(?i)\b(first|second|third|fourth|1st|2nd|3rd|4th)[\s-]*quarter(?:\s+(?:and|&)\s+(?:full[\s-]*)?(?:fiscal\s+)?year)?(?:\s+(?:of|for|ended))?(?:\s+(?:fiscal|fy))?(?:\s+year)?\s*((?:19|20)\d\d)\b",
            r"(?i)\bfiscal\s+(?:year\s+)?((?:19|20)\d\d)\s+(first|second|third|fourth)[\s-]*quarter\b",
            r"\b(?:Q([1-4])|([1-4])Q)\s*(?:FY\s*)?'?((?:19|20)\d\d)\b",
            r"(?i)\b(first|second|third|fourth)[\s-]*quarter\b",
        ]
        .iter()
        .map(|pattern| Regex::new(pattern).expect("valid regex"))
        .collect()
    });
    patterns.iter().find_map(|re| {
        let caps = re.captures(text)?;
        let mut quarter = None;
        let mut year = None;
        for group in caps.iter().skip(1).flatten() {
            let value = group.as_str();
            if let Some(q) = quarter_number(value) {
                quarter = quarter.or(Some(q));
            } else if let Ok(y) = value.parse::<i32>() {
                year = year.or(Some(y).filter(|y| PLAUSIBLE_YEARS.contains(y)));
            }
        }
        Some((quarter?, year))
    })
}

fn quarter_number(word: &str) -> Option<u8> {
    match word.to_lowercase().as_str() {
        "first" | "1st" | "1" => Some(1),
        "second" | "2nd" | "2" => Some(2),
        "third" | "3rd" | "3" => Some(3),
        "fourth" | "4th" | "4" => Some(4),
        _ => None,
    }
}

/// The year of a full-year release: "Full Year 2023 Results", "fiscal 2023 results".
pub(crate) fn full_year_results(text: &str) -> Option<i32> {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        Regex::new(
            r"(?i)\b(?:full[\s-]*year|fiscal(?:\s+year)?|annual)\s+((?:19|20)\d\d)\s+(?:financial\s+)?(?:and\s+operating\s+)?(?:results|earnings)\b",
        )
        .expect("valid regex")
    });
    re.captures(text)?.get(1)?.as_str().parse().ok()
}

/// The month a 10-Q's fiscal year ends in, from its references to the annual report
/// ("Form 10-K for the fiscal year ended June 30, 2022").
pub(crate) fn fiscal_year_end_month(text: &str) -> Option<u32> {
    static PHRASE: OnceLock<Regex> = OnceLock::new();
    let phrase = PHRASE.get_or_init(|| loose_regex("fiscal year ended"));
    date_after(text, phrase, 12).map(|day| closing_month(day).1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(year: i32, month: u32, day: u32) -> Day {
        Day::new(year, month, day).expect("valid day")
    }

    #[test]
    fn annual_and_quarterly_periods_are_read_from_covers() {
        let cover = "☒ ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d)\nFor the fis cal year ended December 31, 2017\nOR\n☐ TRANSITION REPORT\nFor the transition period from ___ to ___";
        assert_eq!(annual_period_end(cover), Some(day(2017, 12, 31)));
        assert_eq!(
            annual_period_end("FOR THE FISCAL YEAR ENDED JANUARY 28 , 2023"),
            Some(day(2023, 1, 28))
        );
        assert_eq!(
            quarterly_period_end("For the quarterly period ended: October 29, 2022"),
            Some(day(2022, 10, 29))
        );
        assert_eq!(
            quarterly_period_end("For the Quarterly Period Ended\nDecember 31, 2022"),
            Some(day(2022, 12, 31))
        );
        assert_eq!(annual_period_end("For the transition period from to"), None);
    }

    #[test]
    fn report_dates_are_read_after_or_before_their_label() {
        let after =
            "Date of Report (Date of earliest event reported): July 1, 2022 (June 30, 2022)";
        assert_eq!(report_date(after), Some(day(2022, 7, 1)));
        let before = "March 1, 2023\nDate of Report (Date of earliest event reported)\nMGM";
        assert_eq!(report_date(before), Some(day(2023, 3, 1)));
    }

    #[test]
    fn week_based_years_close_the_month_they_end_nearest() {
        assert_eq!(closing_month(day(2023, 7, 2)), (2023, 6));
        assert_eq!(closing_month(day(2016, 1, 2)), (2015, 12));
        assert_eq!(closing_month(day(2022, 10, 29)), (2022, 10));
    }

    #[test]
    fn quarters_follow_the_fiscal_year_end() {
        // Amcor's fiscal year ends in June: December closes its second quarter.
        assert_eq!(quarter_from_year_end(12, 6), (2, true));
        assert_eq!(fiscal_year_of_quarter((2022, 12), 2), 2023);
        assert_eq!(quarter_from_year_end(6, 12), (2, true));
        assert_eq!(fiscal_year_of_quarter((2023, 6), 2), 2023);
        // A January year end: October closes the third quarter of the year ending next January.
        assert_eq!(quarter_from_year_end(10, 1), (3, true));
        assert_eq!(fiscal_year_of_quarter((2022, 10), 3), 2023);
        assert_eq!(quarter_from_year_end(12, 12), (4, true));
        assert_eq!(quarter_from_year_end(11, 12), (4, false));
    }

    #[test]
    fn stated_quarters_are_read_in_their_usual_phrasings() {
        assert_eq!(
            stated_quarter("results for the second quarter of fiscal 2023"),
            Some((2, Some(2023)))
        );
        assert_eq!(
            stated_quarter("REPORTS FOURTH QUARTER AND FULL YEAR 2022 FINANCIAL"),
            Some((4, Some(2022)))
        );
        assert_eq!(
            stated_quarter("Pfizer Reports Second-Quarter 2023 Results"),
            Some((2, Some(2023)))
        );
        assert_eq!(
            stated_quarter("Amcor fiscal 2023 fourth quarter"),
            Some((4, Some(2023)))
        );
        assert_eq!(
            stated_quarter("Amcor 4Q 2023 Exhibit"),
            Some((4, Some(2023)))
        );
        assert_eq!(stated_quarter("in the third quarter"), Some((3, None)));
        assert_eq!(stated_quarter("in the quarter"), None);
    }

    #[test]
    fn year_to_date_columns_give_the_quarter() {
        assert_eq!(
            year_to_date_quarter("Three Months Ended Six Months Ended"),
            Some(2)
        );
        assert_eq!(year_to_date_quarter("Thirty-Nine Weeks Ended"), Some(3));
        assert_eq!(year_to_date_quarter("Three Months Ended"), None);
    }

    #[test]
    fn releases_give_their_period_and_dateline() {
        let text = "Las Vegas, Nevada, February 8, 2023 – MGM Resorts International reported financial results for the quarter and year ended December 31, 2022.";
        assert_eq!(dateline(text), Some(day(2023, 2, 8)));
        assert_eq!(release_period_end(text), Some(day(2022, 12, 31)));
        assert_eq!(
            full_year_results("Amcor reports fiscal 2023 results"),
            Some(2023)
        );
        assert_eq!(
            release_period_month_day("Twelve Months Ended June 30,\nGAAP results 2022"),
            Some((6, 30))
        );
        assert_eq!(release_period_month_day("months ended Junk 30"), None);
        assert_eq!(
            fiscal_year_end_month("Form 10-K for the fiscal year ended June 30, 2022"),
            Some(6)
        );
    }
}
