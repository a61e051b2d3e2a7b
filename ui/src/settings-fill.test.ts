// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { EditedFields, untouched, writeControl } from './settings-fill';

describe('untouched', () => {
  it('keeps an edited field and fills an untouched one', () => {
    const writes = [
      ['model', 'llama3'],
      ['url', 'http://127.0.0.1:8080/v1'],
      ['ocr', true],
    ] as const;
    expect(untouched(writes, new Set(['model']))).toEqual([
      ['url', 'http://127.0.0.1:8080/v1'],
      ['ocr', true],
    ]);
  });

  it('fills every field when nothing was edited', () => {
    expect(untouched([['a', 'x'], ['b', false]], new Set<string>())).toEqual([
      ['a', 'x'],
      ['b', false],
    ]);
  });
});

describe('EditedFields', () => {
  type Inputs = [HTMLInputElement, HTMLInputElement, HTMLInputElement, HTMLInputElement];

  /** A form with two text inputs and a group of two radios. */
  function form(): { form: HTMLFormElement; text: HTMLInputElement; other: HTMLInputElement; a: HTMLInputElement; b: HTMLInputElement } {
    const form = document.createElement('form');
    form.innerHTML = '<input><input><input type="radio" name="mode" checked><input type="radio" name="mode">';
    document.body.append(form);
    const [text, other, a, b] = [...form.querySelectorAll('input')] as Inputs;
    return { form, text, other, a, b };
  }

  it('counts what a person types, not what code writes, until reset', () => {
    const { form: f, text, other } = form();
    const edits = new EditedFields();
    edits.watch(f);
    writeControl(other, 'from the library');
    text.value = 'typed';
    text.dispatchEvent(new Event('input', { bubbles: true }));
    expect(edits.has(text)).toBe(true);
    expect(edits.has(other)).toBe(false);
    // What the settings fill when they arrive: the typed text stays.
    for (const [control, value] of untouched<HTMLInputElement>([[text, ''], [other, 'arrived']], edits.fields)) {
      writeControl(control, value);
    }
    expect(text.value).toBe('typed');
    expect(other.value).toBe('arrived');
    edits.reset();
    expect(edits.fields.size).toBe(0);
  });

  it('counts a radio as an edit of its whole group', () => {
    const { form: f, a, b } = form();
    const edits = new EditedFields();
    edits.watch(f);
    b.click();
    expect(edits.has(a) && edits.has(b)).toBe(true);
    for (const [control, value] of untouched<HTMLInputElement>([[a, true], [b, false]], edits.fields)) {
      writeControl(control, value);
    }
    expect(b.checked).toBe(true);
  });
});
