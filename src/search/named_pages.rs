//! Pages a question names by number: "what is on page 47", "p. 12", "página 47",
//! "страница 47", "page xii". People mean the number printed on the page (its label,
//! see [`crate::pdf::PageText::label`]), and where a document has no such label, its
//! PDF page of that number; those pages are ranked up like the statements a question
//! asks for (see [`super::page_boosts`]).

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

/// A printed page number longer than this is not one.
const MAX_DIGITS: usize = 4;

/// Numbers read as years rather than pages after "page" ("page 2019 of the report"
/// is rarer than a question's year next to the word).
const YEARS: std::ops::RangeInclusive<u32> = 1900..=2099;

/// The page labels `question` names, lower-cased, in the order named, each once:
/// "47" for "page 47", "xii" for "page XII".
pub fn labels_named(question: &str) -> Vec<String> {
    let originals: Vec<&str> = question.split_whitespace().collect();
    let words: Vec<String> = originals
        .iter()
        .map(|word| {
            word.trim_start_matches(['(', '[', '"', '«', '“', '\''])
                .to_lowercase()
        })
        .collect();
    let mut labels: Vec<String> = Vec::new();
    let mut add = |label: String| {
        if !labels.contains(&label) {
            labels.push(label);
        }
    };
    for (at, word) in words.iter().enumerate() {
        // "p.47": the abbreviation and the number in one word.
        // Digits only: "p.m." is not page m.
        if let Some(glued) = word
            .strip_prefix("p.")
            .filter(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        {
            add_if_label(glued, &mut add);
            continue;
        }
        let page_word = word.trim_end_matches([',', ':']);
        if !PAGE_WORDS.contains(&page_word) {
            continue;
        }
        let mut next = at + 1;
        while words
            .get(next)
            .is_some_and(|w| NUMBER_WORDS.contains(&w.as_str()))
        {
            next += 1;
        }
        if let Some(candidate) = words.get(next) {
            // "page I" is English's "I" far more often than a roman one.
            if originals.get(next) != Some(&"I") {
                add_if_label(candidate, &mut add);
            }
        }
    }
    labels
}

/// Adds `word` (punctuation after it dropped) when it reads as a page label: a number
/// of at most [`MAX_DIGITS`] digits that is not a year, or a roman numeral.
fn add_if_label(word: &str, add: &mut impl FnMut(String)) {
    let word = word.trim_end_matches(|c: char| !c.is_alphanumeric());
    // "47-й" (Russian's ordinal ending) keeps the number; "page 47a" is not page 47.
    let word = word
        .split_once(['-', '–'])
        .map_or(word, |(number, _)| number);
    if !word.is_empty() && word.len() <= MAX_DIGITS && word.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(number) = word.parse::<u32>() {
            if number > 0 && !YEARS.contains(&number) {
                add(number.to_string());
            }
        }
    } else if is_roman(word) {
        add(word.to_string());
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

    #[test]
    fn a_page_named_in_any_of_the_languages_is_found() {
        assert_eq!(labels_named("What is on page 47?"), vec!["47"]);
        assert_eq!(labels_named("See p. 12, then Page 3."), vec!["12", "3"]);
        assert_eq!(labels_named("as said on p.9"), vec!["9"]);
        assert!(labels_named("open until 5 p.m. daily").is_empty());
        assert_eq!(labels_named("¿Qué dice la página 47?"), vec!["47"]);
        assert_eq!(labels_named("¿Qué dice la pág. 5?"), vec!["5"]);
        assert_eq!(labels_named("Что написано на странице 47?"), vec!["47"]);
        assert_eq!(labels_named("Что на стр. 8?"), vec!["8"]);
        assert_eq!(labels_named("What does page number 4 say?"), vec!["4"]);
        assert_eq!(labels_named("on page 7 and again on page 7"), vec!["7"]);
        assert_eq!(labels_named("the chart (page 10)"), vec!["10"]);
    }

    #[test]
    fn roman_numerals_are_labels_whatever_their_case() {
        assert_eq!(labels_named("What is on page xii?"), vec!["xii"]);
        assert_eq!(labels_named("What is on page XIV?"), vec!["xiv"]);
        assert_eq!(labels_named("Read p. iv"), vec!["iv"]);
    }

    #[test]
    fn words_that_only_look_like_page_numbers_are_not() {
        assert!(labels_named("What was revenue in 2019?").is_empty());
        assert!(labels_named("Which page mentions revenue?").is_empty());
        assert!(labels_named("the homepage 4 times").is_empty());
        assert!(labels_named("the page I read").is_empty(), "English's I");
        assert!(labels_named("the page did not load").is_empty());
        assert!(labels_named("page 2019 of the report").is_empty(), "a year");
        assert!(labels_named("page 0").is_empty());
        assert!(labels_named("page 47a").is_empty());
        assert!(labels_named("page iiii").is_empty(), "not a roman numeral");
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
