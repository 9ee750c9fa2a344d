import { ConfigurationError } from '../error/configuration-error.ts';
import { MemorySkillSource } from './memory-skill-source.ts';
import type { MemorySkillSourceOptions } from './memory-skill-source.ts';

/** A bundled file: text, bytes, or a module whose default export is either (what `import.meta.glob` gives without `import: 'default'`). */
export type BundledSkillFile = string | Uint8Array | { readonly default: string | Uint8Array };

/** Options of {@link bundledSkillSource}. */
export interface BundledSkillSourceOptions extends MemorySkillSourceOptions {
  /**
   * The prefix of the keys that is the skills root (`'../skills'`,
   * `'/app/skills'`). Without it, the root is the folder above the
   * shallowest `SKILL.md`'s folder.
   */
  readonly root?: string;
}

/**
 * Turns a folder bundled at build time into a {@link SkillSource}. Give it the
 * record Vite's `import.meta.glob` produces, so the files travel inside the
 * Worker or browser bundle and no filesystem is needed at run time:
 *
 * @example
 * const skills = bundledSkillSource(
 *   import.meta.glob('../skills/**', { query: '?raw', import: 'default', eager: true }),
 *   { root: '../skills' },
 * );
 * const agent = defineAgent({ name: 'support', model, skills: { paths: [skills] } });
 */
export function bundledSkillSource(
  files: Readonly<Record<string, BundledSkillFile>>,
  options: BundledSkillSourceOptions = {},
): MemorySkillSource {
  return new MemorySkillSource(bundledSkillFiles(files, options), options);
}

/**
 * The bundled files keyed by their path beneath the skills root
 * (`refund_guide/SKILL.md`): what {@link bundledSkillSource} reads, and what a
 * `MemoryWorkspaceStore` takes to mount the same skills at `workspace://skills`.
 *
 * @example
 * const files = bundledSkillFiles(import.meta.glob('./skills/**', { query: '?raw', import: 'default', eager: true }), { root: './skills' });
 * const workspace = { paths: { skills: { store: new MemoryWorkspaceStore({ files }) } } };
 */
export function bundledSkillFiles(
  files: Readonly<Record<string, BundledSkillFile>>,
  options: { readonly root?: string } = {},
): Record<string, string | Uint8Array> {
  const keys = Object.keys(files);
  const root = options.root === undefined ? inferRoot(keys) : normalizeKey(options.root);
  const relative: Record<string, string | Uint8Array> = {};
  for (const key of keys) {
    const normalized = normalizeKey(key);
    const prefix = root === '' ? '' : `${root}/`;
    if (!normalized.startsWith(prefix)) throw new ConfigurationError(`Bundled skill file ${key} is not under the root ${root}`);
    relative[normalized.slice(prefix.length)] = contentOf(files[key]!, key);
  }
  return relative;
}

function inferRoot(keys: readonly string[]): string {
  const skillFiles = keys.map(normalizeKey).filter((key) => key === 'SKILL.md' || key.endsWith('/SKILL.md'));
  if (skillFiles.length === 0) return commonDirectory(keys.map(normalizeKey));
  const shallowest = skillFiles.reduce((best, key) => (depth(key) < depth(best) ? key : best));
  return parent(parent(shallowest));
}

function commonDirectory(paths: readonly string[]): string {
  if (paths.length === 0) return '';
  let prefix = parent(paths[0]!);
  while (prefix !== '' && !paths.every((path) => path.startsWith(`${prefix}/`))) prefix = parent(prefix);
  return prefix;
}

function contentOf(file: BundledSkillFile, key: string): string | Uint8Array {
  if (typeof file === 'string' || file instanceof Uint8Array) return file;
  if (typeof file === 'object' && file !== null && (typeof file.default === 'string' || file.default instanceof Uint8Array)) return file.default;
  throw new ConfigurationError(`Bundled skill file ${key} must be text or bytes (use import.meta.glob with query: '?raw')`);
}

const depth = (path: string) => path.split('/').length;
const parent = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const trimSlashes = (path: string) => path.replace(/^\/+|\/+$/g, '');
/** `./a/b`, `/a/b/` and `a/b` name the same key. */
const normalizeKey = (path: string) => trimSlashes(path.replace(/^\.\//, ''));
