-- A document's identity card (JSON: organisation, kind, period, …), read from the
-- document itself at ingestion and correctable by hand.
ALTER TABLE documents ADD COLUMN card TEXT;
