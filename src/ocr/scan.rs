//! A page drawn for OCR: grey pixels at about 300 dpi, and the way back from a pixel to
//! the page's own coordinates.

use pdfium_render::prelude::{PdfPage, PdfPageObjectsCommon, PdfRenderConfig};

use super::PageRect;

/// Tesseract reads best at 300 dpi; fewer loses small print, more only costs time.
pub(crate) const OCR_DPI: f32 = 300.0;
/// Longest side of a render: a poster-sized page is drawn at less than 300 dpi rather
/// than as hundreds of megabytes of pixels (A3 at 300 dpi is 4,961 px long).
const MAX_SIDE: f32 = 5_000.0;
/// Darker than this is ink.
const INK_LEVEL: u8 = 128;
/// A page with less ink than this share of its pixels (a speck, a ruled line's end)
/// has nothing to read: 1 in 20,000 is about 430 pixels of an A4 page.
const INK_SHARE: usize = 20_000;

/// An 8-bit grey image, rows top to bottom without padding.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct GrayImage {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

impl GrayImage {
    /// The image as binary PGM, which Tesseract reads from its standard input without
    /// the cost of compressing it first.
    pub fn to_pgm(&self) -> Vec<u8> {
        let header = format!("P5\n{} {}\n255\n", self.width, self.height);
        let mut out = Vec::with_capacity(header.len() + self.pixels.len());
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(&self.pixels);
        out
    }

    /// Whether anything is drawn: a page with no ink has nothing for OCR to read.
    pub fn has_ink(&self) -> bool {
        let dark = self.pixels.iter().filter(|&&p| p < INK_LEVEL).count();
        dark > 0 && dark >= self.pixels.len() / INK_SHARE
    }

    /// From pdfium's 4-byte BGRx rows (each `stride` bytes long) to grey.
    fn from_bgrx(bytes: &[u8], width: u32, height: u32) -> Option<Self> {
        let stride = bytes.len().checked_div(height as usize)?;
        if stride < width as usize * 4 {
            return None;
        }
        let mut pixels = Vec::with_capacity(width as usize * height as usize);
        for row in bytes.chunks_exact(stride) {
            for bgrx in row[..width as usize * 4].chunks_exact(4) {
                // ITU-R BT.601 luma, in integers.
                let (b, g, r) = (bgrx[0] as u32, bgrx[1] as u32, bgrx[2] as u32);
                pixels.push(((299 * r + 587 * g + 114 * b) / 1000) as u8);
            }
        }
        Some(Self {
            width,
            height,
            pixels,
        })
    }
}

/// From a pixel of a render to the page's coordinates in PDF points (origin at the
/// bottom left of the page's box, as pdfium gives character boxes), whatever the
/// page's rotation: an affine map fixed by three corners.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PageTransform {
    origin: (f32, f32),
    /// Where one pixel to the right, and one pixel down, move in points.
    per_x: (f32, f32),
    per_y: (f32, f32),
}

impl PageTransform {
    fn from_corners(
        top_left: (f32, f32),
        top_right: (f32, f32),
        bottom_left: (f32, f32),
        width: u32,
        height: u32,
    ) -> Self {
        let (w, h) = (width.max(1) as f32, height.max(1) as f32);
        Self {
            origin: top_left,
            per_x: (
                (top_right.0 - top_left.0) / w,
                (top_right.1 - top_left.1) / w,
            ),
            per_y: (
                (bottom_left.0 - top_left.0) / h,
                (bottom_left.1 - top_left.1) / h,
            ),
        }
    }

    fn point(&self, x: f32, y: f32) -> (f32, f32) {
        (
            self.origin.0 + self.per_x.0 * x + self.per_y.0 * y,
            self.origin.1 + self.per_x.1 * x + self.per_y.1 * y,
        )
    }

    /// A box of pixels as a rectangle of points.
    pub fn rect(&self, left: u32, top: u32, width: u32, height: u32) -> PageRect {
        let (x0, y0) = self.point(left as f32, top as f32);
        let (x1, y1) = self.point((left + width) as f32, (top + height) as f32);
        PageRect {
            left: x0.min(x1),
            bottom: y0.min(y1),
            right: x0.max(x1),
            top: y0.max(y1),
        }
    }
}

/// What drawing a page for OCR found.
#[derive(Debug)]
pub(crate) enum Drawn {
    /// Nothing on the page to read.
    Blank,
    Image {
        image: GrayImage,
        transform: PageTransform,
    },
}

/// Whether `page` has anything on it to draw; a scan always has.
pub(crate) fn draws_anything(page: &PdfPage<'_>) -> bool {
    !page.objects().is_empty()
}

/// Draws `page` at [`OCR_DPI`] (less for a page so large it would pass [`MAX_SIDE`]).
pub(crate) fn draw_for_ocr(page: &PdfPage<'_>) -> Result<Drawn, String> {
    if !draws_anything(page) {
        return Ok(Drawn::Blank);
    }
    let longest = page.width().value.max(page.height().value).max(1.0);
    let scale = (OCR_DPI / 72.0).min(MAX_SIDE / longest);
    let config = PdfRenderConfig::new()
        .scale_page_by_factor(scale)
        .use_grayscale_rendering(true);
    let bitmap = page
        .render_with_config(&config)
        .map_err(|err| err.to_string())?;
    let (width, height) = (bitmap.width().max(0) as u32, bitmap.height().max(0) as u32);
    let image = GrayImage::from_bgrx(&bitmap.as_raw_bytes(), width, height)
        .ok_or_else(|| format!("pdfium drew a {width}×{height} page of an unexpected size"))?;
    if !image.has_ink() {
        return Ok(Drawn::Blank);
    }
    let corner = |x: u32, y: u32| {
        page.pixels_to_points(x as i32, y as i32, &config)
            .map(|(x, y)| (x.value, y.value))
            .map_err(|err| err.to_string())
    };
    let transform = PageTransform::from_corners(
        corner(0, 0)?,
        corner(width, 0)?,
        corner(0, height)?,
        width,
        height,
    );
    Ok(Drawn::Image { image, transform })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgm_has_a_header_and_the_pixels() {
        let image = GrayImage {
            width: 3,
            height: 2,
            pixels: vec![0, 1, 2, 3, 4, 5],
        };
        let pgm = image.to_pgm();
        assert!(pgm.starts_with(b"P5\n3 2\n255\n"));
        assert_eq!(&pgm[pgm.len() - 6..], &[0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn converts_padded_bgrx_rows_to_grey() {
        // Two pixels a row, and four bytes of padding at the end of each.
        let rows = [
            [255, 255, 255, 255, 0, 0, 0, 255, 9, 9, 9, 9],
            [0, 0, 255, 255, 255, 0, 0, 255, 9, 9, 9, 9],
        ]
        .concat();
        let image = GrayImage::from_bgrx(&rows, 2, 2).expect("converts");
        assert_eq!(image.pixels, vec![255, 0, 76, 29]);
        assert!(
            GrayImage::from_bgrx(&rows, 4, 2).is_none(),
            "rows too short"
        );
    }

    #[test]
    fn ink_is_more_than_a_speck() {
        let mut image = GrayImage {
            width: 1000,
            height: 1000,
            pixels: vec![255; 1_000_000],
        };
        assert!(!image.has_ink());
        image.pixels[..10].fill(0);
        assert!(!image.has_ink(), "ten dark pixels are a speck");
        image.pixels[..2_000].fill(0);
        assert!(image.has_ink());
    }

    #[test]
    fn pixels_map_to_points_on_an_upright_and_a_turned_page() {
        // A 612 × 792 pt page drawn at 2 px a point: y grows downwards in pixels.
        let upright =
            PageTransform::from_corners((0.0, 792.0), (612.0, 792.0), (0.0, 0.0), 1224, 1584);
        let rect = upright.rect(100, 200, 50, 20);
        assert_eq!(
            (rect.left, rect.bottom, rect.right, rect.top),
            (50.0, 682.0, 75.0, 692.0)
        );
        // Turned a quarter: the render's x runs down the page's y.
        let turned =
            PageTransform::from_corners((0.0, 0.0), (0.0, 792.0), (612.0, 0.0), 1584, 1224);
        let rect = turned.rect(100, 200, 50, 20);
        assert_eq!(
            (rect.left, rect.bottom, rect.right, rect.top),
            (100.0, 50.0, 110.0, 75.0)
        );
    }
}
