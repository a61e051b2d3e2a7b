//! Pages a question names by number: "what is on page 47", "p. 12", "página 47",
//! "страница 47", "page xii", and runs of them: "pages 21-62", "between page 21 and 62",
//! "de la página 21 a la 62", "со страницы 21 по 62". People mean the number printed on
//! the page (its label, see [`crate::pdf::PageText::label`]), and where a document has
//! no such label, its PDF page of that number; those pages are ranked up like the
//! statements a question asks for (see [`super::page_boosts`]).

use crate::store::Fusion;

/// What a named page's fused score gains, as a share of the fusion's weights (the most
/// a fused score can reach): more than any page matching the question's words can
/// score, so that the named page comes first. "Page 47" says which page outright,
/// unlike the words of a question, which only resemble a page's.
pub(crate) const NAMED_PAGE_SHARE: f32 = 1.5;

/// The boost of a named page with `fusion`'s weights.
pub(crate) fn named_page_boost(fusion: Fusion) -> f32 {
    NAMED_PAGE_SHARE * (fusion.dense_weight + fusion.sparse_weight)
}

/// Words that say "page" before a number, lower-cased, in the languages PageTree reads
/// (English, Spanish, Russian, with their abbreviations).
const PAGE_WORDS: &[&str] = &[
    "page",
    "p.",
    "pg.",
    "pg",
    "página",
    "pagina",
    "pág.",
    "pag.",
    "страница",
    "странице",
    "страницу",
    "страницы",
    "стр.",
    "с.",
];

/// Words that say "pages" before numbers: a range after them needs no other sign.
const PLURAL_PAGE_WORDS: &[&str] = &[
    "pages",
    "pp.",
    "pp",
    "págs.",
    "pags.",
    "páginas",
    "paginas",
    "страниц",
    "страницам",
    "страницами",
    "страницах",
];

/// Words that may stand between "page" and its number: "page no. 47", "página número 47".
const NUMBER_WORDS: &[&str] = &[
    "number",
    "no.",
    "nº",
    "#",
    "número",
    "numero",
    "núm.",
    "номер",
    "№",
];

/// Articles that may stand before "page" or before a range's last number: "de la
/// página 21 a la 62", "between the pages".
const ARTICLES: &[&str] = &["the", "la", "las", "el", "los"];

/// Words that open a run of pages with "to" or "a" after its first number: "from page
/// 21 to 62", "de la página 21 a la 62", "со страницы 21 по 62", "pages from 21 to 62".
const FROM_WORDS: &[&str] = &["from", "de", "desde", "с", "со", "от"];

/// Words that open a run of pages with "and" after its first number: "between page 21
/// and 62", "entre la página 21 y la 62", "между страницами 21 и 62".
const BETWEEN_WORDS: &[&str] = &["between", "entre", "между"];

/// Words between a range's two numbers that read as "to".
const TO_WORDS: &[&str] = &[
    "to", "through", "thru", "till", "until", "a", "al", "hasta", "по", "до",
];

/// Words between a range's two numbers that read as "and" (only after "between").
const AND_WORDS: &[&str] = &["and", "y", "e", "и"];

/// Dashes between a range's two numbers, as words of their own or inside one: "21-62".
const DASHES: [char; 3] = ['-', '–', '—'];

/// A printed page number longer than this is not one.
const MAX_DIGITS: usize = 4;

/// Numbers read as years rather than pages after "page" ("page 2019 of the report"
/// is rarer than a question's year next to the word).
const YEARS: std::ops::RangeInclusive<u32> = 1900..=2099;

/// A page, or a run of pages, that a question names by printed number (its labels
/// lower-cased: "47", "xii").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageReference {
    /// "page 47".
    Page(String),
    /// "pages 21-62": every page from the one labelled `first` to the one labelled
    /// `last`, both included.
    Range { first: String, last: String },
}

impl std::fmt::Display for PageReference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PageReference::Page(label) => f.write_str(label),
            PageReference::Range { first, last } => write!(f, "{first}–{last}"),
        }
    }
}

/// How a page word was opened: by "from" (a range follows with "to"), by "between" (a
/// range follows with "and"), or by neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opener {
    None,
    From,
    Between,
}

/// The pages `question` names, in the order named, each once: `Page("47")` for "page
/// 47", `Page("xii")` for "page XII", `Range { "21", "62" }` for "pages 21-62".
pub fn page_references(question: &str) -> Vec<PageReference> {
    let originals: Vec<&str> = question.split_whitespace().collect();
    let words: Vec<String> = originals
        .iter()
        .map(|word| {
            word.trim_start_matches(['(', '[', '"', '«', '“', '\''])
                .to_lowercase()
        })
        .collect();
    let question = Words {
        words: &words,
        originals: &originals,
    };
    let mut references: Vec<PageReference> = Vec::new();
    let mut at = 0;
    while at < words.len() {
        match question.reference_at(at) {
            Some((named, next)) => {
                for reference in named {
                    if !references.contains(&reference) {
                        references.push(reference);
                    }
                }
                at = next;
            }
            None => at += 1,
        }
    }
    references
}

/// A question's words, lower-cased and as written.
struct Words<'a> {
    words: &'a [String],
    originals: &'a [&'a str],
}

impl Words<'_> {
    fn get(&self, at: usize) -> Option<&str> {
        self.words.get(at).map(String::as_str)
    }

    /// The pages named from the word `at` on, and the word after the last one read.
    fn reference_at(&self, at: usize) -> Option<(Vec<PageReference>, usize)> {
        let word = self.get(at)?;
        // "p.47", "pp.21-62": the abbreviation and the number in one word. Digits only:
        // "p.m." is not page m.
        for (prefix, plural) in [("pp.", true), ("p.", false)] {
            let glued = word
                .strip_prefix(prefix)
                .filter(|rest| rest.starts_with(|c: char| c.is_ascii_digit()));
            if let Some(glued) = glued {
                return self.reference_from(glued, at + 1, self.opener_before(at), plural);
            }
        }
        let page_word = word.trim_end_matches([',', ':']);
        let plural = PLURAL_PAGE_WORDS.contains(&page_word);
        if !plural && !PAGE_WORDS.contains(&page_word) {
            return None;
        }
        let mut opener = self.opener_before(at);
        let mut next = at + 1;
        // "page no. 47", "pages from 21 to 62", "страницы с 21 по 62".
        while let Some(between) = self.get(next) {
            let opens = opener_of(between);
            if NUMBER_WORDS.contains(&between) {
                next += 1;
            } else if opener == Opener::None && opens != Opener::None {
                opener = opens;
                next += 1;
            } else {
                break;
            }
        }
        // "page I" is English's "I" far more often than a roman one.
        if self.originals.get(next) == Some(&"I") {
            return None;
        }
        self.reference_from(self.get(next)?, next + 1, opener, plural)
    }

    /// The page named by `first` (a number, perhaps "21-62" in one word), the range it
    /// opens with the words from `next` on, or the list it opens ("pages 10 and 11",
    /// "pages 3, 4 and 7").
    fn reference_from(
        &self,
        first: &str,
        next: usize,
        opener: Opener,
        plural: bool,
    ) -> Option<(Vec<PageReference>, usize)> {
        let (first_label, glued_last) = label_and_rest(first)?;
        let glued = glued_last
            .and_then(label_and_rest)
            .and_then(|(last, _)| range(&first_label, last));
        if let Some(glued) = glued {
            return Some((vec![glued], next));
        }
        let spaced = self
            .range_end(next, opener, plural)
            .and_then(|(last, after)| Some((range(&first_label, last)?, after)));
        if let Some((range, after)) = spaced {
            return Some((vec![range], after));
        }
        let mut pages = vec![PageReference::Page(first_label)];
        let mut next = next;
        while let Some((label, after)) = self.listed_page(next, plural) {
            pages.push(PageReference::Page(label));
            next = after;
        }
        Some((pages, next))
    }

    /// The next page of a list whose previous number ends at the word `at`: after "and"
    /// ("pages 10 and 11", "page 15 and 16"), or after a comma where the page word was
    /// plural ("pages 3, 4 and 7"; "on page 3, 2 charts" names one page). Only a number
    /// is read, so that "page 5 and I" stays one page.
    fn listed_page(&self, at: usize, plural: bool) -> Option<(String, usize)> {
        let previous = self.get(at.checked_sub(1)?)?;
        let word = self.get(at)?;
        let (number_at, comma) = if AND_WORDS.contains(&word) {
            (at + 1, false)
        } else {
            (at, previous.ends_with(','))
        };
        if number_at == at && !(comma && plural) {
            return None;
        }
        let number = self.get(number_at)?;
        if !number.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        let (label, rest) = label_and_rest(number)?;
        rest.is_none().then_some((label, number_at + 1))
    }

    /// A range's last number, read from the word `at` on ("to 62", "- 62", "a la 62",
    /// "and page 62" after "between"), and the word after it.
    fn range_end(&self, at: usize, opener: Opener, plural: bool) -> Option<(String, usize)> {
        let connector = self.get(at)?;
        let dash = connector.chars().all(|c| DASHES.contains(&c));
        let to = TO_WORDS.contains(&connector);
        let and = AND_WORDS.contains(&connector) && opener == Opener::Between;
        if !(dash || to || and) {
            return None;
        }
        let mut next = at + 1;
        while self.get(next).is_some_and(|w| ARTICLES.contains(&w)) {
            next += 1;
        }
        let page_word = self
            .get(next)
            .is_some_and(|w| PAGE_WORDS.contains(&w) || PLURAL_PAGE_WORDS.contains(&w));
        if page_word {
            next += 1;
        }
        // "compare page 3 to page 7" names two pages; "from page 3 to page 7" a range.
        if to && page_word && opener == Opener::None && !plural {
            return None;
        }
        let (last, _) = label_and_rest(self.get(next)?)?;
        Some((last, next + 1))
    }

    /// The opener before the page word `at`, an article aside: "from page", "de la
    /// página", "between the pages".
    fn opener_before(&self, at: usize) -> Opener {
        let mut before = at.checked_sub(1);
        if let Some(article) =
            before.filter(|&b| self.get(b).is_some_and(|w| ARTICLES.contains(&w)))
        {
            before = article.checked_sub(1);
        }
        before
            .and_then(|b| self.get(b))
            .map_or(Opener::None, opener_of)
    }
}

fn opener_of(word: &str) -> Opener {
    if FROM_WORDS.contains(&word) {
        Opener::From
    } else if BETWEEN_WORDS.contains(&word) {
        Opener::Between
    } else {
        Opener::None
    }
}

/// The range from `first` to `last`, lowest number first, with the last number
/// completed from the first where it is written short ("123-45" is 123 to 145); one
/// page when they are the same; none when one is a number and the other a roman
/// numeral ("page 3 a mix" is not pages 3 to 1009).
fn range(first: &str, last: String) -> Option<PageReference> {
    let (first, last) = match (first.parse::<u32>(), last.parse::<u32>()) {
        (Ok(from), Ok(to)) => {
            let to = completed(from, to);
            (from.min(to).to_string(), from.max(to).to_string())
        }
        (Err(_), Err(_)) => (first.to_string(), last),
        _ => return None,
    };
    Some(if first == last {
        PageReference::Page(first)
    } else {
        PageReference::Range { first, last }
    })
}

/// `to` with the leading digits of `from` it leaves out, when it is smaller and that
/// makes it larger: 45 after 123 is 145, 9 after 198 is 199, 21 after 62 stays 21.
fn completed(from: u32, to: u32) -> u32 {
    if to >= from {
        return to;
    }
    let mut place = 10;
    while place <= to {
        place *= 10;
    }
    let whole = from - from % place + to;
    if whole > from {
        whole
    } else {
        to
    }
}

/// The page label `word` starts with (punctuation after it dropped), and what follows a
/// dash in it: "47" for "47", ("21", "62") for "21-62", "47" for "47-й" (Russian's
/// ordinal ending). A label is a number of at most [`MAX_DIGITS`] digits that is not a
/// year, or a roman numeral.
fn label_and_rest(word: &str) -> Option<(String, Option<&str>)> {
    let word = word.trim_end_matches(|c: char| !c.is_alphanumeric());
    let (label, rest) = match word.split_once(DASHES) {
        Some((label, rest)) => (label, Some(rest)),
        None => (word, None),
    };
    label_of(label).map(|label| (label, rest))
}

/// `word` as a page label, if it is one (see [`label_and_rest`]).
fn label_of(word: &str) -> Option<String> {
    if !word.is_empty() && word.len() <= MAX_DIGITS && word.bytes().all(|b| b.is_ascii_digit()) {
        let number = word.parse::<u32>().ok()?;
        (number > 0 && !YEARS.contains(&number)).then(|| number.to_string())
    } else {
        is_roman(word).then(|| word.to_string())
    }
}

/// Whether `word` (lower case) is a roman numeral written the usual way, up to 3999:
/// "xii", "iv", "mcm"; not "iiii" nor "mix" read as such, nor an English word.
fn is_roman(word: &str) -> bool {
    fn value(digit: char) -> Option<u32> {
        Some(match digit {
            'i' => 1,
            'v' => 5,
            'x' => 10,
            'l' => 50,
            'c' => 100,
            'd' => 500,
            'm' => 1000,
            _ => return None,
        })
    }
    let Some(digits) = word.chars().map(value).collect::<Option<Vec<u32>>>() else {
        return false;
    };
    if digits.is_empty() {
        return false;
    }
    let mut total = 0;
    for (at, &digit) in digits.iter().enumerate() {
        match digits.get(at + 1) {
            Some(&next) if next > digit => total -= digit as i64,
            _ => total += digit as i64,
        }
    }
    // The canonical spelling of the value must be the word itself.
    (1..4000).contains(&total) && to_roman(total as u32) == word
}

fn to_roman(mut number: u32) -> String {
    const NUMERALS: [(u32, &str); 13] = [
        (1000, "m"),
        (900, "cm"),
        (500, "d"),
        (400, "cd"),
        (100, "c"),
        (90, "xc"),
        (50, "l"),
        (40, "xl"),
        (10, "x"),
        (9, "ix"),
        (5, "v"),
        (4, "iv"),
        (1, "i"),
    ];
    let mut roman = String::new();
    for (value, numeral) in NUMERALS {
        while number >= value {
            roman.push_str(numeral);
            number -= value;
        }
    }
    roman
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pages `question` names, as the trace writes them: "47", "21–62".
    fn named(question: &str) -> Vec<String> {
        page_references(question)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn a_page_named_in_any_of_the_languages_is_found() {
        assert_eq!(named("What is on page 47?"), ["47"]);
        assert_eq!(named("See p. 12, then Page 3."), ["12", "3"]);
        assert_eq!(named("as said on p.9"), ["9"]);
        assert!(named("open until 5 p.m. daily").is_empty());
        assert_eq!(named("¿Qué dice la página 47?"), ["47"]);
        assert_eq!(named("¿Qué dice la pág. 5?"), ["5"]);
        assert_eq!(named("Что написано на странице 47?"), ["47"]);
        assert_eq!(named("Что на стр. 8?"), ["8"]);
        assert_eq!(named("What does page number 4 say?"), ["4"]);
        assert_eq!(named("on page 7 and again on page 7"), ["7"]);
        assert_eq!(named("the chart (page 10)"), ["10"]);
        assert_eq!(named("на 47-й странице, см. страницу 47-ю"), ["47"]);
    }

    #[test]
    fn roman_numerals_are_labels_whatever_their_case() {
        assert_eq!(named("What is on page xii?"), ["xii"]);
        assert_eq!(named("What is on page XIV?"), ["xiv"]);
        assert_eq!(named("Read p. iv"), ["iv"]);
    }

    #[test]
    fn words_that_only_look_like_page_numbers_are_not() {
        assert!(named("What was revenue in 2019?").is_empty());
        assert!(named("Which page mentions revenue?").is_empty());
        assert!(named("the homepage 4 times").is_empty());
        assert!(named("the page I read").is_empty(), "English's I");
        assert!(named("the page did not load").is_empty());
        assert!(named("page 2019 of the report").is_empty(), "a year");
        assert!(named("page 0").is_empty());
        assert!(named("page 47a").is_empty());
        assert!(named("page iiii").is_empty(), "not a roman numeral");
    }

    #[test]
    fn a_range_in_english_names_its_first_and_last_page() {
        for question in [
            "What happens between page 21 and 62?",
            "What happens between pages 21 and 62?",
            "What happens between page 21 and page 62?",
            "Summarise pages 21-62.",
            "Summarise pages 21–62.",
            "Summarise pages 21 - 62.",
            "Summarise pages 21 to 62.",
            "Summarise pages 21 through 62.",
            "Summarise pp. 21–62.",
            "Summarise pp.21-62",
            "Summarise p. 21-62",
            "Summarise from page 21 to page 62",
            "Summarise pages from 21 to 62",
        ] {
            assert_eq!(named(question), ["21–62"], "{question}");
        }
        assert_eq!(named("pages iv-vii of the preface"), ["iv–vii"]);
        assert_eq!(
            named("pp. 123-45"),
            ["123–145"],
            "the last number written short"
        );
        assert_eq!(named("pages 62-21"), ["21–62"], "the lower number first");
        assert_eq!(named("page 5-6"), ["5–6"]);
        assert_eq!(named("pages 5-5"), ["5"]);
    }

    #[test]
    fn a_range_in_spanish_names_its_first_and_last_page() {
        for question in [
            "¿Qué dice el informe de la página 21 a la 62?",
            "¿Qué dice el informe de la página 21 a la página 62?",
            "¿Qué dice el informe desde la página 21 hasta la 62?",
            "¿Qué dice el informe entre la página 21 y la 62?",
            "¿Qué dice el informe entre las páginas 21 y 62?",
            "¿Qué dicen las páginas 21 a 62?",
            "¿Qué dicen las págs. 21-62?",
        ] {
            assert_eq!(named(question), ["21–62"], "{question}");
        }
    }

    #[test]
    fn a_range_in_russian_names_its_first_and_last_page() {
        for question in [
            "Что написано со страницы 21 по 62?",
            "Что написано со страницы 21 до страницы 62?",
            "Что написано на страницах 21–62?",
            "Что написано на страницах с 21 по 62?",
            "Что написано между страницами 21 и 62?",
            "Что написано на стр. 21-62?",
            "Что написано со страницы 21-й по 62-ю?",
        ] {
            assert_eq!(named(question), ["21–62"], "{question}");
        }
    }

    #[test]
    fn a_list_of_pages_names_each_of_them() {
        assert_eq!(
            named("What are the overlapped apps in pages 21 and 62?"),
            ["21", "62"]
        );
        assert_eq!(
            named("What models are introduced on pages 10 and 11?"),
            ["10", "11"]
        );
        assert_eq!(named("the numbers written on page 15 and 16"), ["15", "16"]);
        assert_eq!(named("What do pages 3, 4 and 7 show?"), ["3", "4", "7"]);
        assert_eq!(named("¿Qué dicen las páginas 21 y 62?"), ["21", "62"]);
        assert_eq!(named("Что на страницах 21 и 62?"), ["21", "62"]);
    }

    #[test]
    fn a_number_after_a_page_is_not_always_another_page() {
        assert_eq!(named("On page 3, 2 charts show sales."), ["3"]);
        assert_eq!(named("Does page 5 and I agree?"), ["5"]);
        assert_eq!(named("Is page 5 and 2019's report the same?"), ["5"]);
        assert_eq!(named("on page 4 and the next"), ["4"]);
    }

    #[test]
    fn two_pages_named_each_with_its_word_stay_two_pages() {
        assert_eq!(named("What do page 21 and page 62 say?"), ["21", "62"]);
        assert_eq!(named("Compare page 3 to page 7."), ["3", "7"]);
        assert_eq!(
            named("¿Qué dicen la página 21 y la página 62?"),
            ["21", "62"]
        );
        assert_eq!(named("Что на странице 21 и на странице 62?"), ["21", "62"]);
    }

    #[test]
    fn a_range_needs_a_page_number_at_both_ends() {
        assert_eq!(named("go to page 5 to read it"), ["5"]);
        assert_eq!(named("pages 21 to 2019"), ["21"], "a year");
        assert_eq!(
            named("page 3 a mix of figures"),
            ["3"],
            "a number, then a roman numeral"
        );
        assert_eq!(named("Что на странице 5 до обеда?"), ["5"]);
    }

    #[test]
    fn a_last_number_written_short_takes_the_first_ones_leading_digits() {
        assert_eq!(completed(123, 45), 145);
        assert_eq!(completed(198, 9), 199);
        assert_eq!(completed(120, 21), 121);
        assert_eq!(
            completed(62, 21),
            21,
            "not shorter: a range written backwards"
        );
        assert_eq!(completed(21, 62), 62);
    }

    #[test]
    fn roman_numerals_are_read_only_in_their_usual_spelling() {
        for good in ["i", "iv", "ix", "xii", "xl", "mcmxc", "mmxxiv"] {
            assert!(is_roman(good), "{good}");
        }
        for bad in ["", "iiii", "vx", "ic", "did", "mill", "civil", "x1"] {
            assert!(!is_roman(bad), "{bad}");
        }
    }

    #[test]
    fn the_boost_is_a_share_of_the_fusions_weights() {
        let fusion = Fusion::rrf(2, 1.0, 0.5);
        assert!((named_page_boost(fusion) - 2.25).abs() < 1e-6);
    }
}
