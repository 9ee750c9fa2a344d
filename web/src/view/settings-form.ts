import { h } from '../dom';
import { defaultModelId } from '../settings';
import type { ModelChoice, RunLocation, Settings } from '../settings';

/**
 * Where the agent runs and which model it uses. Keys are typed here, kept in
 * sessionStorage only and sent to nowhere but the chosen provider.
 */
export function settingsForm(settings: Settings, onChange: (settings: Settings) => void): HTMLElement {
  const current = { ...settings };
  const changed = () => {
    render();
    onChange({ ...current });
  };

  const location = (value: RunLocation, label: string) =>
    h('label', {}, h('input', { type: 'radio', name: 'location', value, checked: current.location === value, onchange: () => ((current.location = value), changed()) }), ` ${label}`);

  const model = h(
    'select',
    { id: 'model', onchange: (event: Event) => ((current.model = (event.target as HTMLSelectElement).value as ModelChoice), (current.modelId = ''), changed()) },
    ...(['offline', 'openai', 'anthropic', 'compatible'] as const).map((value) =>
      h('option', { value, selected: current.model === value }, { offline: 'Offline demo model (no key)', openai: 'OpenAI (your key)', anthropic: 'Anthropic (your key)', compatible: 'OpenAI-compatible URL (e.g. Ollama)' }[value]),
    ),
  );
  const extra = h('div', { class: 'model-extra' });
  const form = h(
    'form',
    { class: 'settings', 'aria-label': 'Playground settings', onsubmit: (event: Event) => event.preventDefault() },
    h('fieldset', {}, h('legend', {}, 'Run the agent in'), location('tab', 'this tab'), location('worker', 'the Worker (AG-UI)')),
    h('div', { class: 'model-choice' }, h('label', { for: 'model' }, 'Model'), model),
    extra,
  );

  function render(): void {
    extra.replaceChildren();
    if (current.location === 'worker') {
      extra.append(h('p', { class: 'hint' }, 'On the Worker, the model is the one the Worker was started with (offline demo model unless it has a key).'));
      model.setAttribute('disabled', '');
      return;
    }
    model.removeAttribute('disabled');
    if (current.model === 'offline') {
      extra.append(h('p', { class: 'hint' }, 'A small deterministic model built into Ghostlight: it calls matching tools and answers from their results. No network.'));
      return;
    }
    extra.append(
      h('label', { for: 'model-id' }, 'Model id'),
      h('input', { id: 'model-id', value: current.modelId || defaultModelId(current.model), onchange: (event: Event) => ((current.modelId = (event.target as HTMLInputElement).value.trim()), onChange({ ...current })) }),
    );
    if (current.model === 'compatible') {
      extra.append(
        h('label', { for: 'base-url' }, 'Base URL'),
        h('input', { id: 'base-url', type: 'url', value: current.baseURL, onchange: (event: Event) => ((current.baseURL = (event.target as HTMLInputElement).value.trim()), onChange({ ...current })) }),
      );
    }
    extra.append(
      h('label', { for: 'api-key' }, current.model === 'compatible' ? 'API key (optional)' : 'API key'),
      h('input', { id: 'api-key', type: 'password', autocomplete: 'off', value: current.apiKey, onchange: (event: Event) => ((current.apiKey = (event.target as HTMLInputElement).value.trim()), onChange({ ...current })) }),
      h('p', { class: 'hint' }, 'Kept in this tab’s sessionStorage only; sent to nowhere but the provider.'),
    );
  }
  render();
  return form;
}
