import { h } from '../dom';
import type { ArtifactView } from '../view-event';
import { csvTable } from './csv-table';

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript))/;

/** Files a tool produced: images shown, CSV as a table, text as text, everything downloadable. */
export function artifactGallery(items: readonly ArtifactView[]): HTMLElement {
  return h('section', { class: 'artifacts', 'aria-label': 'Files produced' }, ...items.map(artifactView));
}

function artifactView(item: ArtifactView): HTMLElement {
  const url = URL.createObjectURL(new Blob([item.data as Uint8Array<ArrayBuffer>], { type: item.mediaType }));
  const text = TEXT_TYPES.test(item.mediaType) ? new TextDecoder().decode(item.data) : undefined;
  const body = item.mediaType.startsWith('image/')
    ? h('img', { src: url, alt: `Image ${item.name}`, loading: 'lazy' })
    : item.mediaType === 'text/csv' && text !== undefined
      ? csvTable(text, `Table ${item.name}`)
      : text !== undefined
        ? h('pre', { class: 'json' }, text.length > 4000 ? `${text.slice(0, 4000)}…` : text)
        : null;
  return h(
    'figure',
    { class: 'artifact', 'data-media-type': item.mediaType },
    body,
    h('figcaption', {}, h('a', { href: url, download: item.name }, item.name), ` · ${item.mediaType} · ${item.data.byteLength} bytes`, item.reference ? h('code', {}, ` ${item.reference}`) : null),
  );
}
