//! Which language a document or a question is in, so that each is stemmed and its stop
//! words dropped by its own language's rules (Qdrant's Snowball stemmers) in a library
//! that mixes them.

use whatlang::{Detector, Lang};

/// Text read from a document to tell its language: enough for a confident guess, little
/// enough to cost nothing next to the rest of an ingestion.
const SAMPLE_CHARS: usize = 20_000;

/// The languages with a Snowball stemmer and stop words in Qdrant, by the names its BM25
/// settings take.
const STEMMED: [(Lang, &str); 19] = [
    (Lang::Eng, "english"),
    (Lang::Rus, "russian"),
    (Lang::Spa, "spanish"),
    (Lang::Fra, "french"),
    (Lang::Deu, "german"),
    (Lang::Ita, "italian"),
    (Lang::Por, "portuguese"),
    (Lang::Nld, "dutch"),
    (Lang::Swe, "swedish"),
    (Lang::Dan, "danish"),
    (Lang::Nob, "norwegian"),
    (Lang::Fin, "finnish"),
    (Lang::Hun, "hungarian"),
    (Lang::Ron, "romanian"),
    (Lang::Tur, "turkish"),
    (Lang::Ell, "greek"),
    (Lang::Ara, "arabic"),
    (Lang::Tam, "tamil"),
    (Lang::Hye, "armenian"),
];

fn name_of(lang: Lang) -> Option<&'static str> {
    STEMMED
        .iter()
        .find(|(known, _)| *known == lang)
        .map(|(_, name)| *name)
}

fn lang_of(name: &str) -> Option<Lang> {
    STEMMED
        .iter()
        .find(|(_, known)| *known == name)
        .map(|(lang, _)| *lang)
}

/// The language of a document from its pages' text, when it is one we can stem and the
/// guess is reliable; none for a scan without text or a language without a stemmer.
pub(crate) fn detect_document<'a>(
    pages: impl IntoIterator<Item = &'a str>,
) -> Option<&'static str> {
    let mut sample = String::new();
    for page in pages {
        if sample.len() >= SAMPLE_CHARS {
            break;
        }
        let room = SAMPLE_CHARS - sample.len();
        let end = page
            .char_indices()
            .map(|(index, _)| index)
            .find(|&index| index >= room)
            .unwrap_or(page.len());
        sample.push_str(&page[..end]);
        sample.push('\n');
    }
    let info = whatlang::detect(&sample)?;
    if !info.is_reliable() {
        return None;
    }
    name_of(info.lang())
}

/// The language to stem a question in, among the languages of the library's documents:
/// a question is short, so it is only asked which of those it is closest to. None when
/// the library has no detected language.
pub(crate) fn detect_question(question: &str, library_languages: &[String]) -> Option<String> {
    let candidates: Vec<Lang> = library_languages
        .iter()
        .filter_map(|name| lang_of(name))
        .collect();
    match candidates.as_slice() {
        [] => None,
        [only] => name_of(*only).map(str::to_string),
        _ => Detector::with_allowlist(candidates)
            .detect_lang(question)
            .and_then(name_of)
            .map(str::to_string),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_told_apart_by_their_text() {
        let russian = "Байкал — самое глубокое озеро на планете, его глубина превышает тысячу шестьсот метров. Он расположен в Восточной Сибири.";
        let spanish = "La paella es el plato más famoso de la cocina española. Su origen está en los campos de arroz que rodean la ciudad de Valencia.";
        let english = "Net sales increased in every business segment, driven by organic growth and the acquisitions completed during the year.";
        assert_eq!(detect_document([russian]), Some("russian"));
        assert_eq!(detect_document([spanish]), Some("spanish"));
        assert_eq!(detect_document(["", english]), Some("english"));
        assert_eq!(detect_document(["", "  "]), None);
    }

    #[test]
    fn a_long_document_is_judged_on_a_sample_cut_between_characters() {
        let page = "Московский метрополитен был открыт в мае 1935 года. ".repeat(400);
        assert_eq!(
            detect_document([page.as_str(), page.as_str()]),
            Some("russian")
        );
    }

    #[test]
    fn a_question_takes_the_nearest_language_of_the_library() {
        let library = ["english".to_string(), "spanish".to_string()];
        assert_eq!(
            detect_question("¿Qué comida lleva arroz y azafrán?", &library).as_deref(),
            Some("spanish")
        );
        assert_eq!(
            detect_question("What was the operating margin in 2018?", &library).as_deref(),
            Some("english")
        );
        assert_eq!(
            detect_question("anything", &["russian".to_string()]).as_deref(),
            Some("russian")
        );
        assert_eq!(detect_question("anything", &[]), None);
    }
}
