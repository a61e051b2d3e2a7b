-- Documents of a library, their page texts, and library settings.
CREATE TABLE documents (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    content_hash  TEXT    NOT NULL,
    name          TEXT    NOT NULL UNIQUE,
    file_name     TEXT    NOT NULL,
    path          TEXT    NOT NULL,
    page_count    INTEGER,
    node_count    INTEGER,
    status        TEXT    NOT NULL CHECK (status IN ('ingesting', 'ready', 'failed')),
    error         TEXT,
    describer     TEXT,
    warnings      TEXT,
    added_at      TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at    TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE UNIQUE INDEX documents_by_hash ON documents (content_hash);

CREATE TABLE pages (
    document_id  INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    page_number  INTEGER NOT NULL,
    text         TEXT    NOT NULL,
    has_text     INTEGER NOT NULL,
    PRIMARY KEY (document_id, page_number)
);

CREATE TABLE settings (
    key    TEXT PRIMARY KEY,
    value  TEXT NOT NULL
);
