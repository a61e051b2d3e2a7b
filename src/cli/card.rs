//! `pagetree card DOC [--set field=value …] [--reread]`.

use super::terminal::say;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use pagetree::card::DocumentCard;
use pagetree::Library;

#[derive(Args, Debug)]
pub struct CardArgs {
    /// Document name, file name or id.
    pub document: String,
    /// Correct a field (title, organization, aliases, kind, fiscal_year,
    /// fiscal_quarter, period_end, date); an empty value clears it. Repeatable.
    #[arg(long = "set", value_name = "FIELD=VALUE")]
    pub set: Vec<String>,
    /// Read the card again from the PDF (keeping corrected fields).
    #[arg(long)]
    pub reread: bool,
    #[arg(long)]
    pub json: bool,
}

pub async fn run(library: &Library, args: &CardArgs) -> Result<ExitCode> {
    let mut document = library.catalog().resolve(&args.document).await?;
    if args.reread {
        document = library.reread_card(&document).await?;
    }
    if !args.set.is_empty() {
        document = library.correct_card(&document, &args.set).await?;
        if !args.json {
            say!("corrected; the document's vectors were rebuilt");
        }
    }
    let card = document.card.clone().unwrap_or_default();
    if args.json {
        let value = serde_json::json!({"document": document.name, "card": card});
        println!("{}", serde_json::to_string_pretty(&value)?);
    } else {
        print_card(&document.name, &card);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_card(name: &str, card: &DocumentCard) {
    say!("{name}: {}", card.short_form());
    let mark = |field: pagetree::card::CardField| {
        if card.corrected.contains(&field) {
            " (corrected)"
        } else if card.unsure.contains(&field) {
            " (unsure)"
        } else {
            ""
        }
    };
    use pagetree::card::CardField::*;
    let text = |value: Option<String>| value.unwrap_or_else(|| "-".into());
    let rows = [
        (Title, text(card.title.clone())),
        (Organization, text(card.organization.clone())),
        (Aliases, card.aliases.join(", ")),
        (Kind, text(card.kind.map(|k| k.label().to_string()))),
        (FiscalYear, text(card.fiscal_year.map(|y| y.to_string()))),
        (
            FiscalQuarter,
            text(card.fiscal_quarter.map(|q| format!("Q{q}"))),
        ),
        (PeriodEnd, text(card.period_end.clone())),
        (Date, text(card.date.clone())),
    ];
    for (field, value) in rows {
        say!("  {:<15} {value}{}", field.name(), mark(field));
    }
}
