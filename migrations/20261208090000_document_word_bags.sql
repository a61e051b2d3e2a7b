-- The whole-text index keeps a bag of each document's words (see src/word_bag.rs), not
-- its running text, so that a query reads a few entries per document instead of every
-- occurrence of its words. The bags are written in Rust: documents indexed before wait
-- in `document_words_unindexed` until the catalog is next opened.
DROP TABLE document_words;

CREATE VIRTUAL TABLE document_words USING fts5 (
    body,
    content = '',
    contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TABLE document_words_unindexed (
    document_id INTEGER PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE
);

INSERT INTO document_words_unindexed (document_id)
SELECT DISTINCT document_id FROM pages;

-- How many documents hold each word: a word most documents hold has no weight in BM25,
-- and is left out of a query rather than read.
CREATE VIRTUAL TABLE document_word_counts USING fts5vocab (document_words, row);
