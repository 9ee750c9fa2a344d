import { constructFromEvents, CORE_SCHEMA, defineMappingTag, defineScalarTag, EVENT_ID, floatCoreTag, NOT_RESOLVED, parseEvents } from 'js-yaml';
import type { Event } from 'js-yaml';
import { deepFreeze } from '../util/deep-freeze.ts';

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

/**
 * Reads js-yaml's events first, so what it would accept but front matter
 * refuses (see {@link findRefused}) is caught before any value is built; then
 * builds the value with the core schema, a later duplicate key winning.
 * Nesting deeper than js-yaml's default 100 levels is refused.
 */
function parseYamlUncached(source: string): YamlResult {
  let documents: unknown[];
  try {
    const events = parseEvents(source, {});
    const refused = findRefused(events, source);
    if (refused) return { ok: false, detail: refused };
    documents = constructFromEvents(events, { source, schema: SCHEMA, json: true, maxAliases: 0 });
  } catch (error) {
    // A YAMLException's `reason` is its message without the position and source excerpt.
    const { reason, message } = (error ?? {}) as { reason?: unknown; message?: unknown };
    return { ok: false, detail: firstLine(String(reason ?? message ?? error)) };
  }
  if (documents.length > 1) return { ok: false, detail: 'Source contains multiple documents' };
  const data = documents[0] ?? null;
  const unsupported = findUnsupported(data);
  if (unsupported) return { ok: false, detail: unsupported };
  return { ok: true, data };
}

const YAML_TAG = 'tag:yaml.org,2002:';
const PLAIN_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((name) => `${YAML_TAG}${name}`));

/**
 * What js-yaml would accept but front matter refuses: a tag other than a core
 * one written `!!name` or `!<tag:yaml.org,2002:name>` (js-yaml also reads `!`
 * as `!!str`), and then an alias. A lone anchor is harmless and stays allowed.
 */
function findRefused(events: readonly Event[], source: string): string | undefined {
  let alias = false;
  for (const event of events) {
    if (event.type === EVENT_ID.ALIAS) alias = true;
    if (event.type !== EVENT_ID.SCALAR && event.type !== EVENT_ID.SEQUENCE && event.type !== EVENT_ID.MAPPING) continue;
    if (event.tagStart === -1) continue;
    const raw = source.slice(event.tagStart, event.tagEnd);
    const name = raw.startsWith('!!') ? `${YAML_TAG}${raw.slice(2)}` : raw.startsWith('!<') && raw.endsWith('>') ? raw.slice(2, -1) : raw;
    if (PLAIN_TAGS.has(name)) continue;
    if (name === '!') return 'Tag ! is not allowed';
    return name.startsWith(YAML_TAG) ? `Tag ${name} is not allowed` : `Unresolved tag: ${name}`;
  }
  return alias ? 'Alias resolution is disabled' : undefined;
}

/** Core-schema numerals, `.inf` and `.nan` aside. */
const NUMERAL = /^[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$|^0x[0-9a-fA-F]+$|^0o[0-7]+$/;

/** A mapping's key as before: `null` is `''`, any other scalar its `String` (`1.0` is `1`). */
const objectKey = (key: unknown) => (key === null ? '' : String(key));

/**
 * The core schema, with two tags redefined to read as before: a numeral too
 * large for a number is ±Infinity (refused as a value; a key `Infinity`), not
 * text; mappings are plain objects keyed by {@link objectKey} (`__proto__` an
 * own key), collections as keys refused.
 */
const SCHEMA = CORE_SCHEMA.withTags(
  defineScalarTag(floatCoreTag.tagName, {
    ...floatCoreTag,
    resolve: (source, isExplicit, tagName) => {
      const value = floatCoreTag.resolve(source, isExplicit, tagName);
      return value === NOT_RESOLVED && NUMERAL.test(source) && !Number.isFinite(Number(source)) ? Number(source) : value;
    },
  }),
  defineMappingTag<Record<string, unknown>>(`${YAML_TAG}map`, {
    create: () => ({}),
    addPair: (map, key, value) => {
      if (typeof key === 'object' && key !== null) return 'Collections are not allowed as mapping keys';
      Object.defineProperty(map, objectKey(key), { value, enumerable: true, configurable: true, writable: true });
      return '';
    },
    has: (map, key) => Object.hasOwn(map, objectKey(key)),
    keys: (map) => Object.keys(map),
    get: (map, key) => map[objectKey(key)],
    identify: () => false,
  }),
);

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
