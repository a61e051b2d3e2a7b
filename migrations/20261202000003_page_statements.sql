-- Which primary financial statement a page is ('balance-sheet', 'income-statement',
-- 'cash-flows'), read from its heading when the page is saved; '' for any other page.
-- NULL marks a page saved before this column: the catalog reads those once on opening.
ALTER TABLE pages ADD COLUMN statement TEXT;
CREATE INDEX pages_by_statement ON pages (statement) WHERE statement <> '';
