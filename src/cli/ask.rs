//! `pagetree ask` and `pagetree history`.

use super::terminal::{say, warn_line};
use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Result};
use clap::{Args, Subcommand, ValueEnum};
use pagetree::chat::AnswerSettings;
use pagetree::history::{to_markdown, RunKind};
use pagetree::search::Strategy;
use pagetree::Library;

use super::search::{SearchOptions, StrategyName};

#[derive(Args, Debug)]
pub struct AskArgs {
    pub question: String,
    #[arg(long, value_enum, default_value_t = StrategyName::Knee)]
    pub strategy: StrategyName,
    #[command(flatten)]
    pub options: SearchOptions,
    /// Continue this conversation (its id from `history`).
    #[arg(long)]
    pub conversation: Option<i64>,
    #[arg(long, default_value_t = 0.1)]
    pub temperature: f32,
    #[arg(long, default_value_t = 700)]
    pub max_tokens: u32,
    /// Print one JSON object at the end instead of streaming text.
    #[arg(long)]
    pub json: bool,
}

pub async fn ask(library: &Library, args: &AskArgs) -> Result<ExitCode> {
    let strategy = args.options.strategy(args.strategy)?;
    run_ask(
        library,
        &args.question,
        &strategy,
        &args.options,
        args.conversation,
        args,
        args.json,
    )
    .await
}

async fn run_ask(
    library: &Library,
    question: &str,
    strategy: &Strategy,
    options: &SearchOptions,
    conversation: Option<i64>,
    args: &AskArgs,
    json: bool,
) -> Result<ExitCode> {
    let settings = options.settings(library).await?;
    let answer_settings = AnswerSettings {
        temperature: args.temperature,
        max_tokens: args.max_tokens,
    };
    let mut stdout = std::io::stdout();
    let mut print = |piece: &str| {
        if !json {
            let _ = stdout.write_all(super::terminal::text(piece).as_bytes());
            let _ = stdout.flush();
        }
    };
    let outcome = library
        .ask(
            question,
            strategy,
            &settings,
            conversation,
            answer_settings,
            &mut print,
        )
        .await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&outcome)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!();
    if outcome.model.is_some() && !outcome.answer.removed.is_empty() {
        say!("\n(as validated: {})", outcome.answer.text.trim());
    }
    let cited: Vec<String> = outcome
        .answer
        .citations
        .iter()
        .map(|c| format!("{} {}", c.document, c.page_in_words()))
        .collect();
    say!(
        "\nCited pages: {}",
        if cited.is_empty() {
            "none".to_string()
        } else {
            cited.join(", ")
        }
    );
    for note in &outcome.notes {
        warn_line!("note: {note}");
    }
    warn_line!(
        "{} via {}: {} page(s), {} context tokens; first token after {}, answer in {:.1} s; conversation {}, history #{}",
        outcome.model.as_deref().unwrap_or("no model"),
        strategy.name(),
        outcome.search.context.pages.len(),
        outcome.search.context.tokens,
        outcome
            .first_token_ms
            .map(|ms| format!("{:.0} ms", ms))
            .unwrap_or_else(|| "-".into()),
        outcome.total_ms / 1e3,
        outcome.conversation_id,
        outcome.run_id
    );
    Ok(ExitCode::SUCCESS)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Md,
    Json,
}

#[derive(Args, Debug)]
pub struct HistoryArgs {
    #[command(subcommand)]
    pub action: Option<HistoryAction>,
    /// Only runs whose question or answer contains this text.
    #[arg(long)]
    pub search: Option<String>,
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
    #[arg(long)]
    pub json: bool,
}

#[derive(Subcommand, Debug)]
pub enum HistoryAction {
    /// One entry in full.
    Show {
        id: i64,
        #[arg(long)]
        json: bool,
    },
    /// Run an entry's question again, with its settings or others.
    Rerun {
        id: i64,
        /// Another strategy (the entry's own otherwise).
        #[arg(long, value_enum)]
        strategy: Option<StrategyName>,
        #[command(flatten)]
        options: SearchOptions,
        #[arg(long)]
        json: bool,
    },
    /// Everything, as Markdown or JSON, on standard output.
    Export {
        #[arg(long, value_enum, default_value_t = ExportFormat::Md)]
        format: ExportFormat,
        #[arg(long, default_value_t = 10_000)]
        limit: usize,
    },
}

pub async fn history(library: &Library, args: &HistoryArgs) -> Result<ExitCode> {
    let catalog = library.catalog();
    match &args.action {
        None => {
            let runs = catalog.runs(args.limit, args.search.as_deref()).await?;
            if args.json {
                println!("{}", serde_json::to_string_pretty(&runs)?);
            } else if runs.is_empty() {
                say!("No history yet.");
            } else {
                for run in runs {
                    say!(
                        "#{:<5} {:<20} {:<8} {:<15} {:<6} {}",
                        run.id,
                        run.created_at,
                        format!("{:?}", run.kind).to_lowercase(),
                        run.strategy.as_deref().unwrap_or("-"),
                        run.status,
                        run.question.chars().take(70).collect::<String>()
                    );
                }
            }
        }
        Some(HistoryAction::Show { id, json }) => {
            let Some(run) = catalog.run(*id).await? else {
                bail!("there is no history entry #{id}");
            };
            if *json {
                println!("{}", serde_json::to_string_pretty(&run)?);
            } else {
                print!(
                    "{}",
                    super::terminal::text(&to_markdown(std::slice::from_ref(&run)))
                );
            }
        }
        Some(HistoryAction::Rerun {
            id,
            strategy,
            options,
            json,
        }) => {
            let Some(run) = catalog.run(*id).await? else {
                bail!("there is no history entry #{id}");
            };
            let stored: Option<Strategy> = run
                .settings
                .get("strategy")
                .and_then(|s| serde_json::from_value(s.clone()).ok());
            let strategy = match (strategy, stored) {
                (Some(name), _) => options.strategy(*name)?,
                (None, Some(stored)) => stored,
                (None, None) => bail!("entry #{id} has no strategy to re-run; pass --strategy"),
            };
            if run.kind == RunKind::Ask {
                let ask_args = AskArgs {
                    question: run.question.clone(),
                    strategy: StrategyName::Knee,
                    options: options.clone(),
                    conversation: None,
                    temperature: 0.1,
                    max_tokens: 700,
                    json: *json,
                };
                return run_ask(
                    library,
                    &run.question,
                    &strategy,
                    options,
                    None,
                    &ask_args,
                    *json,
                )
                .await;
            }
            let settings = options.settings(library).await?;
            let result = library.search(&run.question, &strategy, &settings).await?;
            let new_id = catalog
                .record_run(&pagetree::history::NewRun::from_search(
                    RunKind::Search,
                    None,
                    &result,
                ))
                .await?;
            if *json {
                println!("{}", serde_json::to_string_pretty(&result)?);
            } else {
                say!(
                    "re-ran #{id} as #{new_id} with {}: {} page(s), {} tokens, {:.1} ms",
                    strategy.name(),
                    result.context.pages.len(),
                    result.context.tokens,
                    result.latency_ms
                );
            }
        }
        Some(HistoryAction::Export { format, limit }) => {
            let runs = catalog.full_runs(*limit).await?;
            match format {
                ExportFormat::Md => print!("{}", super::terminal::text(&to_markdown(&runs))),
                ExportFormat::Json => println!("{}", serde_json::to_string_pretty(&runs)?),
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
