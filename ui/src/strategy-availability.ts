// Which strategies can run with the app's settings, and in words why one cannot, so
// Compare leaves it unticked instead of letting the run skip it.

import type { AppSettings, StrategyName } from './api';

const filled = (value: string | null | undefined): boolean => (value ?? '').trim() !== '';

/** Why `name` cannot run with `settings`, or null when it can. */
export function unavailableReason(
  name: StrategyName,
  settings: Pick<AppSettings, 'llm_base_url' | 'llm_model'> | null,
): string | null {
  if (name !== 'proxy-pointer') return null;
  // Before the settings arrive nothing is known; the run itself reports a missing model.
  if (!settings) return null;
  if (!filled(settings.llm_base_url) && !filled(settings.llm_model)) {
    return 'Needs a language model: set its server and model in Settings.';
  }
  if (!filled(settings.llm_base_url)) return 'Needs the language model’s server address: set it in Settings.';
  if (!filled(settings.llm_model)) return 'Needs a language model: choose one in Settings.';
  return null;
}
