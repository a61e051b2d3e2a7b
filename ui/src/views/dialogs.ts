// Modal dialogs: a confirmation, and opening/closing with a fallback where <dialog> lacks showModal.

import { h } from '../dom';

export function openDialog(dialog: HTMLDialogElement): void {
  if (!dialog.isConnected) document.body.append(dialog);
  if (typeof dialog.showModal === 'function') {
    if (!dialog.open) dialog.showModal();
  } else {
    dialog.setAttribute('open', '');
  }
}

export function closeDialog(dialog: HTMLDialogElement): void {
  if (typeof dialog.close === 'function') dialog.close();
  else dialog.removeAttribute('open');
}

/** Asks a yes/no question in a modal; resolves true when confirmed. */
export function confirmDialog(title: string, message: string, confirmLabel: string): Promise<boolean> {
  return new Promise((resolve) => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    let answered = false;
    const finish = (ok: boolean) => {
      if (answered) return;
      answered = true;
      closeDialog(dialog);
      dialog.remove();
      opener?.focus();
      resolve(ok);
    };
    const cancel = h('button', { type: 'button', class: 'secondary', onclick: () => finish(false) }, 'Cancel');
    const confirm = h('button', { type: 'button', class: 'danger', onclick: () => finish(true) }, confirmLabel);
    const dialog = h(
      'dialog',
      { class: 'confirm', 'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-message' },
      h('h2', { id: 'confirm-title' }, title),
      h('p', { id: 'confirm-message' }, message),
      h('div', { class: 'actions' }, cancel, confirm),
    );
    dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      finish(false);
    });
    openDialog(dialog);
    cancel.focus();
  });
}
