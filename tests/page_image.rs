//! Pages drawn by PDFium for the app's thumbnails and page viewer.

mod common;

use common::{fixture, open_library};
use pagetree::ingest::{IngestOutcome, NoProgress};

fn png_size(bytes: &[u8]) -> (u32, u32) {
    let reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .expect("a PNG");
    (reader.info().width, reader.info().height)
}

#[tokio::test]
async fn a_page_is_drawn_at_the_asked_width_and_bad_requests_are_explained() {
    let dir = tempfile::tempdir().expect("temp dir");
    let copy = dir.path().join("pages.pdf");
    std::fs::copy(fixture("multipage.pdf"), &copy).expect("copy");
    let library = open_library(&dir.path().join("library")).await;
    let IngestOutcome::Added { document, .. } =
        library.ingest(&copy, &NoProgress).await.expect("ingests")
    else {
        panic!("added")
    };

    let thumbnail = library.page_image(document.id, 2, 96).await.expect("drawn");
    let (width, height) = png_size(&thumbnail);
    assert_eq!(width, 96);
    assert!(height > width, "a portrait page, got {width}x{height}");
    let large = library
        .page_image(document.id, 2, 1000)
        .await
        .expect("drawn");
    assert_eq!(png_size(&large).0, 1000);

    let err = library
        .page_image(document.id, 7, 96)
        .await
        .expect_err("page 7 of 6");
    assert!(err.to_string().contains("there is no page 7"), "{err}");

    std::fs::remove_file(&copy).expect("remove");
    let err = library
        .page_image(document.id, 1, 96)
        .await
        .expect_err("the file is gone");
    assert!(err.to_string().contains("no longer at"), "{err}");
}

/// A one-page PDF of `width` x `height` points with nothing on it, offsets and all.
fn blank_pdf(width: u32, height: u32) -> Vec<u8> {
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        format!("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width} {height}] >>"),
    ];
    let mut pdf = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (index, object) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend(format!("{} 0 obj\n{object}\nendobj\n", index + 1).bytes());
    }
    let xref = pdf.len();
    pdf.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).bytes());
    for offset in offsets {
        pdf.extend(format!("{offset:010} 00000 n \n").bytes());
    }
    pdf.extend(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .bytes(),
    );
    pdf
}

#[tokio::test]
async fn a_strip_shaped_page_is_drawn_no_taller_than_the_cap() {
    let dir = tempfile::tempdir().expect("temp dir");
    let strip = dir.path().join("strip.pdf");
    // 1:5, so that the widest render would be 15,000 px high (180 MB of pixels); kept
    // that small so that the test itself, run without the cap, stays affordable.
    std::fs::write(&strip, blank_pdf(100, 500)).expect("write");
    let library = open_library(&dir.path().join("library")).await;
    let pdfium = library.assets().expect("assets").pdfium_library.clone();
    let png = tokio::task::spawn_blocking(move || {
        pagetree::render::render_page_png(&pdfium, &strip, 1, pagetree::render::MAX_WIDTH)
    })
    .await
    .expect("joins")
    .expect("drawn");
    let (width, height) = png_size(&png);
    assert_eq!(height, pagetree::render::MAX_HEIGHT, "{width}x{height}");
    assert_eq!(width, 1_200, "the aspect ratio is kept: {width}x{height}");
}

/// How long the page viewer waits for one page of a real filing drawn 1000 px wide (as
/// `page_image` does for the viewer): the median of 15. A measurement, not a check:
/// `cargo test --test page_image -- --ignored --nocapture viewer_page_timing`.
#[test]
#[ignore = "a timing; run it by name"]
fn viewer_page_timing() {
    let filing = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/bench/financebench-dev/pdfs/FOOTLOCKER_2022_8K_dated-2022-05-20.pdf");
    let assets = pagetree::assets::Assets::locate(None, None).expect("the assets");
    let mut times: Vec<f64> = (0..15)
        .map(|_| {
            let start = std::time::Instant::now();
            let png = pagetree::render::render_page_png(&assets.pdfium_library, &filing, 1, 1000)
                .expect("drawn");
            assert!(!png.is_empty());
            start.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "viewer page (1000 px): median {:.1} ms, fastest {:.1}, slowest {:.1}",
        times[7], times[0], times[14]
    );
}
