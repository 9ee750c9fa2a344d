import { Validator } from '@cfworker/json-schema';
import type { OutputUnit, Schema } from '@cfworker/json-schema';
import type { JsonSchema } from './json-schema.ts';

const validators = new WeakMap<object, Validator>();

/**
 * Validates `value` against a full JSON Schema (draft 2020-12: `$ref`, `$defs`,
 * `prefixItems`, `patternProperties`, `if`/`then`/`else`, `unevaluated*`, …)
 * and returns one message per failing keyword, each starting with a JSON path
 * (`$.items[0] must be integer`). An empty array means valid.
 *
 * For schemas Ghostlight does not author (MCP output schemas). It interprets
 * the schema (`@cfworker/json-schema`: no `eval`, no `new Function`), so it
 * runs in Workers and browsers. `format` is an annotation, as the draft says.
 */
export function validateJsonSchema(schema: JsonSchema | boolean, value: unknown): string[] {
  let validator = typeof schema === 'object' ? validators.get(schema) : undefined;
  if (!validator) {
    validator = new Validator(withoutFormat(schema) as Schema | boolean, '2020-12', false);
    if (typeof schema === 'object') validators.set(schema, validator);
  }
  const result = validator.validate(value);
  if (result.valid) return [];
  return leafErrors(result.errors).map((unit) => `${toPath(unit.instanceLocation)} ${unit.error}`);
}

/** The most specific errors (keywords such as `properties` also report a summary of their children). */
function leafErrors(errors: readonly OutputUnit[]): OutputUnit[] {
  const specific = errors.filter((unit) => !['properties', 'items', 'prefixItems', 'allOf', '$ref', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'patternProperties', 'dependentSchemas', 'contains', 'if', 'then', 'else', 'not'].includes(unit.keyword) || errors.length === 1);
  return specific.length > 0 ? specific : [...errors];
}

function toPath(pointer: string): string {
  let path = '$';
  for (const raw of pointer.replace(/^#/, '').split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    path += /^\d+$/.test(key) ? `[${key}]` : `.${key}`;
  }
  return path;
}

const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const SCHEMA_VALUES = ['items', 'additionalProperties', 'contains', 'not', 'if', 'then', 'else', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems'];
const SCHEMA_LISTS = ['prefixItems', 'allOf', 'anyOf', 'oneOf'];

/** A copy of `schema` without `format` keywords: in draft 2020-12 `format` is an annotation, not an assertion. */
function withoutFormat(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'format' && typeof value === 'string') continue;
    if (SCHEMA_MAPS.includes(key) && typeof value === 'object' && value !== null) {
      copy[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, withoutFormat(child)]));
    } else if (SCHEMA_VALUES.includes(key)) copy[key] = withoutFormat(value);
    else if (SCHEMA_LISTS.includes(key) && Array.isArray(value)) copy[key] = value.map(withoutFormat);
    else copy[key] = value;
  }
  return copy;
}
