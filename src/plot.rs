//! SVG charts of a search's score curves: one per trace step, scores sorted descending,
//! the knee marked and the kept part drawn apart from the cut part.

use std::path::{Path, PathBuf};

use plotters::prelude::*;

use crate::search::TraceStep;

#[derive(Debug, thiserror::Error)]
#[error("could not draw {path}: {detail}")]
pub struct PlotError {
    pub path: String,
    pub detail: String,
}

/// Writes `<dir>/<prefix>-step-<n>.svg` for every step; returns the files written.
pub fn plot_trace(
    dir: &Path,
    prefix: &str,
    trace: &[TraceStep],
) -> Result<Vec<PathBuf>, PlotError> {
    std::fs::create_dir_all(dir).map_err(|e| PlotError {
        path: dir.display().to_string(),
        detail: e.to_string(),
    })?;
    let mut written = Vec::new();
    for (index, step) in trace.iter().enumerate() {
        let path = dir.join(format!("{prefix}-step-{}.svg", index + 1));
        draw_step(
            &path,
            &format!("{prefix} step {}: {}", index + 1, step.label),
            step,
        )
        .map_err(|e| PlotError {
            path: path.display().to_string(),
            detail: e,
        })?;
        written.push(path);
    }
    Ok(written)
}

fn draw_step(path: &Path, title: &str, step: &TraceStep) -> Result<(), String> {
    let scores: Vec<f32> = step.candidates.iter().map(|c| c.score).collect();
    let root = SVGBackend::new(path, (640, 400)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let count = scores.len().max(1);
    let top = scores.iter().copied().fold(0.0f32, f32::max).max(1e-6) * 1.05;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(0f32..count as f32, 0f32..top)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("rank")
        .y_desc("RRF score")
        .draw()
        .map_err(|e| e.to_string())?;
    let points: Vec<(f32, f32)> = scores
        .iter()
        .enumerate()
        .map(|(i, &s)| (i as f32, s))
        .collect();
    let kept = step.kept.min(points.len());
    chart
        .draw_series(LineSeries::new(points.iter().copied(), &BLUE))
        .map_err(|e| e.to_string())?
        .label("score, best first")
        .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], BLUE));
    chart
        .draw_series(
            points[..kept]
                .iter()
                .map(|&(x, y)| Circle::new((x, y), 3, BLUE.filled())),
        )
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(
            points[kept..]
                .iter()
                .map(|&(x, y)| Circle::new((x, y), 3, RGBColor(170, 170, 170).filled())),
        )
        .map_err(|e| e.to_string())?;
    if let Some(knee) = step.knee_index.filter(|&k| k < points.len()) {
        let (x, y) = points[knee];
        chart
            .draw_series(std::iter::once(Circle::new((x, y), 7, RED.stroke_width(2))))
            .map_err(|e| e.to_string())?
            .label(format!("knee at rank {}", knee + 1))
            .legend(|(x, y)| Circle::new((x + 8, y), 5, RED.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::ScoredNode;

    #[test]
    fn writes_one_svg_per_step_with_the_knee_marked() {
        let dir = tempfile::tempdir().expect("temp dir");
        let step = TraceStep {
            label: "roots".into(),
            candidates: [0.5, 0.3, 0.1, 0.09, 0.08]
                .iter()
                .enumerate()
                .map(|(i, &score)| ScoredNode {
                    id: i as u64,
                    score,
                })
                .collect(),
            knee_index: Some(1),
            kept: 2,
            eliminated: vec![],
            beam: vec![0, 1],
        };
        let files = plot_trace(dir.path(), "knee", &[step.clone(), step]).expect("drawn");
        assert_eq!(files.len(), 2);
        let svg = std::fs::read_to_string(&files[0]).expect("read");
        assert!(
            svg.starts_with("<svg") && svg.contains("knee at rank 2"),
            "{}",
            &svg[..200.min(svg.len())]
        );
    }
}
