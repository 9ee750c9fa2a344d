import type { JsonSchema } from './json-schema.ts';
import { isPlainObject } from '../util/json.ts';

/**
 * Validates `value` against the tool-input subset of JSON Schema and returns
 * one message per problem, each starting with a JSON path (`$`, `$.a`,
 * `$.a[0]`). An empty array means the value is valid.
 *
 * Supported keywords: `type` (a name or a list), `enum`, `const`, `minimum`,
 * `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `minLength`, `maxLength`
 * (in code points), `pattern` (ECMAScript, unicode), `properties`, `required`,
 * `additionalProperties` (false or a schema), `items` (a schema), `minItems`,
 * `maxItems`, `anyOf`, `oneOf`, `allOf`, and local `$ref`s into `$defs` or
 * `definitions`. Other keywords are annotations and never fail validation.
 * The messages match the seeds word for word (`$.city is required`).
 */
export function validateJson(schema: JsonSchema | boolean, value: unknown): string[] {
  const errors: string[] = [];
  validateValue(schema, value, '$', errors, { root: schema, depth: 0 });
  return errors;
}

interface ValidationContext {
  root: JsonSchema | boolean;
  depth: number;
}

const MAX_REF_DEPTH = 64;
const patternCache = new Map<string, RegExp | null>();

function validateValue(
  schema: JsonSchema | boolean | undefined,
  value: unknown,
  path: string,
  errors: string[],
  context: ValidationContext,
): void {
  if (schema === undefined || schema === true) return;
  if (schema === false) {
    errors.push(`${path} is not allowed`);
    return;
  }
  if (!isPlainObject(schema)) return;
  if (typeof schema.$ref === 'string') {
    const target = resolveRef(context.root, schema.$ref);
    if (target === undefined || context.depth >= MAX_REF_DEPTH) {
      errors.push(`${path} has an unresolvable schema reference`);
      return;
    }
    validateValue(target, value, path, errors, { root: context.root, depth: context.depth + 1 });
  }
  validateType(schema.type, value, path, errors);
  if (Array.isArray(schema.enum) && !schema.enum.some((candidate) => jsonEqual(candidate, value))) {
    errors.push(`${path} must be one of ${schema.enum.map(inspect).join(', ')}`);
  }
  if ('const' in schema && !jsonEqual(schema.const, value)) {
    errors.push(`${path} must be ${inspect(schema.const)}`);
  }
  if (typeof value === 'number') validateNumber(schema, value, path, errors);
  else if (typeof value === 'string') validateString(schema, value, path, errors);
  else if (Array.isArray(value)) validateArray(schema, value, path, errors, context);
  else if (isPlainObject(value)) validateObject(schema, value, path, errors, context);
  validateCombinators(schema, value, path, errors, context);
}

function validateType(type: unknown, value: unknown, path: string, errors: string[]): void {
  if (type === undefined) return;
  const types = Array.isArray(type) ? type : [type];
  if (types.some((candidate) => typeMatches(candidate, value))) return;
  errors.push(`${path} must be ${types.join(' or ')}`);
}

function typeMatches(type: unknown, value: unknown): boolean {
  switch (type) {
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return false;
  }
}

function validateNumber(schema: JsonSchema, value: number, path: string, errors: string[]): void {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  if (typeof minimum === 'number' && value < minimum) errors.push(`${path} must be at least ${minimum}`);
  if (typeof maximum === 'number' && value > maximum) errors.push(`${path} must be at most ${maximum}`);
  if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum) {
    errors.push(`${path} must be greater than ${exclusiveMinimum}`);
  }
  if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum) {
    errors.push(`${path} must be less than ${exclusiveMaximum}`);
  }
}

function validateString(schema: JsonSchema, value: string, path: string, errors: string[]): void {
  const { minLength, maxLength, pattern } = schema;
  if (typeof minLength === 'number' || typeof maxLength === 'number') {
    const length = codePointLength(value);
    if (typeof minLength === 'number' && length < minLength) {
      errors.push(`${path} must have at least ${minLength} characters`);
    }
    if (typeof maxLength === 'number' && length > maxLength) {
      errors.push(`${path} must have at most ${maxLength} characters`);
    }
  }
  if (typeof pattern === 'string') {
    const regex = compilePattern(pattern);
    if (regex === null) errors.push(`${path} has an invalid schema pattern`);
    else if (!regex.test(value)) errors.push(`${path} has an invalid format`);
  }
}

function validateArray(
  schema: JsonSchema,
  value: unknown[],
  path: string,
  errors: string[],
  context: ValidationContext,
): void {
  const { minItems, maxItems, items } = schema;
  if (typeof minItems === 'number' && value.length < minItems) {
    errors.push(`${path} must contain at least ${minItems} items`);
  }
  if (typeof maxItems === 'number' && value.length > maxItems) {
    errors.push(`${path} must contain at most ${maxItems} items`);
  }
  if (isPlainObject(items) || typeof items === 'boolean') {
    value.forEach((child, index) => validateValue(items as JsonSchema | boolean, child, `${path}[${index}]`, errors, context));
  }
}

function validateObject(
  schema: JsonSchema,
  value: Record<string, unknown>,
  path: string,
  errors: string[],
  context: ValidationContext,
): void {
  const properties = isPlainObject(schema.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
  if (Array.isArray(schema.required)) {
    for (const key of schema.required) {
      if (typeof key === 'string' && !Object.hasOwn(value, key)) errors.push(`${path}.${key} is required`);
    }
  }
  const additional = schema.additionalProperties;
  for (const [key, child] of Object.entries(value)) {
    const childPath = `${path}.${key}`;
    if (Object.hasOwn(properties, key)) validateValue(properties[key], child, childPath, errors, context);
    else if (additional === false) errors.push(`${childPath} is not allowed`);
    else if (isPlainObject(additional)) validateValue(additional as JsonSchema, child, childPath, errors, context);
  }
}

function validateCombinators(
  schema: JsonSchema,
  value: unknown,
  path: string,
  errors: string[],
  context: ValidationContext,
): void {
  if (Array.isArray(schema.allOf)) {
    for (const part of schema.allOf) validateValue(part as JsonSchema, value, path, errors, context);
  }
  if (!Array.isArray(schema.anyOf) && !Array.isArray(schema.oneOf)) return;
  const matches = (part: unknown) => {
    const partErrors: string[] = [];
    validateValue(part as JsonSchema, value, path, partErrors, context);
    return partErrors.length === 0;
  };
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some(matches)) {
    errors.push(`${path} must match at least one allowed schema`);
  }
  if (Array.isArray(schema.oneOf) && schema.oneOf.filter(matches).length !== 1) {
    errors.push(`${path} must match exactly one allowed schema`);
  }
}

function resolveRef(root: JsonSchema | boolean, ref: string): JsonSchema | boolean | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let target: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isPlainObject(target) || !Object.hasOwn(target, key)) return undefined;
    target = target[key];
  }
  return isPlainObject(target) || typeof target === 'boolean' ? (target as JsonSchema | boolean) : undefined;
}

function compilePattern(pattern: string): RegExp | null {
  let regex = patternCache.get(pattern);
  if (regex === undefined) {
    try {
      regex = new RegExp(pattern, 'u');
    } catch {
      regex = null;
    }
    if (patternCache.size > 1000) patternCache.clear();
    patternCache.set(pattern, regex);
  }
  return regex;
}

function codePointLength(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) index++;
    length++;
  }
  return length;
}

function inspect(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** Structural equality of two JSON values (object key order ignored). */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left)) {
    return Array.isArray(right) && left.length === right.length && left.every((item, index) => jsonEqual(item, right[index]));
  }
  if (isPlainObject(left) && isPlainObject(right)) {
    const leftKeys = Object.keys(left);
    if (leftKeys.length !== Object.keys(right).length) return false;
    return leftKeys.every((key) => Object.hasOwn(right, key) && jsonEqual(left[key], right[key]));
  }
  return false;
}
