import { h } from '../dom';

/** Pretty JSON (or text) in a scrollable block. */
export function jsonView(value: unknown, label: string): HTMLElement {
  const text = typeof value === 'string' ? tryPretty(value) : JSON.stringify(value, null, 2) ?? String(value);
  return h('pre', { class: 'json', tabindex: 0, 'aria-label': label }, text);
}

function tryPretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
