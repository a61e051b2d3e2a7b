-- The process writing a document while its status is 'ingesting' (see src/owner.rs),
-- so that start-up removes a half-written document only when its writer is gone;
-- none for documents begun before it was recorded.
ALTER TABLE documents ADD COLUMN ingest_owner TEXT;
