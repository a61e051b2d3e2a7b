// A PDF's text layer breaks every printed line; shown in a pane of another width, a
// paragraph reads ragged, cut mid-sentence. The page text is reflowed where a line
// plainly continues the one before it, and every other break (headings, table rows,
// list items, blank lines) is kept.

/**
 * The text with the line breaks inside sentences turned into spaces: a break whose line
 * does not end a sentence or a clause (. ! ? : ;) or a hyphenated word (`informa-`, which
 * reads better broken than as `informa- tion`) and whose next line starts with a
 * lower-case letter. Each break becomes as many spaces as it had characters, so offsets
 * into the text (the marks of a cited passage) stay valid.
 */
export function reflow(text: string): string {
  return text.replace(/([^\s.!?:;\-\u00AD])([ \t]*)(\r?\n)(?=[ \t]*\p{Ll})/gu, (_, last: string, gap: string, br: string) =>
    `${last}${gap}${' '.repeat(br.length)}`,
  );
}
