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

/**
 * Checks the regular expressions of a schema (`pattern` values and
 * `patternProperties` keys): at most `maxSchemaPatterns`, each at most
 * `maxSchemaPatternSourceBytes`, together at most `maxSchemaPatternBytes`, and
 * each a valid ECMAScript (unicode) expression, as the validator runs them.
 */
export function checkSchemaPatterns(schema: unknown, field: string, limits: McpLimits): void {
  const patterns: unknown[] = [];
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) stack.push(...value);
    else if (isPlainObject(value)) {
      if (Object.hasOwn(value, 'pattern')) {
        if (typeof value.pattern !== 'string') throw new ProtocolError(`MCP tool ${field} pattern must be a string`);
        patterns.push(value.pattern);
      }
      if (Object.hasOwn(value, 'patternProperties')) {
        if (!isPlainObject(value.patternProperties)) throw new ProtocolError(`MCP tool ${field} patternProperties must be an object`);
        patterns.push(...Object.keys(value.patternProperties));
      }
      stack.push(...Object.values(value));
    }
  }
  if (patterns.length > limits.maxSchemaPatterns) {
    throw new ProtocolError(`MCP tool ${field} exceeded the ${limits.maxSchemaPatterns}-pattern limit`);
  }
  let total = 0;
  for (const pattern of patterns as string[]) {
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

/** Throws `ProtocolError` when a `$ref` in the schema does not resolve inside it (remote references are not fetched). */
export function checkSchemaReferences(schema: Record<string, unknown>, field: string): void {
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) stack.push(...value);
    else if (isPlainObject(value)) {
      if (Object.hasOwn(value, '$ref') && (typeof value.$ref !== 'string' || !resolves(schema, value.$ref))) {
        throw new ProtocolError(`MCP tool ${field} contains an unresolved reference`);
      }
      stack.push(...Object.values(value));
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
