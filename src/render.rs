//! Renders one page of a PDF to a PNG, for thumbnails and the page viewer.

use std::path::Path;

use pdfium_render::prelude::{PdfDocument, PdfRenderConfig};

use crate::pdf::{with_document, PdfError};

/// Narrowest and widest renders: below 16 px nothing is legible, above 3,000 px one
/// page costs tens of megabytes and a single call would stall every other pdfium user.
pub(crate) const MIN_WIDTH: u32 = 16;
pub const MAX_WIDTH: u32 = 3_000;
/// Tallest render: an A4 or US legal page at the widest width is 4,243 or 5,100 px
/// high; a strip-shaped page (a receipt, a scroll) would otherwise grow without limit
/// at that width, so it is drawn narrower instead, about 72 MB of pixels at most.
pub const MAX_HEIGHT: u32 = 6_000;

#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error(transparent)]
    Pdf(#[from] PdfError),
    #[error("{file} has {pages} pages; there is no page {page}")]
    NoSuchPage { file: String, page: u32, pages: u32 },
    #[error("{file}: page {page} could not be drawn ({detail})")]
    Render {
        file: String,
        page: u32,
        detail: String,
    },
}

/// Draws page `page` (1-based) of `path` `width` pixels wide (clamped to
/// `MIN_WIDTH..=MAX_WIDTH`, and narrower when the page would be taller than
/// `MAX_HEIGHT`), keeping its aspect ratio, and encodes it as PNG.
pub fn render_page_png(
    pdfium_library: &Path,
    path: &Path,
    page: u32,
    width: u32,
) -> Result<Vec<u8>, RenderError> {
    with_document(pdfium_library, path, |document, file| {
        render(document, file, page, width)
    })
}

fn render(
    document: &PdfDocument<'_>,
    file: &str,
    page: u32,
    width: u32,
) -> Result<Vec<u8>, RenderError> {
    let pages = document.pages();
    let count = u32::try_from(pages.len()).unwrap_or(0);
    let render_error = |detail: String| RenderError::Render {
        file: file.to_string(),
        page,
        detail,
    };
    let index = page
        .checked_sub(1)
        .filter(|index| *index < count)
        .and_then(|index| i32::try_from(index).ok())
        .ok_or_else(|| RenderError::NoSuchPage {
            file: file.to_string(),
            page,
            pages: count,
        })?;
    let pdf_page = pages
        .get(index)
        .map_err(|err| render_error(err.to_string()))?;
    let width = width.clamp(MIN_WIDTH, MAX_WIDTH);
    let config = PdfRenderConfig::new()
        .set_target_width(width as i32)
        .set_maximum_height(MAX_HEIGHT as i32);
    let bitmap = pdf_page
        .render_with_config(&config)
        .map_err(|err| render_error(err.to_string()))?;
    let (w, h) = (bitmap.width() as u32, bitmap.height() as u32);
    encode_png(&bitmap.as_rgba_bytes(), w, h).map_err(render_error)
}

fn encode_png(rgba: &[u8], width: u32, height: u32) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    // Thumbnails are requested by the dozen while a tree scrolls: fast beats small.
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(|err| err.to_string())?;
    writer
        .write_image_data(rgba)
        .map_err(|err| err.to_string())?;
    writer.finish().map_err(|err| err.to_string())?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_a_decodable_png_of_the_right_size() {
        let rgba: Vec<u8> = (0..4 * 3 * 4).map(|i| i as u8).collect();
        let bytes = encode_png(&rgba, 4, 3).expect("encoding 4x3 pixels");
        let reader = png::Decoder::new(std::io::Cursor::new(bytes))
            .read_info()
            .expect("a PNG header");
        assert_eq!((reader.info().width, reader.info().height), (4, 3));
    }

    #[test]
    fn refuses_pixels_that_do_not_match_the_size() {
        assert!(encode_png(&[0; 10], 4, 3).is_err());
    }
}
