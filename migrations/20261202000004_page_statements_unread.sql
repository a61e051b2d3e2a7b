-- The pages whose statement has not been read yet (saved before 20261202000003): every
-- opening of a library looks for them, and without this index that look read the whole
-- table, page texts and all.
CREATE INDEX pages_statement_unread ON pages (document_id, page_number) WHERE statement IS NULL;
