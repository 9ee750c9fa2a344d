import { h } from '../dom';

/** Renders CSV text as a table (quoted fields and escaped quotes supported; at most `limit` rows). */
export function csvTable(text: string, label: string, limit = 50): HTMLElement {
  const rows = parseCsv(text);
  const [head, ...body] = rows;
  return h(
    'div',
    { class: 'csv', tabindex: 0, role: 'region', 'aria-label': `${label} (scrollable)` },
    h('table', { 'aria-label': label },
      head ? h('thead', {}, h('tr', {}, ...head.map((cell) => h('th', { scope: 'col' }, cell)))) : null,
      h('tbody', {}, ...body.slice(0, limit).map((row) => h('tr', {}, ...row.map((cell) => h('td', {}, cell))))),
    ),
    body.length > limit ? h('p', { class: 'hint' }, `${body.length - limit} more rows`) : null,
  );
}

/** Parses CSV into rows of cells. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += char;
  }
  if (cell.length > 0 || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
