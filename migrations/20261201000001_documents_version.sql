-- A counter that every change to `documents` bumps, whichever process makes it, so
-- that a reader can keep what it derived from the table until the table changes.
CREATE TABLE documents_version (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    version  INTEGER NOT NULL
);
INSERT INTO documents_version (id, version) VALUES (1, 0);

CREATE TRIGGER documents_version_on_insert AFTER INSERT ON documents
BEGIN
    UPDATE documents_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER documents_version_on_update AFTER UPDATE ON documents
BEGIN
    UPDATE documents_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER documents_version_on_delete AFTER DELETE ON documents
BEGIN
    UPDATE documents_version SET version = version + 1 WHERE id = 1;
END;
