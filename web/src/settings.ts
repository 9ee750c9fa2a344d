/** Where the agent runs. */
export type RunLocation = 'tab' | 'worker';
/** Which model the in-tab agent uses. */
export type ModelChoice = 'offline' | 'openai' | 'anthropic' | 'compatible';

/** The playground's choices. Keys live in sessionStorage only and go nowhere but the provider. */
export interface Settings {
  location: RunLocation;
  model: ModelChoice;
  modelId: string;
  baseURL: string;
  apiKey: string;
}

const CHOICES_KEY = 'ghostlight.playground.choices';
const SECRET_KEY = 'ghostlight.playground.apiKey';

/** Loads the choices (localStorage) and the key (sessionStorage). */
export function loadSettings(): Settings {
  const defaults: Settings = { location: 'tab', model: 'offline', modelId: '', baseURL: 'http://127.0.0.1:11434/v1', apiKey: '' };
  try {
    const stored = JSON.parse(localStorage.getItem(CHOICES_KEY) ?? '{}') as Partial<Settings>;
    return { ...defaults, ...stored, apiKey: sessionStorage.getItem(SECRET_KEY) ?? '' };
  } catch {
    return defaults;
  }
}

/** Saves the choices; the key only to sessionStorage (cleared when the tab closes). */
export function saveSettings(settings: Settings): void {
  const { apiKey, ...choices } = settings;
  localStorage.setItem(CHOICES_KEY, JSON.stringify(choices));
  if (apiKey) sessionStorage.setItem(SECRET_KEY, apiKey);
  else sessionStorage.removeItem(SECRET_KEY);
}

/** The default model id per provider. */
export function defaultModelId(model: ModelChoice): string {
  return { offline: 'offline-demo', openai: 'gpt-5-mini', anthropic: 'claude-sonnet-4-5', compatible: 'llama3.2' }[model];
}
