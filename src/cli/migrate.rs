//! `pagetree migrate`: move the library's vectors to a Qdrant server, or back.

use super::terminal::say;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::Result;
use clap::{ArgGroup, Args};
use pagetree::migrate::MigrationTarget;
use pagetree::Library;

use super::progress::CliProgress;

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("target").required(true).args(["to_remote", "to_embedded"])))]
pub struct MigrateArgs {
    /// Copy the vectors to the Qdrant server at this gRPC URL (e.g. http://qdrant:6334).
    #[arg(long, value_name = "URL")]
    pub to_remote: Option<String>,
    /// Copy the vectors back into the library folder.
    #[arg(long)]
    pub to_embedded: bool,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

pub async fn run(mut library: Library, args: &MigrateArgs) -> Result<ExitCode> {
    let target = match &args.to_remote {
        Some(url) => MigrationTarget::Remote { url: url.clone() },
        None => MigrationTarget::Embedded,
    };
    let documents = library.documents().await?.len();
    let progress = CliProgress::new(documents, Arc::new(AtomicBool::new(false)));
    let report = library.migrate(target, &progress).await;
    drop(progress);
    let report = report?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        say!(
            "moved {} documents ({} points) from {} to {} in {:.1} s; {} check queries returned the same nodes on both",
            report.documents, report.points, report.from, report.to, report.seconds, report.checked_queries
        );
        say!("the copy on {} was left as it was", report.from);
    }
    Ok(ExitCode::SUCCESS)
}
