-- Conversations, their turns, every run (search, compare, ask, bench) and answers.
CREATE TABLE conversations (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    title       TEXT NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE runs (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    kind             TEXT NOT NULL CHECK (kind IN ('search', 'compare', 'ask', 'bench')),
    conversation_id  INTEGER REFERENCES conversations (id) ON DELETE CASCADE,
    question         TEXT NOT NULL,
    strategy         TEXT,
    -- JSON: the strategy with its parameters, and the search settings.
    settings         TEXT NOT NULL DEFAULT '{}',
    -- JSON: selected nodes, pages in the context, the trace (or bench metrics).
    selected         TEXT NOT NULL DEFAULT '[]',
    pages            TEXT NOT NULL DEFAULT '[]',
    trace            TEXT NOT NULL DEFAULT '[]',
    metrics          TEXT,
    context_tokens   INTEGER,
    latency_ms       REAL,
    embed_ms         REAL,
    status           TEXT NOT NULL CHECK (status IN ('ok', 'failed')),
    error            TEXT,
    created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX runs_by_conversation ON runs (conversation_id);

CREATE TABLE answers (
    run_id          INTEGER PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    text            TEXT NOT NULL,
    citations       TEXT NOT NULL DEFAULT '[]',
    removed         TEXT NOT NULL DEFAULT '[]',
    uncited         INTEGER NOT NULL DEFAULT 0,
    model           TEXT,
    first_token_ms  REAL,
    total_ms        REAL
);
