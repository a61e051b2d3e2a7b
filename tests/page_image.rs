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
