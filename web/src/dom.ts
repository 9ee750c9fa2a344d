/** Attributes and listeners for {@link h}: `on*` functions become listeners, the rest attributes. */
export type Props = Record<string, string | number | boolean | undefined | null | ((event: Event) => void)>;

/** A child: a node, text, or nothing. */
export type Child = Node | string | number | null | undefined | false;

/**
 * Creates an element. A tiny helper instead of a framework: the playground's
 * views are small and update by replacing or appending nodes.
 *
 * @example
 * h('button', { type: 'button', onclick: stop }, 'Stop')
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function' && name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  append(element, ...children);
  return element;
}

/** Appends children, skipping empty ones. */
export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

/** Formats milliseconds for people. */
export function duration(ms: number): string {
  return ms < 1 ? '<1 ms' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
