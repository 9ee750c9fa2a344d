import { parseDocument, visit } from 'yaml';
import type { Document } from 'yaml';

/** The split `SKILL.md`: its front matter (any YAML value) and its body. */
export type FrontMatterResult =
  | { readonly ok: true; readonly data: unknown; readonly body: string; readonly repaired: boolean }
  | { readonly ok: false; readonly code: 'missing-front-matter' | 'invalid-yaml'; readonly detail: string };

const FRONT_MATTER = /^---\s*\n([\s\S]*?)\n---\s*\n([\s\S]*)$/;
const PLAIN_PAIR = /^([A-Za-z0-9_-]+):[ \t]+(\S.*?)[ \t]*$/;

/**
 * Splits a `SKILL.md` into YAML front matter and Markdown body, with the
 * seeds' exact pattern (`---` line, YAML, `---` line, body), and parses the
 * YAML safely: YAML 1.2 core schema, no aliases, no custom tags, plain values
 * only.
 *
 * Skill files written for other clients often hold values with an unquoted
 * `: ` (`description: Use when: …`), which is invalid YAML. As the Agent
 * Skills guide recommends, such top-level values are quoted and parsed once
 * more; `repaired` then tells the caller to warn.
 */
export function parseFrontMatter(text: string): FrontMatterResult {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { ok: false, code: 'missing-front-matter', detail: 'Skill must have YAML front matter' };
  const yaml = match[1]!.replace(/\r\n?/g, '\n');
  const body = match[2]!;
  const first = parseYaml(yaml);
  if (first.ok) return { ok: true, data: first.data, body, repaired: false };
  const quoted = quoteColonValues(yaml);
  if (quoted !== yaml) {
    const second = parseYaml(quoted);
    if (second.ok) return { ok: true, data: second.data, body, repaired: true };
  }
  return { ok: false, code: 'invalid-yaml', detail: first.detail };
}

type YamlResult = { ok: true; data: unknown } | { ok: false; detail: string };

/** Parsed front matter by its text: a catalog loaded per run re-reads unchanged files (bounded, values deep-frozen). */
const cache = new Map<string, YamlResult>();
const CACHE_ENTRIES = 1_024;
const CACHE_MAX_SOURCE = 16_384;

function parseYaml(source: string): YamlResult {
  const cached = cache.get(source);
  if (cached) return cached;
  const result = parseYamlUncached(source);
  if (source.length <= CACHE_MAX_SOURCE) {
    if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(source, result.ok ? { ok: true, data: deepFreeze(result.data) } : result);
  }
  return cache.get(source) ?? result;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

function parseYamlUncached(source: string): YamlResult {
  let document: Document;
  try {
    document = parseDocument(source, { schema: 'core', uniqueKeys: false, prettyErrors: false, strict: true });
  } catch (error) {
    return { ok: false, detail: (error as Error).message };
  }
  const problem = document.errors[0] ?? document.warnings[0];
  if (problem) return { ok: false, detail: firstLine(problem.message) };
  let tagged: string | undefined;
  visit(document, (_key, node) => {
    const tag = (node as { tag?: unknown } | null)?.tag;
    if (typeof tag === 'string' && !PLAIN_TAGS.has(tag)) tagged = tag;
  });
  if (tagged !== undefined) return { ok: false, detail: `Tag ${tagged} is not allowed` };
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: 0 });
  } catch (error) {
    return { ok: false, detail: firstLine((error as Error).message) };
  }
  const unsupported = findUnsupported(data);
  if (unsupported) return { ok: false, detail: unsupported };
  return { ok: true, data };
}

const PLAIN_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((name) => `tag:yaml.org,2002:${name}`));

/** Only strings, finite numbers, booleans, null, arrays and plain objects may appear. */
function findUnsupported(value: unknown): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'Non-finite numbers are not allowed';
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = findUnsupported(item);
      if (problem) return problem;
    }
    return undefined;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const item of Object.values(value)) {
      const problem = findUnsupported(item);
      if (problem) return problem;
    }
    return undefined;
  }
  return `Values of type ${typeof value === 'object' ? (value as object).constructor?.name ?? 'object' : typeof value} are not allowed`;
}

/** Quotes top-level plain values that contain `: ` (single-quoted YAML, `'` doubled). */
function quoteColonValues(yaml: string): string {
  return yaml
    .split('\n')
    .map((line) => {
      const match = PLAIN_PAIR.exec(line.replace(/\r$/, ''));
      if (!match) return line;
      const value = match[2]!;
      if (!/:\s/.test(value) && !value.endsWith(':')) return line;
      if (/^['"[{|>&*!#%@`]/.test(value)) return line;
      return `${match[1]}: '${value.replace(/'/g, "''")}'`;
    })
    .join('\n');
}

const firstLine = (text: string) => text.split('\n')[0]!.trim();
