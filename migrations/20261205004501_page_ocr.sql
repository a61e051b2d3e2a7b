-- Whether a page's text is OCR's (see src/ocr): none for a text layer or a blank page;
-- 'read', 'nothing' (OCR found no words), 'failed', or 'needed' (a scan left unread
-- because OCR is off or Tesseract is missing).
ALTER TABLE pages ADD COLUMN ocr TEXT CHECK (ocr IN ('read', 'nothing', 'failed', 'needed'));

-- The words OCR read on a page, in reading order, each with its box in PDF points in
-- the page's own coordinates (origin at the bottom left), to mark citations on scans.
CREATE TABLE page_words (
    document_id  INTEGER NOT NULL,
    page_number  INTEGER NOT NULL,
    word_number  INTEGER NOT NULL,
    text         TEXT    NOT NULL,
    left_pt      REAL    NOT NULL,
    bottom_pt    REAL    NOT NULL,
    right_pt     REAL    NOT NULL,
    top_pt       REAL    NOT NULL,
    confidence   REAL    NOT NULL,
    PRIMARY KEY (document_id, page_number, word_number),
    FOREIGN KEY (document_id, page_number)
        REFERENCES pages (document_id, page_number) ON DELETE CASCADE
) WITHOUT ROWID;
