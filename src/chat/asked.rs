//! The part of a question that asks: analysts wrap a question in instructions ("Assume
//! that you are a public equities analyst", "Round your answer to two decimal places",
//! "If gross margin is not a useful metric …, then state that and explain why") whose
//! words ("provided", "information", "shown") match passages that answer nothing.

use unicode_segmentation::UnicodeSegmentation;

/// How an instruction sentence begins (lowercase).
const INSTRUCTION_STARTS: [&str; 14] = [
    "assume ",
    "answer ",
    "give a response",
    "give your answer",
    "please ",
    "round ",
    "base your",
    "basing your",
    "we need to",
    "we want to",
    "here's the question",
    "here is the question",
    "taking into account",
    "based on the information",
];

/// Words that begin the question itself after an instruction clause ("Basing your
/// judgments off of the balance sheet, what is …").
const QUESTION_WORDS: [&str; 8] = ["what", "how", "which", "who", "when", "where", "why", "is"];

/// The question without its instruction sentences and clauses; the whole question
/// when nothing else would be left.
pub fn asked_part(question: &str) -> String {
    let kept: Vec<String> = question
        .split_sentence_bounds()
        .map(str::trim)
        .filter(|sentence| !sentence.is_empty())
        .filter_map(without_instruction)
        .collect();
    if kept.is_empty() {
        question.trim().to_string()
    } else {
        kept.join(" ")
    }
}

/// A sentence as it asks: None for an instruction, the question after an instruction
/// clause, the sentence itself otherwise.
fn without_instruction(sentence: &str) -> Option<String> {
    let lower = sentence.to_lowercase();
    let conditional_instruction = lower.starts_with("if ") && lower.contains("state that");
    let instruction = conditional_instruction
        || INSTRUCTION_STARTS
            .iter()
            .any(|start| lower.starts_with(start));
    if !instruction {
        return Some(sentence.to_string());
    }
    // "… in the balance sheet: what is …" or "…, what is …".
    let question_at = lower
        .match_indices([':', ','])
        .map(|(at, _)| at + 1)
        .find(|&at| {
            let rest = lower[at..].trim_start();
            QUESTION_WORDS
                .iter()
                .any(|word| rest.starts_with(&format!("{word} ")))
        })?;
    Some(sentence[question_at..].trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instructions_around_a_question_are_left_out() {
        assert_eq!(
            asked_part(
                "What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a response to the question by relying on the details shown in the cash flow statement."
            ),
            "What is the FY2018 capital expenditure amount (in USD millions) for 3M?"
        );
        assert_eq!(
            asked_part(
                "Assume that you are a public equities analyst. Answer the following question by primarily using information that is shown in the balance sheet: what is the year end FY2018 net PPNE for 3M? Answer in USD billions."
            ),
            "what is the year end FY2018 net PPNE for 3M?"
        );
        assert_eq!(
            asked_part(
                "Basing your judgments off of the balance sheet, what is the year end FY2018 amount of accounts payable for MGM Resorts? Answer in USD millions."
            ),
            "what is the year end FY2018 amount of accounts payable for MGM Resorts?"
        );
        assert_eq!(
            asked_part(
                "Does AMCOR have an improving gross margin profile as of FY2023? If gross margin is not a useful metric for a company like this, then state that and explain why."
            ),
            "Does AMCOR have an improving gross margin profile as of FY2023?"
        );
    }

    #[test]
    fn a_question_without_instructions_is_kept_whole() {
        let question = "How many chapters are in this report? List them, e.g. [1, 2].";
        assert_eq!(asked_part(question), question);
        assert_eq!(
            asked_part("Please list the authors."),
            "Please list the authors."
        );
        assert_eq!(
            asked_part("¿Cuántos capítulos tiene el informe?"),
            "¿Cuántos capítulos tiene el informe?"
        );
    }
}
