//! `pagetree bench-scale`: search latency on a synthetic library of a given size.

use super::report_output;
use super::terminal::say;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;
use pagetree::library::OpenOptions;
use pagetree::synthetic::{bench_scale, ScaleReport};

#[derive(Args, Debug)]
pub struct ScaleArgs {
    /// Nodes in the synthetic library (pages and section summaries together).
    #[arg(long, default_value_t = 100_000)]
    pub nodes: usize,
    /// Random queries per strategy.
    #[arg(long, default_value_t = 100)]
    pub queries: usize,
    #[arg(long, default_value_t = 7)]
    pub seed: u64,
    /// Build the library here and keep it (default: a temporary folder, removed after);
    /// a folder that already holds one is searched again without rebuilding.
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// How the tree strategies score sections (see `search --section-scoring`).
    #[arg(long, default_value_t = pagetree::search::DEFAULT_SECTION_SCORING)]
    pub section_scoring: pagetree::search::SectionScoring,
    #[arg(long)]
    pub json: bool,
}

pub async fn run(args: &ScaleArgs, options: OpenOptions) -> Result<ExitCode> {
    let temporary = tempfile::tempdir().context("cannot make a temporary folder")?;
    let root = args
        .dir
        .clone()
        .unwrap_or_else(|| temporary.path().join("library"));
    let settings = pagetree::search::SearchSettings {
        section_scoring: args.section_scoring,
        ..Default::default()
    };
    let report = bench_scale(
        &root,
        options,
        args.nodes,
        args.queries,
        args.seed,
        &settings,
    )
    .await?;
    report_output::print(&report, args.json, print_report)?;
    Ok(ExitCode::SUCCESS)
}

fn print_report(report: &ScaleReport) {
    if report.reused {
        say!("(searched the library already in the folder; not rebuilt)");
    }
    say!(
        "{} nodes in {} documents: built in {:.1} s (+ {:.1} s optimize), reopened in {:.2} s, {:.1} MiB on disk, peak memory {}",
        report.nodes,
        report.documents,
        report.build_seconds,
        report.optimize_seconds,
        report.open_seconds,
        report.index_bytes as f64 / (1024.0 * 1024.0),
        report
            .peak_memory_bytes
            .map(|b| format!("{:.0} MiB", b as f64 / (1024.0 * 1024.0)))
            .unwrap_or_else(|| "unknown".into())
    );
    say!(
        "{} random queries per strategy; query embedding (real questions) median {:.1} ms",
        report.queries,
        report.median_query_embedding_ms
    );
    say!(
        "{:<16} {:>10} {:>10} {:>14} {:>9} {:>14}",
        "strategy",
        "p50 ms",
        "p95 ms",
        "store queries",
        "× flat",
        "whole p50 ms"
    );
    for s in &report.strategies {
        say!(
            "{:<16} {:>10.2} {:>10.2} {:>14.1} {:>9.2} {:>14.2}",
            s.strategy.name(),
            s.median_ms,
            s.p95_ms,
            s.mean_store_queries,
            s.ratio_to_flat,
            s.whole_median_ms
        );
    }
    say!("(p50/p95: the tree search; whole: with the catalog lookups and the context)");
}
