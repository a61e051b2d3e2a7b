//! Progress for a terminal (bars) or for a log or a pipe (one line per step).

use super::terminal::warn_line;
use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use pagetree::ingest::{Progress, Stage};

pub struct CliProgress {
    bars: Option<Bars>,
    last_line: Mutex<HashMap<String, (Stage, usize)>>,
    cancelled: Arc<AtomicBool>,
}

struct Bars {
    multi: MultiProgress,
    overall: ProgressBar,
    current: Mutex<HashMap<String, ProgressBar>>,
}

impl CliProgress {
    pub fn new(files: usize, cancelled: Arc<AtomicBool>) -> Self {
        let bars = std::io::stderr().is_terminal().then(|| {
            let multi = MultiProgress::new();
            let overall = multi.add(ProgressBar::new(files as u64));
            overall.set_style(
                ProgressStyle::with_template(
                    "{prefix:>12} [{bar:30}] {pos}/{len} documents  {elapsed}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            overall.set_prefix("library");
            Bars {
                multi,
                overall,
                current: Mutex::new(HashMap::new()),
            }
        });
        Self {
            bars,
            last_line: Mutex::new(HashMap::new()),
            cancelled,
        }
    }

    /// Prints a finished document's line above the bars.
    pub fn finish_document(&self, file: &str, line: &str) {
        match &self.bars {
            Some(bars) => {
                if let Ok(mut current) = bars.current.lock() {
                    if let Some(bar) = current.remove(file) {
                        bar.finish_and_clear();
                        bars.multi.remove(&bar);
                    }
                }
                bars.overall.inc(1);
                let _ = bars.multi.println(super::terminal::text(line));
            }
            None => warn_line!("{line}"),
        }
    }

    pub fn finish(&self) {
        if let Some(bars) = &self.bars {
            bars.overall.finish_and_clear();
        }
    }
}

impl Progress for CliProgress {
    fn stage(&self, file: &str, stage: Stage, done: usize, total: usize) {
        match &self.bars {
            Some(bars) => {
                let Ok(mut current) = bars.current.lock() else {
                    return;
                };
                let bar = current.entry(file.to_string()).or_insert_with(|| {
                    let bar = bars.multi.insert_before(&bars.overall, ProgressBar::new(1));
                    bar.set_style(
                        ProgressStyle::with_template("{prefix:>12} [{bar:30}] {pos}/{len} {msg}")
                            .unwrap_or_else(|_| ProgressStyle::default_bar())
                            .progress_chars("=> "),
                    );
                    bar.set_prefix(shorten(&super::terminal::line(file), 12));
                    bar
                });
                bar.set_length(total.max(1) as u64);
                bar.set_position(done as u64);
                bar.set_message(stage.label());
            }
            None => {
                // Without a terminal: one line when a stage starts and when it ends.
                let Ok(mut last) = self.last_line.lock() else {
                    return;
                };
                let previous = last.get(file).copied();
                let starts = previous.map(|(s, _)| s) != Some(stage);
                let ends = done == total && previous != Some((stage, done));
                if starts || ends {
                    warn_line!("{file}: {} {done}/{total}", stage.label());
                    last.insert(file.to_string(), (stage, done));
                }
            }
        }
    }

    fn cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }
}

fn shorten(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let tail: String = text.chars().take(width - 1).collect();
    format!("{tail}…")
}
