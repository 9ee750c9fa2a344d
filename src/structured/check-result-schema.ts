import { ConfigurationError } from '../error/configuration-error.ts';
import type { JsonSchema } from '../schema/json-schema.ts';
import { isPlainObject } from '../util/json.ts';

/** The JSON Schema keywords a result schema may use (the subset every structured-output provider accepts). */
export const RESULT_SCHEMA_KEYWORDS: readonly string[] = Object.freeze([
  '$schema', 'title', 'description', 'type', 'enum', 'minimum', 'maximum', 'minLength', 'maxLength',
  'properties', 'required', 'additionalProperties', 'minItems', 'maxItems', 'items',
]);

const KEYWORDS = new Set(RESULT_SCHEMA_KEYWORDS);
const TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean', 'null']);

/**
 * Checks that `schema` stays inside the result-schema subset: supported
 * keywords only, a top-level object, and on every object
 * `additionalProperties: false` with every property required. Throws a
 * `ConfigurationError` naming the JSON path of the first problem.
 */
export function assertResultSchema(schema: unknown): asserts schema is JsonSchema {
  if (!isPlainObject(schema)) throw new ConfigurationError('result_schema must describe a top-level object');
  checkNode(schema, '$');
  if (schema.type !== 'object') throw new ConfigurationError('result_schema must describe a top-level object');
}

function checkNode(schema: Record<string, unknown>, path: string): void {
  const unsupported = Object.keys(schema).filter((key) => !KEYWORDS.has(key)).sort();
  if (unsupported.length > 0) {
    throw new ConfigurationError(`result_schema contains unsupported keywords at ${path}: ${unsupported.join(', ')}`);
  }
  checkValues(schema, path);
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  for (const [name, child] of Object.entries(properties)) checkNode(child as Record<string, unknown>, `${path}.properties.${name}`);
  if (isPlainObject(schema.items)) checkNode(schema.items, `${path}.items`);
  if (isPlainObject(schema.additionalProperties)) checkNode(schema.additionalProperties, `${path}.additionalProperties`);
}

function checkValues(schema: Record<string, unknown>, path: string): void {
  const fail = (message: string): never => {
    throw new ConfigurationError(`result_schema ${message} at ${path}`);
  };
  const { type } = schema;
  if (type !== undefined) {
    const types = Array.isArray(type) ? type : [type];
    if (types.length === 0 || !types.every((value) => typeof value === 'string' && TYPES.has(value))) fail('has an invalid type');
  }
  if ('properties' in schema && (!isPlainObject(schema.properties) || !Object.values(schema.properties).every(isPlainObject))) {
    fail('properties must contain object schemas');
  }
  if ('required' in schema && (!Array.isArray(schema.required) || !schema.required.every((value) => typeof value === 'string'))) {
    fail('required must be an array of strings');
  }
  const isObject = type === 'object' || (Array.isArray(type) && type.includes('object')) || 'properties' in schema;
  if (isObject) {
    if (schema.additionalProperties !== false) fail('object must set additionalProperties to false');
    const keys = Object.keys(isPlainObject(schema.properties) ? schema.properties : {}).sort();
    const required = Array.isArray(schema.required) ? [...(schema.required as string[])].sort() : undefined;
    if (!required || required.length !== keys.length || required.some((key, index) => key !== keys[index])) {
      fail('object must require every property');
    }
  }
  if ('items' in schema && !isPlainObject(schema.items)) fail('items must be an object schema');
  const additional = schema.additionalProperties;
  if ('additionalProperties' in schema && typeof additional !== 'boolean' && !isPlainObject(additional)) {
    fail('additionalProperties must be boolean or an object schema');
  }
  if ('enum' in schema && (!Array.isArray(schema.enum) || !schema.enum.every(isJsonValue))) fail('enum must contain only JSON values');
  for (const keyword of ['minimum', 'maximum']) {
    if (keyword in schema && !(typeof schema[keyword] === 'number' && Number.isFinite(schema[keyword]))) {
      fail(`${keyword} must be finite and numeric`);
    }
  }
  for (const keyword of ['minLength', 'maxLength', 'minItems', 'maxItems']) {
    const value = schema[keyword];
    if (keyword in schema && !(Number.isInteger(value) && (value as number) >= 0)) fail(`${keyword} must be a non-negative integer`);
  }
  for (const keyword of ['$schema', 'title', 'description']) {
    if (keyword in schema && typeof schema[keyword] !== 'string') fail(`${keyword} must be a string`);
  }
}

function isJsonValue(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJsonValue);
  if (isPlainObject(value)) return Object.values(value).every(isJsonValue);
  return false;
}
