-- Every document's words, its pages' text as one body: a question's words that its text
-- holds, wherever they are, rank the document at a search's first step (BM25 over whole
-- documents). Contentless: the text stays in `pages`, only the index is kept here.
CREATE VIRTUAL TABLE document_words USING fts5 (
    body,
    content = '',
    contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);

INSERT INTO document_words (rowid, body)
SELECT document_id, group_concat(text, ' ')
FROM (SELECT document_id, text FROM pages ORDER BY document_id, page_number)
GROUP BY document_id;

CREATE TRIGGER document_words_of_deleted_document AFTER DELETE ON documents
BEGIN
    DELETE FROM document_words WHERE rowid = old.id;
END;
