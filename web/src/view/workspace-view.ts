import type { Workspace } from 'ghostlight/workspace';
import { h, replaceChildren } from '../dom';
import { codeView } from './highlight';
import { csvTable } from './csv-table';

const IMAGE = /\.(png|jpe?g|gif|webp|svg)$/i;
const MEDIA: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml' };

/**
 * The workspace as a file tree with a viewer (text, CSV, code, images). It
 * follows the workspace's change events, so files an agent writes appear as
 * it writes them.
 */
export class WorkspaceView {
  readonly element: HTMLElement;
  readonly #tree = h('ul', { class: 'tree', role: 'tree', 'aria-label': 'Workspace files' });
  readonly #viewer = h('div', { class: 'viewer', 'aria-live': 'polite' });
  readonly #workspace: Workspace;
  #pending: ReturnType<typeof setTimeout> | undefined;

  constructor(workspace: Workspace, actions: { reset(): Promise<void> }) {
    this.#workspace = workspace;
    this.element = h(
      'div',
      { class: 'workspace-view' },
      h('div', { class: 'workspace-actions' },
        h('button', { type: 'button', onclick: () => void this.refresh() }, 'Refresh'),
        h('button', { type: 'button', onclick: () => void actions.reset().then(() => this.refresh()) }, 'Reset files'),
      ),
      this.#tree,
      this.#viewer,
    );
    workspace.onChange(() => {
      clearTimeout(this.#pending);
      this.#pending = setTimeout(() => void this.refresh(), 50);
    });
  }

  /** Re-reads the whole tree. */
  async refresh(): Promise<void> {
    replaceChildren(this.#tree, ...(await this.#items('.')));
    this.element.dataset.files = String(this.#tree.querySelectorAll('[data-path]:not([data-kind="directory"])').length);
  }

  async #items(path: string): Promise<HTMLElement[]> {
    const entries = await this.#workspace.list(path);
    entries.sort((left, right) => Number(right.kind === 'directory') - Number(left.kind === 'directory') || left.name.localeCompare(right.name));
    const items: HTMLElement[] = [];
    for (const entry of entries) {
      const child = path === '.' ? entry.name : `${path}/${entry.name}`;
      if (entry.kind === 'directory') {
        items.push(h('li', { role: 'treeitem', 'aria-expanded': 'true', 'data-path': child, 'data-kind': 'directory' }, h('span', { class: 'folder' }, `${entry.name}/`), h('ul', { role: 'group' }, ...(await this.#items(child)))));
      } else {
        items.push(h('li', { role: 'treeitem', 'data-path': child }, h('button', { type: 'button', class: 'link', onclick: () => void this.#show(child) }, entry.name), h('span', { class: 'size' }, ` ${entry.size ?? 0} B`)));
      }
    }
    return items;
  }

  async #show(path: string): Promise<void> {
    const bytes = await this.#workspace.readFile(path);
    const extension = path.split('.').pop()?.toLowerCase() ?? '';
    let body: HTMLElement;
    if (IMAGE.test(path)) {
      body = h('img', { src: URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: MEDIA[extension] ?? 'image/png' })), alt: path });
    } else {
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        text = `(${bytes.byteLength} bytes of binary data)`;
      }
      body = extension === 'csv' ? csvTable(text, path) : ['js', 'ts', 'json'].includes(extension) ? codeView(text, path) : h('pre', { class: 'json', tabindex: 0, 'aria-label': path }, text);
    }
    replaceChildren(this.#viewer, h('h3', {}, path), body);
  }
}
