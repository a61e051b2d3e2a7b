// The library's settings arrive a moment after the Settings view opens; what a person
// typed in the meantime must survive them (and be what Save sends).

/** A form control's value: an input's or a select's text, or a box's tick. */
export type FieldValue = string | boolean;

/** The writes to make when the settings arrive: those of fields nobody has edited. */
export function untouched<K>(
  writes: Iterable<readonly [K, FieldValue]>,
  edited: Pick<ReadonlySet<NoInfer<K>>, 'has'>,
): [K, FieldValue][] {
  return [...writes].filter(([key]) => !edited.has(key)).map(([key, value]) => [key, value]);
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

function isControl(target: EventTarget | null): target is Control {
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
}

/** The controls of a form a person has typed in, picked or ticked since the last `reset`. */
export class EditedFields {
  private readonly edited = new Set<Element>();

  /** Counts every input or change under `form` as an edit of its control; a radio edits its whole group. */
  watch(form: HTMLFormElement): void {
    const mark = (event: Event): void => {
      const target = event.target;
      if (!isControl(target)) return;
      if (target instanceof HTMLInputElement && target.type === 'radio' && target.name !== '') {
        for (const radio of form.querySelectorAll<HTMLInputElement>('input[type="radio"]')) {
          if (radio.name === target.name) this.edited.add(radio);
        }
      } else {
        this.edited.add(target);
      }
    };
    form.addEventListener('input', mark);
    form.addEventListener('change', mark);
  }

  get fields(): ReadonlySet<Element> {
    return this.edited;
  }

  has(el: Element): boolean {
    return this.edited.has(el);
  }

  reset(): void {
    this.edited.clear();
  }
}

/** Writes `value` into `control`: a tick for boxes and radios, text for the rest. */
export function writeControl(control: Control, value: FieldValue): void {
  if (typeof value === 'boolean') {
    if (control instanceof HTMLInputElement) control.checked = value;
  } else {
    control.value = value;
  }
}
