// `npm run lint`: the import rules of docs/architecture.md, checked over src/.
//
// - Imports only go down the layer table; folders of one layer may import each other, except capabilities,
//   which may import only the capabilities listed for them (so each entry bundles only what it needs).
// - Relative imports carry explicit `.ts` extensions (the build rewrites them to `.js`).
// - Node built-ins only in adapter/node; nothing in src/ imports worker/, web/, test/ or bench/.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

/** The layers, lowest first (docs/architecture.md). */
export const LAYERS = [
  { name: 'base', folders: ['error', 'lifetime', 'util', 'instrumentation'] },
  { name: 'data', folders: ['schema', 'content', 'model'] },
  { name: 'tools', folders: ['tool'] },
  { name: 'runtime', folders: ['agent', 'events', 'session', 'registry', 'structured'] },
  { name: 'capabilities', folders: ['workspace', 'sandbox', 'filesystem-tools', 'shell', 'artifacts', 'skills', 'code-mode', 'mcp', 'demo-model', 'opentelemetry', 'context', 'prompts', 'todos', 'subagents', 'workflows', 'assemblies'] },
  { name: 'surfaces', folders: ['ag-ui', 'ui-stream', 'http'] },
  { name: 'adapters', folders: ['adapter/cloudflare', 'adapter/browser', 'adapter/node'] },
];

/** The capabilities a capability may import (each is its own entry; these are its only capability dependencies). */
export const CAPABILITY_DEPENDENCIES = {
  workspace: [],
  sandbox: ['workspace'],
  'filesystem-tools': ['sandbox', 'workspace'],
  shell: ['sandbox', 'workspace'],
  artifacts: [],
  skills: [],
  'code-mode': [],
  mcp: [],
  'demo-model': [],
  opentelemetry: [],
  context: [],
  prompts: [],
  todos: [],
  subagents: [],
  workflows: ['code-mode', 'mcp'],
  assemblies: ['workflows'],
};

const layerOf = new Map(LAYERS.flatMap((layer, index) => layer.folders.map((folder) => [folder, index])));

function folderOf(file) {
  const path = relative(src, file).split(sep).join('/');
  if (!path.includes('/')) return '.';
  const [first, second] = path.split('/');
  return first === 'adapter' ? `adapter/${second}` : first;
}

function* sources(folder) {
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.endsWith('.d.ts')) yield path;
  }
}

export function checkLayers() {
  const problems = [];
  for (const file of sources(src)) {
    const from = folderOf(file);
    const text = readFileSync(file, 'utf8');
    const where = relative(root, file);
    for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)[^'";]*?from\s+'([^']+)'|import\(\s*'([^']+)'\s*\)/g)) {
      const specifier = match[1] ?? match[2];
      if (specifier.startsWith('node:') && from !== 'adapter/node') problems.push(`${where}: Node built-in ${specifier} outside adapter/node`);
      if (!specifier.startsWith('.')) continue;
      if (!specifier.endsWith('.ts')) problems.push(`${where}: relative import without .ts extension: ${specifier}`);
      const target = resolve(dirname(file), specifier);
      if (!target.startsWith(src + sep)) {
        problems.push(`${where}: imports outside src/: ${specifier}`);
        continue;
      }
      const to = folderOf(target);
      if (from === to || from === '.') continue;
      const fromLayer = layerOf.get(from);
      const toLayer = layerOf.get(to);
      if (fromLayer === undefined || toLayer === undefined) {
        problems.push(`${where}: folder ${fromLayer === undefined ? from : to} is not in the layer table (scripts/check-layers.mjs)`);
        continue;
      }
      if (toLayer > fromLayer) problems.push(`${where}: ${from} (${LAYERS[fromLayer].name}) imports ${to} (${LAYERS[toLayer].name}), a higher layer`);
      if (toLayer === fromLayer && LAYERS[fromLayer].name === 'capabilities' && !CAPABILITY_DEPENDENCIES[from].includes(to)) {
        problems.push(`${where}: capability ${from} imports capability ${to} (allowed: ${CAPABILITY_DEPENDENCIES[from].join(', ') || 'none'})`);
      }
      if (toLayer === fromLayer && LAYERS[fromLayer].name === 'adapters') problems.push(`${where}: adapter ${from} imports adapter ${to}`);
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkLayers();
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`check-layers: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log('check-layers: every import in src/ follows the layer table');
}
