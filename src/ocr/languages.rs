//! Which of Tesseract's language models read a document: its own language when its
//! text says, the library's otherwise, several at once when neither is known.

/// The languages PageTree reads by default, as Tesseract names them; each model
/// added to a read costs time, so an unknown language is tried with these alone.
pub(crate) const DEFAULT_LANGUAGES: [&str; 3] = ["eng", "rus", "spa"];

/// Tesseract's code for a language named as the stemmers name it (`russian`).
pub(crate) fn tesseract_code(language: &str) -> Option<&'static str> {
    Some(match language {
        "english" => "eng",
        "russian" => "rus",
        "spanish" => "spa",
        "german" => "deu",
        "french" => "fra",
        "italian" => "ita",
        "portuguese" => "por",
        "dutch" => "nld",
        "swedish" => "swe",
        "norwegian" => "nor",
        "danish" => "dan",
        "finnish" => "fin",
        "hungarian" => "hun",
        "romanian" => "ron",
        "turkish" => "tur",
        "greek" => "ell",
        "arabic" => "ara",
        "tamil" => "tam",
        _ => return None,
    })
}

/// The models to read a document with, in Tesseract's `eng+rus` form: the first of
/// `known` (the document's language, then the library's) that is installed, else
/// every installed one of `candidates`. None when nothing fits what is installed.
pub(crate) fn choose(
    known: &[Option<&str>],
    candidates: &[&str],
    installed: &[String],
) -> Option<String> {
    let has = |code: &str| installed.iter().any(|have| have == code);
    if let Some(code) = known
        .iter()
        .flatten()
        .filter_map(|language| tesseract_code(language))
        .find(|code| has(code))
    {
        return Some(code.to_string());
    }
    let mut codes: Vec<&str> = Vec::new();
    for code in candidates {
        if has(code) && !codes.contains(code) {
            codes.push(code);
        }
    }
    (!codes.is_empty()).then(|| codes.join("+"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn installed(codes: &[&str]) -> Vec<String> {
        codes.iter().map(|code| code.to_string()).collect()
    }

    #[test]
    fn a_known_language_reads_with_its_model_alone() {
        let all = installed(&["eng", "rus", "spa"]);
        assert_eq!(
            choose(&[Some("russian")], &DEFAULT_LANGUAGES, &all).as_deref(),
            Some("rus")
        );
        // The document's own language comes before the library's.
        assert_eq!(
            choose(
                &[Some("spanish"), Some("english")],
                &DEFAULT_LANGUAGES,
                &all
            )
            .as_deref(),
            Some("spa")
        );
    }

    #[test]
    fn an_unknown_language_reads_with_every_installed_candidate() {
        let all = installed(&["eng", "rus", "spa"]);
        assert_eq!(
            choose(&[None, None], &DEFAULT_LANGUAGES, &all).as_deref(),
            Some("eng+rus+spa")
        );
        // A language whose model is missing counts as unknown.
        let some = installed(&["eng", "spa"]);
        assert_eq!(
            choose(&[Some("russian")], &DEFAULT_LANGUAGES, &some).as_deref(),
            Some("eng+spa")
        );
        assert_eq!(
            choose(&[Some("klingon")], &["deu"], &installed(&["eng"])),
            None
        );
    }
}
