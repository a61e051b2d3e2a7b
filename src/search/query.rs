//! Query text for BM25: analysts write "FY2019" or "Q2'23" where filings print "2019"
//! and "2023", so year-bearing tokens are followed by the bare year.

/// Appends the four-digit year of every token like `FY2019`, `FY19`, `FY'19`,
/// `Q2'2023`, `Q2 FY23` or `2023Q2` to the question, for the sparse (BM25) query only.
pub(crate) fn expand_for_bm25(question: &str) -> String {
    let mut years: Vec<String> = Vec::new();
    for token in question
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '(' | ')' | '?' | '.' | ';'))
    {
        if let Some(year) = year_in(token) {
            if !years.contains(&year)
                && !question
                    .split_whitespace()
                    .any(|w| w.trim_matches(|c: char| !c.is_alphanumeric()) == year)
            {
                years.push(year);
            }
        }
    }
    if years.is_empty() {
        question.to_string()
    } else {
        format!("{question} {}", years.join(" "))
    }
}

fn year_in(token: &str) -> Option<String> {
    let upper = token.to_uppercase();
    let has_fiscal_marker = upper.starts_with("FY") || upper.contains('Q') || upper.contains('\'');
    if !has_fiscal_marker {
        return None;
    }
    // Take the last run of digits: "Q2'2023" → 2023, "FY19" → 19.
    let run: String = upper
        .rsplit(|c: char| !c.is_ascii_digit())
        .find(|part| !part.is_empty())?
        .to_string();
    match run.len() {
        4 if run.starts_with("19") || run.starts_with("20") => Some(run),
        2 => Some(format!("20{run}")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_the_bare_year_of_fiscal_tokens() {
        assert_eq!(
            expand_for_bm25("What was FY2018 capex?"),
            "What was FY2018 capex? 2018"
        );
        assert_eq!(
            expand_for_bm25("Revenue in FY19 and FY'20"),
            "Revenue in FY19 and FY'20 2019 2020"
        );
        assert_eq!(
            expand_for_bm25("As of Q2'2023, is Pfizer"),
            "As of Q2'2023, is Pfizer 2023"
        );
    }

    #[test]
    fn leaves_other_questions_alone() {
        assert_eq!(
            expand_for_bm25("What industry does Amcor operate in?"),
            "What industry does Amcor operate in?"
        );
        assert_eq!(
            expand_for_bm25("Revenue in 2022 vs FY2022"),
            "Revenue in 2022 vs FY2022"
        );
        assert_eq!(expand_for_bm25("Q2 results"), "Q2 results");
    }
}
