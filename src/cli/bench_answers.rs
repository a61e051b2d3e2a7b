//! `pagetree bench --answers`: the share of questions whose gold answer the extractive
//! answer holds, per strategy.

use std::process::ExitCode;

use anyhow::Result;
use pagetree::eval::answers::{load_gold_answers, AnswersReport};
use pagetree::eval::BenchQuestion;
use pagetree::search::{SearchSettings, Strategy};
use pagetree::Library;

use super::report_output;
use super::search::BenchArgs;
use super::terminal::say;

pub async fn run(
    library: &Library,
    args: &BenchArgs,
    questions: &[BenchQuestion],
    strategies: &[Strategy],
    settings: &SearchSettings,
) -> Result<ExitCode> {
    let gold = load_gold_answers(&args.questions).map_err(anyhow::Error::msg)?;
    let report = library
        .bench_answers(questions, &gold, strategies, settings, args.per_document)
        .await?;
    report_output::print(&report, args.json, print_report)?;
    Ok(ExitCode::SUCCESS)
}

fn print_report(report: &AnswersReport) {
    say!(
        "{} questions with a gold answer, {} documents, {}; the extractive answer (no model)",
        report.strategies.first().map(|s| s.questions).unwrap_or(0),
        report.documents,
        if report.per_document {
            "per document"
        } else {
            "whole library"
        },
    );
    if report.without_gold > 0 {
        say!(
            "{} questions have no gold answer and were left out",
            report.without_gold
        );
    }
    say!(
        "{:<16} {:>7} {:>9} {:>9}  by form (found/questions)",
        "strategy",
        "answer",
        "page hit",
        "ans|page"
    );
    for s in &report.strategies {
        let forms: Vec<String> = s
            .by_form
            .iter()
            .map(|f| {
                format!(
                    "{}: {}/{}",
                    serde_json::to_value(f.form)
                        .ok()
                        .and_then(|v| v.as_str().map(String::from))
                        .unwrap_or_default(),
                    f.found,
                    f.questions
                )
            })
            .collect();
        let failed = s.runs.iter().filter(|r| r.error.is_some()).count();
        say!(
            "{:<16} {:>7.3} {:>9.3} {:>9.3}  {}{}",
            s.strategy.name(),
            s.found_rate,
            s.page_hit_rate,
            s.found_given_page,
            forms.join("  "),
            if failed > 0 {
                format!("  ({failed} failed)")
            } else {
                String::new()
            }
        );
    }
}
