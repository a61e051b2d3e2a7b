// Help → About (the version, the assets the app reads and where, the log folder), and
// the Library view's warning when an asset is missing, so that a broken install says
// which file is missing and how to get it before the first PDF fails.

import { api, errorMessage, type About } from '../api';
import { h } from '../dom';
import { closeDialog, openDialog } from './dialogs';

/** The facts `about` returned once: they do not change while the app runs. */
let facts: Promise<About> | null = null;

export function aboutFacts(): Promise<About> {
  facts ??= api.about();
  facts.catch(() => (facts = null));
  return facts;
}

/** A warning that shows itself when the app cannot find an asset it needs. */
export function createAssetsBanner(): HTMLElement {
  const banner = h('p', { class: 'error-banner', role: 'alert', hidden: true, 'data-testid': 'assets-problem' });
  void aboutFacts()
    .then((about) => {
      if (!about.assets_problem) return;
      banner.textContent = `PageTree cannot read PDFs yet: ${about.assets_problem}`;
      banner.hidden = false;
    })
    .catch(() => {});
  return banner;
}

/** Opens the About box. */
export async function openAbout(opener: HTMLElement): Promise<void> {
  let about: About;
  try {
    about = await aboutFacts();
  } catch (err) {
    about = { version: '?', assets: [], assets_folder: null, assets_problem: errorMessage(err), log_folder: null };
  }
  const close = h('button', { type: 'button', class: 'secondary' }, 'Close');
  const dialog = h(
    'dialog',
    { class: 'about', 'aria-labelledby': 'about-title', 'data-testid': 'about' },
    h('h2', { id: 'about-title' }, `PageTree ${about.version}`),
    h('p', {}, 'Questions over your PDFs, answered with the pages that say it.'),
    h(
      'table',
      { class: 'about-assets' },
      h('caption', {}, 'Built with'),
      h('tbody', {}, ...about.assets.map((asset) =>
        h('tr', {}, h('th', { scope: 'row' }, asset.name), h('td', {}, `${asset.package} ${asset.version}`)),
      )),
    ),
    h('p', {}, 'Assets: ', h('code', {}, about.assets_folder ?? 'not found')),
    about.assets_problem ? h('p', { class: 'error', role: 'alert' }, about.assets_problem) : null,
    h(
      'p',
      {},
      'Log: ',
      about.log_folder
        ? h('code', { 'data-testid': 'about-log-folder' }, about.log_folder)
        : 'standard error only (no log folder could be made)',
    ),
    h('div', { class: 'actions' }, close),
  );
  const finish = () => {
    closeDialog(dialog);
    dialog.remove();
    opener.focus();
  };
  close.addEventListener('click', finish);
  dialog.addEventListener('cancel', (e) => {
    e.preventDefault();
    finish();
  });
  openDialog(dialog);
  close.focus();
}
