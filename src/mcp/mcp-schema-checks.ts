import { ProtocolError } from '../error/protocol-error.ts';
import { isPlainObject } from '../util/json.ts';
import { utf8Length } from '../util/truncate.ts';
import type { McpLimits } from './mcp-limits.ts';

/**
 * Approximate JSON bytes and node count of a definition, refusing one deeper
 * or larger than the limits allow. Iterative, so a hostile nesting depth
 * cannot overflow the stack.
 */
export function definitionComplexity(definition: unknown, limits: McpLimits): { bytes: number; nodes: number } {
  let bytes = 0;
  let nodes = 0;
  const stack: Array<[unknown, number]> = [[definition, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (depth > limits.maxDefinitionDepth) {
      throw new ProtocolError(`MCP tool definition exceeds the ${limits.maxDefinitionDepth}-level depth limit`);
    }
    if (++nodes > limits.maxDefinitionNodes) throw new ProtocolError(`MCP tool definition exceeds the ${limits.maxDefinitionNodes}-node limit`);
    if (Array.isArray(value)) {
      bytes += 2 + value.length;
      for (const child of value) stack.push([child, depth + 1]);
    } else if (isPlainObject(value)) {
      bytes += 2;
      for (const [key, child] of Object.entries(value)) {
        bytes += utf8Length(key) + 3;
        stack.push([child, depth + 1]);
      }
    } else if (typeof value === 'string') bytes += utf8Length(value) + 2;
    else if (typeof value === 'number' || typeof value === 'boolean' || value === null) bytes += String(value).length;
    else throw new ProtocolError('MCP tool definition contains a non-JSON value');
  }
  return { bytes, nodes };
}

/** Keywords whose value is one subschema (JSON Schema 2020-12 and draft-07). */
const SCHEMA_KEYWORDS = 'additionalProperties additionalItems items contains propertyNames not if then else unevaluatedItems unevaluatedProperties contentSchema'.split(' ');
/** Keywords whose value is a list of subschemas. */
const LIST_KEYWORDS = 'allOf anyOf oneOf prefixItems items'.split(' ');
/** Keywords whose value maps names to subschemas. */
const MAP_KEYWORDS = 'properties patternProperties $defs definitions dependentSchemas dependencies'.split(' ');

/**
 * Every schema object of `schema`, reached through schema positions only (the
 * subschema keywords above): a property *named* `pattern` or `$ref` under
 * `properties`, or a value under `const`, `enum`, `default` or `examples`, is
 * data, never a keyword. Iterative, so a deep schema cannot overflow the stack.
 */
export function schemaObjects(schema: unknown): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isPlainObject(node)) continue;
    found.push(node);
    const own = (keyword: string) => (Object.hasOwn(node, keyword) ? node[keyword] : undefined);
    for (const keyword of SCHEMA_KEYWORDS) if (isPlainObject(own(keyword))) stack.push(own(keyword));
    for (const keyword of LIST_KEYWORDS) if (Array.isArray(own(keyword))) stack.push(...(own(keyword) as unknown[]));
    for (const keyword of MAP_KEYWORDS) if (isPlainObject(own(keyword))) stack.push(...Object.values(own(keyword) as object));
  }
  return found;
}

/**
 * Checks the regular expressions of a schema (`pattern` keywords and
 * `patternProperties` keys, in schema positions only): at most
 * `maxSchemaPatterns`, each at most `maxSchemaPatternSourceBytes`, together at
 * most `maxSchemaPatternBytes`, and each a valid ECMAScript (unicode)
 * expression, as the validator runs them.
 */
export function checkSchemaPatterns(schema: unknown, field: string, limits: McpLimits): void {
  const patterns: string[] = [];
  for (const node of schemaObjects(schema)) {
    if (Object.hasOwn(node, 'pattern')) {
      if (typeof node.pattern !== 'string') throw new ProtocolError(`MCP tool ${field} pattern must be a string`);
      patterns.push(node.pattern);
    }
    if (Object.hasOwn(node, 'patternProperties')) {
      if (!isPlainObject(node.patternProperties)) throw new ProtocolError(`MCP tool ${field} patternProperties must be an object`);
      patterns.push(...Object.keys(node.patternProperties));
    }
  }
  if (patterns.length > limits.maxSchemaPatterns) {
    throw new ProtocolError(`MCP tool ${field} exceeded the ${limits.maxSchemaPatterns}-pattern limit`);
  }
  let total = 0;
  for (const pattern of patterns) {
    const size = utf8Length(pattern);
    if (size > limits.maxSchemaPatternSourceBytes) {
      throw new ProtocolError(`MCP tool ${field} pattern exceeded the ${limits.maxSchemaPatternSourceBytes}-byte limit`);
    }
    total += size;
    if (total > limits.maxSchemaPatternBytes) {
      throw new ProtocolError(`MCP tool ${field} patterns exceeded the ${limits.maxSchemaPatternBytes}-byte total limit`);
    }
    try {
      new RegExp(pattern, 'u');
    } catch {
      throw new ProtocolError(`MCP tool ${field} contains an invalid pattern`);
    }
  }
}

/** Throws `ProtocolError` when a `$ref` keyword of the schema does not resolve inside it (remote references are not fetched). */
export function checkSchemaReferences(schema: Record<string, unknown>, field: string): void {
  for (const node of schemaObjects(schema)) {
    if (Object.hasOwn(node, '$ref') && (typeof node.$ref !== 'string' || !resolves(schema, node.$ref))) {
      throw new ProtocolError(`MCP tool ${field} contains an unresolved reference`);
    }
  }
}

function resolves(root: Record<string, unknown>, ref: string): boolean {
  if (ref === '#') return true;
  if (!ref.startsWith('#/')) return false;
  let target: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    } catch {
      return false;
    }
    if (!isPlainObject(target) || !Object.hasOwn(target, key)) return false;
    target = target[key];
  }
  return isPlainObject(target) || typeof target === 'boolean';
}
