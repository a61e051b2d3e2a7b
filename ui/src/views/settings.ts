// Settings: the language model, the embedding model, the vector index, and the search
// defaults every other view starts from.

import {
  ANSWER_DEADLINE,
  api,
  defaultFusion,
  errorMessage,
  STRATEGY_NAMES,
  type AppSettings,
  type DenseModelId,
  type LocalModelStatus,
  type LocalServer,
  type LocalServerKind,
  type QdrantMode,
  type Strategy,
  type StrategyName,
} from '../api';
import { announce, bus, setSettings, state } from '../app';
import { busy, field, h, markInvalid } from '../dom';
import {
  completeStrategies,
  fusionFromJson,
  settingsToValues,
  STRATEGY_HELP,
  strategyLabel,
  valuesToSettings,
} from '../strategy-form';
import { fusionFields, fusionMethodSelect, paramsEditor, type ParamsEditor } from './parts';
import { readCluster } from '../cluster-form';
import { DENSE_MODEL_IDS, DENSE_MODELS, isDenseModelId, modelChange, modelChangeNote } from '../model-choice';
import { confirmDialog } from './dialogs';
import { EditedFields, untouched, writeControl, type FieldValue } from '../settings-fill';

const baseUrl = h('input', { id: 'set-llm-url', type: 'url', placeholder: 'http://127.0.0.1:8080/v1', autocomplete: 'off' });
const model = h('input', { id: 'set-llm-model', type: 'text', placeholder: 'model name', autocomplete: 'off' });
const apiKey = h('input', {
  id: 'set-llm-key',
  type: 'password',
  autocomplete: 'new-password',
  placeholder: 'unchanged',
  'data-testid': 'llm-key',
});
const keyNote = h('p', { class: 'hint key-note', id: 'set-llm-key-note' });
// Beside each URL: the shell's sentence when the key would cross the network in clear.
const llmKeyWarning = h('p', {
  class: 'key-warning',
  id: 'set-llm-url-warning',
  role: 'status',
  'data-testid': 'llm-key-warning',
  hidden: true,
});
const deadline = h('input', {
  id: 'set-llm-deadline',
  type: 'number',
  min: ANSWER_DEADLINE.min,
  max: ANSWER_DEADLINE.max,
  step: 1,
  inputmode: 'numeric',
  'data-testid': 'llm-deadline',
});
const findServers = h('button', { type: 'button', class: 'secondary', 'data-testid': 'find-local-servers' }, 'Look again');
const localServers = h('ul', { class: 'local-servers', 'data-testid': 'local-servers' });
const localServersNote = h('p', { class: 'hint', role: 'status', 'data-testid': 'local-servers-note' });
const useModelFile = h('button', { type: 'button', class: 'secondary', 'data-testid': 'use-model-file' }, 'Use a model file (.gguf)…');
const stopModelFile = h('button', { type: 'button', class: 'secondary', 'data-testid': 'stop-model-file', hidden: true }, 'Stop serving it');
const modelFileStatus = h('p', { class: 'hint', role: 'status', 'data-testid': 'model-file-status' });
let settingsForm: HTMLFormElement | null = null;
const testButton = h('button', { type: 'button', class: 'secondary' }, 'Test connection');
const testResult = h('p', { class: 'test-result', role: 'status' });
const libraryModel = h('p', { class: 'muted', 'data-testid': 'library-model' });
const denseModel = h(
  'select',
  { id: 'set-dense-model', 'data-testid': 'dense-model' },
  ...DENSE_MODEL_IDS.map((id) => h('option', { value: id }, DENSE_MODELS[id].label)),
);
const denseModelNote = h('p', { class: 'hint', role: 'status', 'data-testid': 'dense-model-note' });
const embedDir = h('input', { id: 'set-embed-dir', type: 'text', placeholder: 'default (the bundled model)', autocomplete: 'off' });
const modeEmbedded = h('input', { type: 'radio', name: 'qdrant-mode', id: 'qdrant-embedded', value: 'embedded', checked: true });
const modeRemote = h('input', { type: 'radio', name: 'qdrant-mode', id: 'qdrant-remote', value: 'remote' });
const qdrantUrl = h('input', { id: 'set-qdrant-url', type: 'url', placeholder: 'http://localhost:6334', autocomplete: 'off' });
const qdrantKey = h('input', { id: 'set-qdrant-key', type: 'password', autocomplete: 'new-password', placeholder: 'unchanged' });
const qdrantKeyNote = h('p', { class: 'hint key-note', id: 'set-qdrant-key-note' });
const qdrantKeyWarning = h('p', {
  class: 'key-warning',
  id: 'set-qdrant-url-warning',
  role: 'status',
  'data-testid': 'qdrant-key-warning',
  hidden: true,
});
const shards = h('input', { id: 'set-qdrant-shards', type: 'number', min: 1, step: 1, placeholder: 'auto', inputmode: 'numeric' });
const replicas = h('input', { id: 'set-qdrant-replicas', type: 'number', min: 1, step: 1, inputmode: 'numeric' });
const writeConsistency = h('input', { id: 'set-qdrant-write', type: 'number', min: 1, step: 1, inputmode: 'numeric' });
const rrfK = h('input', { id: 'set-rrf', type: 'number', min: 1, step: 1, inputmode: 'numeric' });
const fusionMethod = fusionMethodSelect('set-fusion');
const fusion = fusionFields(fusionMethod, rrfK, 'The reciprocal rank fusion constant.');
const budget = h('input', { id: 'set-budget', type: 'number', min: 1, step: 100, placeholder: 'no limit', inputmode: 'numeric' });
const ocr = h('input', { id: 'set-ocr', type: 'checkbox', 'data-testid': 'ocr' });
const ocrEngine = h('p', { class: 'hint', 'data-testid': 'ocr-engine' });
const save = h('button', { type: 'submit', class: 'primary', 'data-testid': 'settings-save' }, 'Save');
const saveResult = h('p', { class: 'save-result', role: 'status' });
const editors = new Map<StrategyName, ParamsEditor>();
const editorSlots = new Map<StrategyName, HTMLElement>();
const edits = new EditedFields();

function text(value: string | null): string {
  return value ?? '';
}

function orNull(input: HTMLInputElement): string | null {
  const v = input.value.trim();
  return v === '' ? null : v;
}

function mode(): QdrantMode {
  return modeRemote.checked ? 'remote' : 'embedded';
}

function chosenDenseModel(): DenseModelId {
  return isDenseModelId(denseModel.value) ? denseModel.value : 'minilm';
}

/** The hint under the model select: what the model is for, and what choosing it costs. */
function syncDenseModel(): void {
  const chosen = chosenDenseModel();
  const change = modelChangeNote(state.settings?.dense_model, chosen, state.documents);
  denseModelNote.textContent = [DENSE_MODELS[chosen].help, change].filter((t) => t !== '').join(' ');
}

function syncMode(): void {
  const remote = mode() === 'remote';
  for (const input of [qdrantUrl, qdrantKey, shards, replicas, writeConsistency]) input.disabled = !remote;
  void syncKeyWarnings();
}

function showWarning(el: HTMLElement, warning: string | null): void {
  el.hidden = warning === null;
  el.textContent = warning === null ? '' : `⚠ ${warning.charAt(0).toUpperCase()}${warning.slice(1)}.`;
}

let warningsAsked = 0;
let warningsTimer: ReturnType<typeof setTimeout> | undefined;

/** Asks the shell whether the form's URLs and keys (a typed key, else the stored one)
 * would send a key in clear; the rule is the shell's, the same the CLI warns by. */
async function syncKeyWarnings(): Promise<void> {
  const base = state.settings;
  if (!base) return;
  const asked = ++warningsAsked;
  const form: AppSettings = {
    ...base,
    llm_base_url: orNull(baseUrl),
    llm_api_key: apiKey.value === '' ? null : apiKey.value,
    qdrant_mode: mode(),
    qdrant_url: orNull(qdrantUrl),
    qdrant_api_key: qdrantKey.value === '' ? null : qdrantKey.value,
  };
  try {
    const warnings = await api.settingsWarnings(form);
    // A later edit asked again; its answer is the one to show.
    if (asked !== warningsAsked) return;
    showWarning(llmKeyWarning, warnings.llm);
    showWarning(qdrantKeyWarning, warnings.qdrant);
  } catch {
    // Only a hint: the save path checks what matters and says so.
  }
}

/** As the person types: once they pause, not at every key. */
function syncKeyWarningsSoon(): void {
  clearTimeout(warningsTimer);
  warningsTimer = setTimeout(() => void syncKeyWarnings(), 250);
}

/** A whole number of at least 1 typed in `input`, null when blank, NaN when neither. */
function count(input: HTMLInputElement): number | null {
  const v = input.value.trim();
  if (v === '') return null;
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? n : Number.NaN;
}

/** Fills the form from `settings`, leaving the controls in `keep` as the person left them. */
function fill(settings: AppSettings, keep: ReadonlySet<Element> = new Set()): void {
  const defaultsFusion = fusionFromJson(settings.defaults.fusion) ?? defaultFusion();
  const values = settingsToValues({ fusion: defaultsFusion, token_budget: settings.defaults.token_budget });
  const cluster = settings.qdrant_cluster;
  const writes: [HTMLInputElement | HTMLSelectElement, FieldValue][] = [
    [baseUrl, text(settings.llm_base_url)],
    [model, text(settings.llm_model)],
    [deadline, String(settings.llm_answer_deadline_secs)],
    [apiKey, ''],
    [embedDir, text(settings.embedding_model_dir)],
    [ocr, settings.ocr ?? true],
    [denseModel, settings.dense_model ?? 'minilm'],
    [modeEmbedded, settings.qdrant_mode !== 'remote'],
    [modeRemote, settings.qdrant_mode === 'remote'],
    [qdrantUrl, text(settings.qdrant_url)],
    [qdrantKey, ''],
    [shards, cluster.shard_number === null ? '' : String(cluster.shard_number)],
    [replicas, String(cluster.replication_factor)],
    [writeConsistency, String(cluster.write_consistency_factor)],
    [rrfK, values.rrfK],
    [fusionMethod, defaultsFusion.method],
    [budget, values.tokenBudget],
  ];
  for (const [control, value] of untouched(writes, keep)) writeControl(control, value);
  keyNote.textContent =
    `Key storage: ${settings.llm_key_storage}. The key is kept in the OS keyring when one is available; ` +
    'it is never shown again. Leave the field empty to keep the current key.';
  libraryModel.textContent = settings.embedding_model
    ? `This library's vectors are made by ${settings.embedding_model}.`
    : '';
  ocrEngine.textContent = settings.ocr_engine ?? '';
  qdrantKeyNote.textContent = `Key storage: ${settings.qdrant_key_storage}. Leave the field empty to keep the current key.`;
  syncDenseModel();
  syncMode();
  fusion.sync();
  for (const s of completeStrategies(settings.defaults.strategies)) editors.get(s.name)?.write(s, (input) => keep.has(input));
}

/** Fills the whole form from settings just saved: the form now says what the library has. */
function fillSaved(saved: AppSettings): void {
  edits.reset();
  fill(saved);
}

/** The settings as the form says, or null (with messages shown) when something is wrong. */
function read(): AppSettings | null {
  const base = state.settings;
  const problems: string[] = [];
  const strategies: Strategy[] = [];
  for (const name of STRATEGY_NAMES) {
    const parsed = editors.get(name)?.read();
    if (parsed?.ok) strategies.push(parsed.value);
    else problems.push(`${strategyLabel(name)}: check its values`);
  }
  const search = valuesToSettings(
    { rrfK: rrfK.value, tokenBudget: budget.value, fusionMethod: fusionMethod.value },
    null,
    fusionFromJson(base?.defaults.fusion) ?? defaultFusion(),
  );
  markInvalid(rrfK, !search.ok && 'rrfK' in search.errors);
  markInvalid(budget, !search.ok && 'tokenBudget' in search.errors);
  if (!search.ok) problems.push(...Object.values(search.errors));
  const url = orNull(baseUrl);
  const badUrl = url !== null && !/^https?:\/\/\S+$/i.test(url);
  markInvalid(baseUrl, badUrl);
  if (badUrl) problems.push('The LLM base URL must start with http:// or https://');
  const seconds = Number(deadline.value.trim());
  const badDeadline =
    deadline.value.trim() === '' || !Number.isInteger(seconds) || seconds < ANSWER_DEADLINE.min || seconds > ANSWER_DEADLINE.max;
  markInvalid(deadline, badDeadline);
  if (badDeadline) {
    problems.push(
      `The time one answer may take must be a whole number of seconds from ${ANSWER_DEADLINE.min} to ${ANSWER_DEADLINE.max} (${ANSWER_DEADLINE.max / 60} minutes)`,
    );
  }
  const remoteUrl = orNull(qdrantUrl);
  const badRemoteUrl = mode() === 'remote' && (remoteUrl === null || !/^https?:\/\/\S+$/i.test(remoteUrl));
  markInvalid(qdrantUrl, badRemoteUrl);
  if (badRemoteUrl) problems.push('Remote Qdrant needs the server\'s gRPC URL, starting with http:// or https://');
  const cluster = readCluster({ shards: count(shards), replicas: count(replicas), write: count(writeConsistency) });
  if (mode() === 'remote') problems.push(...cluster.problems);
  if (problems.length > 0 || !search.ok) {
    saveResult.textContent = problems.join('. ');
    saveResult.className = 'save-result error';
    return null;
  }
  return {
    llm_base_url: url,
    llm_model: orNull(model),
    llm_api_key: apiKey.value === '' ? null : apiKey.value,
    llm_key_storage: base?.llm_key_storage ?? '',
    llm_answer_deadline_secs: seconds,
    embedding_model_dir: orNull(embedDir),
    dense_model: chosenDenseModel(),
    qdrant_mode: mode(),
    qdrant_url: orNull(qdrantUrl),
    qdrant_api_key: qdrantKey.value === '' ? null : qdrantKey.value,
    qdrant_key_storage: base?.qdrant_key_storage ?? '',
    qdrant_cluster: cluster.cluster,
    ocr: ocr.checked,
    defaults: {
      strategies,
      fusion: search.value.fusion,
      token_budget: search.value.token_budget,
    },
  };
}

const SERVER_KINDS: Record<LocalServerKind, string> = {
  ollama: 'Ollama',
  'llama-cpp': 'llama.cpp server',
  'lm-studio': 'LM Studio',
  other: 'OpenAI-compatible server',
};

/** The servers found on this computer, each model a button that makes it the library's. */
function showServers(servers: LocalServer[]): void {
  localServers.replaceChildren(
    ...servers.map((server) =>
      h(
        'li',
        { 'data-port': String(server.port) },
        h('span', { class: 'server-name' }, `${SERVER_KINDS[server.kind]} at ${server.base_url}`),
        ...(server.models.length === 0
          ? [h('span', { class: 'muted' }, ' (no models)')]
          : server.models.map((name) => {
              const use = h(
                'button',
                { type: 'button', class: 'secondary', 'data-testid': 'use-local-model', 'data-url': server.base_url, 'data-model': name },
                `Use ${name}`,
              );
              use.addEventListener('click', () => {
                baseUrl.value = server.base_url;
                model.value = name;
                testResult.textContent = '';
                void syncKeyWarnings();
                settingsForm?.requestSubmit();
              });
              return use;
            })),
      ),
    ),
  );
  localServersNote.textContent =
    servers.length === 0
      ? 'No language model server answers on this computer (Ollama on port 11434, llama.cpp on 8080, LM Studio on 1234).'
      : `Found on this computer: ${servers.length === 1 ? 'one server' : `${servers.length} servers`}. Choosing a model saves it.`;
}

async function findLocalServers(): Promise<void> {
  localServersNote.textContent = 'Looking for language model servers on this computer…';
  try {
    showServers(await busy(findServers, () => api.detectLlmServers()));
  } catch (err) {
    localServers.replaceChildren();
    localServersNote.textContent = `Could not look for servers: ${errorMessage(err)}`;
  }
}

/** What the app's own llama-server is doing; its pid is on the element for tests. */
function showModelFile(status: LocalModelStatus): void {
  modelFileStatus.dataset.state = status.state;
  modelFileStatus.dataset.pid = status.pid === null ? '' : String(status.pid);
  stopModelFile.hidden = status.state === 'off';
  modelFileStatus.className = `hint${status.state === 'failed' ? ' error' : ''}`;
  const file = status.file ?? '';
  modelFileStatus.textContent =
    status.state === 'starting'
      ? `Loading ${file} into llama-server…`
      : status.state === 'running'
        ? `✓ Serving ${file} with llama-server (process ${status.pid ?? '?'}) at ${status.base_url ?? ''} as ${status.model ?? ''}.`
        : status.state === 'failed'
          ? `✗ ${file}: ${status.message ?? 'llama-server is not running'}`
          : '';
}

async function refreshModelFile(): Promise<void> {
  try {
    showModelFile(await api.modelFileStatus());
  } catch {
    // Only a status line: the actions say what went wrong.
  }
}

async function chooseModelFile(): Promise<void> {
  let file: string | null;
  try {
    file = await api.pickModelFile();
  } catch (err) {
    modelFileStatus.textContent = `✗ ${errorMessage(err)}`;
    return;
  }
  if (file === null) return;
  showModelFile({ state: 'starting', file, model: null, base_url: null, pid: null, message: null });
  try {
    const saved = await busy(useModelFile, () => api.useModelFile(file));
    setSettings(saved);
    fillSaved(saved);
    announce('The model file is ready');
  } catch (err) {
    showModelFile({ state: 'failed', file, model: null, base_url: null, pid: null, message: errorMessage(err) });
    return;
  }
  await refreshModelFile();
}

async function stopServing(): Promise<void> {
  try {
    const saved = await busy(stopModelFile, () => api.stopModelFile());
    setSettings(saved);
    fillSaved(saved);
  } catch (err) {
    modelFileStatus.textContent = `✗ ${errorMessage(err)}`;
  }
  await refreshModelFile();
}

export async function loadSettings(): Promise<void> {
  const view = saveResult.closest('section');
  view?.setAttribute('aria-busy', 'true');
  // The view opens: edits count from now, and those made before the settings arrive stay.
  edits.reset();
  try {
    const settings = await api.getSettings();
    setSettings(settings);
    fill(settings, edits.fields);
    void refreshModelFile();
    void findLocalServers();
  } catch (err) {
    saveResult.textContent = `Could not read the settings: ${errorMessage(err)}`;
    saveResult.className = 'save-result error';
  } finally {
    view?.removeAttribute('aria-busy');
  }
}

export function createSettingsView(): HTMLElement {
  for (const name of STRATEGY_NAMES) {
    const initial = completeStrategies(null).find((s) => s.name === name);
    if (!initial) continue;
    const editor = paramsEditor(name, initial, `set-${name}`);
    editors.set(name, editor);
    editorSlots.set(
      name,
      h(
        'fieldset',
        { class: 'strategy-card' },
        h('legend', {}, strategyLabel(name)),
        h('p', { class: 'hint' }, STRATEGY_HELP[name]),
        editor.el,
      ),
    );
  }
  denseModel.addEventListener('change', syncDenseModel);
  bus.on('documents', syncDenseModel);
  modeEmbedded.addEventListener('change', syncMode);
  modeRemote.addEventListener('change', syncMode);
  apiKey.setAttribute('aria-describedby', keyNote.id);
  for (const input of [baseUrl, apiKey, qdrantUrl, qdrantKey]) input.addEventListener('input', syncKeyWarningsSoon);
  findServers.addEventListener('click', () => void findLocalServers());
  useModelFile.addEventListener('click', () => void chooseModelFile());
  stopModelFile.addEventListener('click', () => void stopServing());
  testButton.addEventListener('click', async () => {
    const settings = read();
    if (!settings) return;
    testResult.className = 'test-result';
    testResult.textContent = 'Testing…';
    try {
      const result = await busy(testButton, () => api.testLlmConnection(settings));
      testResult.className = `test-result ${result.ok ? 'ok' : 'error'}`;
      testResult.textContent = `${result.ok ? '✓' : '✗'} ${result.message}${
        result.latency_ms !== null ? ` (${Math.round(result.latency_ms)} ms)` : ''
      }`;
    } catch (err) {
      testResult.className = 'test-result error';
      testResult.textContent = `✗ ${errorMessage(err)}`;
    }
  });
  const form = h(
    'form',
    { class: 'settings-form', novalidate: true },
    h(
      'fieldset',
      {},
      h('legend', {}, 'Language model'),
      h(
        'p',
        { class: 'hint', 'data-testid': 'llm-needed' },
        'Written answers need a language model: any OpenAI-compatible endpoint, such as a local Ollama ' +
          '(http://127.0.0.1:11434/v1) or llama.cpp server (http://127.0.0.1:8080/v1), or OpenAI with an API key ' +
          '(https://api.openai.com/v1). Without one, search, comparisons and the tree work as they are, answers are ' +
          'the most relevant passages of the pages found, with citations, and proxy-pointer is skipped.',
      ),
      h(
        'div',
        { class: 'local-models', 'data-testid': 'local-models' },
        h('h3', {}, 'On this computer'),
        localServersNote,
        localServers,
        h('div', { class: 'actions' }, findServers, useModelFile, stopModelFile),
        h(
          'p',
          { class: 'hint' },
          'A model file is run by PageTree itself (llama.cpp), on this computer only, while PageTree is open.',
        ),
        modelFileStatus,
      ),
      field('Base URL', baseUrl),
      llmKeyWarning,
      field('Model', model),
      h('div', { class: 'field' }, h('label', { for: apiKey.id }, 'API key'), apiKey, keyNote),
      field(
        'Longest answer (seconds)',
        deadline,
        `How long one answer may take in all; what arrived by then is shown, marked as cut short. ` +
          `${ANSWER_DEADLINE.min} to ${ANSWER_DEADLINE.max} (an hour).`,
      ),
      h('div', { class: 'actions' }, testButton),
      testResult,
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Embedding model'),
      libraryModel,
      field('Model', denseModel),
      denseModelNote,
      field('Model folder', embedDir, 'For a library made with MiniLM: a folder holding another ONNX sentence model; empty for the bundled one.'),
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Scanned pages'),
      h(
        'div',
        { class: 'radio' },
        ocr,
        h('label', { for: ocr.id }, 'Read pages without a text layer by OCR (Tesseract) when documents are added'),
      ),
      ocrEngine,
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Vector index (Qdrant)'),
      h(
        'div',
        { class: 'radios', role: 'radiogroup', 'aria-label': 'Qdrant mode' },
        h('div', { class: 'radio' }, modeEmbedded, h('label', { for: modeEmbedded.id }, 'Embedded (in the library folder)')),
        h('div', { class: 'radio' }, modeRemote, h('label', { for: modeRemote.id }, 'Remote server')),
      ),
      field('Remote URL', qdrantUrl, 'The gRPC address, e.g. http://qdrant.internal:6334 (https for TLS).'),
      qdrantKeyWarning,
      field('Remote API key', qdrantKey),
      qdrantKeyNote,
      h(
        'div',
        { class: 'row' },
        field('Shards', shards, 'Empty: one per cluster node.'),
        field('Replication factor', replicas, 'Copies of each shard.'),
        field('Write consistency', writeConsistency, 'Copies that confirm each write.'),
      ),
      h(
        'p',
        { class: 'hint' },
        'Switching copies the vectors to the other side, checks the copy with sample queries, and only then uses it; ' +
          'the old copy is left as it was. Shards and replicas apply to the collection made by the switch.',
      ),
    ),
    h(
      'fieldset',
      {},
      h('legend', {}, 'Search defaults'),
      h('div', { class: 'row' }, ...fusion.fields, field('Token budget', budget, 'Empty for no limit.')),
      h('div', { class: 'strategy-grid' }, ...STRATEGY_NAMES.map((n) => editorSlots.get(n))),
    ),
    h('div', { class: 'actions sticky-actions' }, save, saveResult),
  );
  settingsForm = form;
  edits.watch(form);
  // After the form: `field` sets the hint as the description, and the warning joins it.
  baseUrl.setAttribute('aria-describedby', llmKeyWarning.id);
  qdrantUrl.setAttribute('aria-describedby', `${qdrantUrl.getAttribute('aria-describedby') ?? ''} ${qdrantKeyWarning.id}`.trim());
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const settings = read();
    if (!settings) return;
    saveResult.className = 'save-result';
    // At once: the last "Saved" must not stand for this save while the library is read.
    saveResult.textContent = 'Saving…';
    // The model as the library has it now (an ingest may have settled it since the form was filled).
    let library: AppSettings;
    try {
      library = await api.getSettings();
    } catch (err) {
      saveResult.className = 'save-result error';
      saveResult.textContent = `Not saved: ${errorMessage(err)}`;
      return;
    }
    const chosen = chosenDenseModel();
    const change = modelChange(library.dense_model, chosen, state.documents);
    const reembedAgreed =
      change === 'reembed' &&
      (await confirmDialog(
        `Re-embed the library with ${DENSE_MODELS[chosen].name}?`,
        modelChangeNote(library.dense_model, chosen, state.documents),
        'Re-embed',
      ));
    if (change === 'reembed' && !reembedAgreed) {
      denseModel.value = library.dense_model ?? chosen;
      syncDenseModel();
      saveResult.textContent = `Nothing saved: the library keeps ${library.embedding_model}.`;
      return;
    }
    const moving =
      settings.qdrant_mode !== state.settings?.qdrant_mode ||
      (settings.qdrant_mode === 'remote' && settings.qdrant_url !== state.settings?.qdrant_url);
    saveResult.textContent = moving
      ? 'Moving the vectors and checking the copy…'
      : reembedAgreed
        ? `Re-embedding the library with ${DENSE_MODELS[chosen].name}…`
        : 'Saving…';
    try {
      const saved = await busy(save, async () => {
        const result = await api.saveSettings(settings);
        return change === 'record' || reembedAgreed ? api.changeDenseModel(chosen) : result;
      });
      setSettings(saved);
      fillSaved(saved);
      saveResult.className = 'save-result ok';
      saveResult.textContent = `Saved. Key storage: ${saved.llm_key_storage}.`;
      announce('Settings saved');
      // Another server chosen stops the app's own one.
      void refreshModelFile();
    } catch (err) {
      saveResult.className = 'save-result error';
      saveResult.textContent = `Not saved: ${errorMessage(err)}`;
    }
  });
  if (state.settings) fill(state.settings);
  return h(
    'section',
    { class: 'view settings', 'aria-labelledby': 'settings-title' },
    h('h2', { id: 'settings-title', tabindex: -1 }, 'Settings'),
    form,
  );
}

// For tests.
export const _internal = { read, fill };
