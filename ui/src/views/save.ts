// Offers text for saving as a file. WebKitGTK saves through the shell's download handler
// (src-tauri/src/downloads.rs), which reports where the file went in one event for the
// whole window: the area that asked last shows it.

import { announce } from '../app';
import { onDownloadFinished } from '../api';
import { h, replace } from '../dom';
import { downloadOutcome } from '../format';

let objectUrl: string | null = null;
let reportTo: HTMLElement | null = null;
let listening: Promise<unknown> | null = null;

/** Starts listening once; a download started before the listener is in place would
 * report to nobody (a fast save finishes within the same tick). */
function listen(): Promise<unknown> {
  listening ??= onDownloadFinished((outcome) => {
    if (!reportTo) return;
    replace(reportTo, h('span', { class: outcome.ok ? 'saved' : 'error', role: 'status' }, downloadOutcome(outcome)));
    announce(downloadOutcome(outcome));
  });
  return listening;
}

/** Saves `text` as `name`, and shows a link to save it again (and then where it went) in `area`. */
export async function offerDownload(area: HTMLElement, text: string, name: string, type: string): Promise<void> {
  await listen();
  reportTo = area;
  if (objectUrl) URL.revokeObjectURL(objectUrl);
  objectUrl = URL.createObjectURL(new Blob([text], { type }));
  const link = h('a', { href: objectUrl, download: name, class: 'download' }, `Save ${name}`);
  replace(area, link, ` (${Math.max(1, Math.round(text.length / 1024))} KB)`);
  link.click();
}

/** Today as `YYYY-MM-DD`, for file names. */
export function dateStamp(): string {
  return new Date().toISOString().slice(0, 10);
}
