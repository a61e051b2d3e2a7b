-- The number printed on a page as the PDF's page labels give it ("47", "xii"): what a
-- citation shows beside the PDF page and what "page 47" in a question means. NULL for a
-- PDF without labels and for pages saved before labels were read.
ALTER TABLE pages ADD COLUMN label TEXT;

-- A question naming a page looks its label up across the library.
CREATE INDEX pages_by_label ON pages (label COLLATE NOCASE) WHERE label IS NOT NULL;
