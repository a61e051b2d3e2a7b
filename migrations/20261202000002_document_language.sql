-- The language a document's text is in (a Snowball stemmer name such as 'russian'),
-- detected at ingestion; none for documents ingested before, or when it could not be told.
ALTER TABLE documents ADD COLUMN language TEXT;
