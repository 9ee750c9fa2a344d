import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { validateJson, validateJsonSchema } from 'ghostlight';

const SUITE = new URL('../../../shared/realworld/json-schema-test-suite/draft2020-12/', import.meta.url);
const available = existsSync(SUITE);
if (!available) console.warn(`[skipped] the official JSON Schema test suite is missing: ${SUITE.pathname}`);

interface Group {
  description: string;
  schema: unknown;
  tests: Array<{ description: string; data: unknown; valid: boolean }>;
}

const load = (file: string): Group[] => JSON.parse(readFileSync(new URL(file, SUITE), 'utf8')) as Group[];

/** Keywords that never affect validation. */
const ANNOTATIONS = new Set(['$schema', '$comment', 'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$defs', 'definitions']);

/** The subset validator (tool inputs, result schemas): every keyword it claims, each with its suite file. */
const SUBSET_KEYWORDS = [
  'type', 'enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'pattern',
  'properties', 'required', 'additionalProperties', 'items', 'minItems', 'maxItems', 'anyOf', 'oneOf', 'allOf', 'boolean_schema',
];
const SUBSET_VOCABULARY = new Set([...SUBSET_KEYWORDS, '$ref']);

/** Keywords a schema uses that the subset validator does not claim (local `$ref`s are claimed). */
function unclaimed(schema: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) schema.forEach((item) => unclaimed(item, found));
  else if (schema !== null && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) found.add(`$ref ${value}`);
      else if (!SUBSET_VOCABULARY.has(key) && !ANNOTATIONS.has(key)) {
        found.add(key);
        continue;
      }
      if (key === 'properties' || key === '$defs' || key === 'definitions') Object.values(value as object).forEach((child) => unclaimed(child, found));
      else if (key !== 'enum' && key !== 'const') unclaimed(value, found);
    }
  }
  return found;
}

/** Groups the subset validator knowingly does not handle, with the reason (the rest of each claimed file must pass). */
const SUBSET_SKIPS: Record<string, string> = {};

describe.skipIf(!available)('the official JSON Schema test suite, draft 2020-12', () => {
  describe('validateJson (the tool-input and result-schema subset)', () => {
    const skipped: string[] = [];
    for (const keyword of SUBSET_KEYWORDS) {
      for (const group of available ? load(`${keyword}.json`) : []) {
        const extra = [...unclaimed(group.schema)];
        const reason = extra.length > 0 ? `uses ${extra.join(', ')}` : SUBSET_SKIPS[`${keyword}: ${group.description}`];
        if (reason) {
          skipped.push(`${keyword}: ${group.description} (${reason})`);
          continue;
        }
        it(`${keyword}: ${group.description}`, () => {
          for (const test of group.tests) {
            expect(validateJson(group.schema as never, test.data).length === 0, test.description).toBe(test.valid);
          }
        });
      }
    }
    it('lists the groups it skips', () => {
      console.info(`validateJson skipped ${skipped.length} groups:\n  ${skipped.join('\n  ')}`);
      expect(skipped.length).toBeLessThan(80);
    });
  });

  describe('validateJsonSchema (full draft 2020-12, for MCP output schemas)', () => {
    const files = available ? readdirSync(SUITE).filter((file) => file.endsWith('.json')) : [];
    for (const file of files) {
      for (const group of load(file)) {
        it(`${file.replace('.json', '')}: ${group.description}`, () => {
          for (const test of group.tests) {
            expect(validateJsonSchema(group.schema as never, test.data).length === 0, test.description).toBe(test.valid);
          }
        });
      }
    }
  });
});
