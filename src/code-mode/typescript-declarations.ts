import type { CodeCatalogEntry } from './code-catalog.ts';

type Schema = Record<string, unknown>;

/**
 * Renders the catalog as one TypeScript declaration: `declare const tools`
 * with one method per tool, typed from its input schema (and its output
 * schema when it declares one), each preceded by its description.
 */
export function renderDeclarations(entries: readonly CodeCatalogEntry[]): string {
  const body = entries
    .map((entry) => {
      const output = entry.outputSchema === undefined ? 'unknown' : schemaToTypeScript(entry.outputSchema);
      const signature = `${entry.name}(args: ${schemaToTypeScript(entry.inputSchema)}): Promise<${output}>;`;
      return [comment(entry.description), signature].filter((line) => line !== undefined).join('\n');
    })
    .join('\n');
  return `declare const tools: {\n${indent(body)}\n};`;
}

/**
 * The TypeScript type of values a JSON Schema accepts, by the seeds' rules:
 * `const` → literal, `enum` → literal union, `anyOf`/`oneOf` → union,
 * `allOf` → intersection, type arrays → union, objects with optional `?`
 * properties and index signatures, arrays and tuples, else `unknown`.
 */
export function schemaToTypeScript(schema: unknown): string {
  if (schema === true || schema === undefined) return 'unknown';
  if (schema === false) return 'never';
  if (typeof schema !== 'object' || schema === null) return 'unknown';
  const node = schema as Schema;
  if ('const' in node) return JSON.stringify(node.const) ?? 'unknown';
  if (Array.isArray(node.enum)) return node.enum.map((value) => JSON.stringify(value)).join(' | ');
  const alternatives = node.anyOf ?? node.oneOf;
  if (Array.isArray(alternatives)) return alternatives.map(schemaToTypeScript).join(' | ');
  if (Array.isArray(node.allOf)) {
    return node.allOf
      .map((child) => {
        const rendered = schemaToTypeScript(child);
        return rendered.includes(' | ') ? `(${rendered})` : rendered;
      })
      .join(' & ');
  }
  const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
  if (types.length > 1) return [...new Set(types.map((type) => schemaToTypeScript({ ...node, type })))].join(' | ');
  switch (types[0]) {
    case 'object':
      return objectType(node);
    case 'array':
      return arrayType(node);
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    default:
      return 'properties' in node ? objectType(node) : 'unknown';
  }
}

function objectType(schema: Schema): string {
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
  const properties = typeof schema.properties === 'object' && schema.properties !== null ? (schema.properties as Schema) : {};
  const lines = Object.entries(properties).map(([name, child]) => {
    const key = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
    const description = typeof child === 'object' && child !== null ? (child as Schema).description : undefined;
    const optional = required.includes(name) ? '' : '?';
    const line = `${key}${optional}: ${schemaToTypeScript(child)};`;
    return [comment(description), line].filter((part) => part !== undefined).join('\n');
  });
  const additional = schema.additionalProperties;
  if (additional === true) lines.push('[key: string]: unknown;');
  else if (typeof additional === 'object' && additional !== null) lines.push(`[key: string]: ${schemaToTypeScript(additional)};`);
  if (lines.length === 0) return additional === false ? 'Record<string, never>' : 'Record<string, unknown>';
  return `{\n${indent(lines.join('\n'))}\n}`;
}

function arrayType(schema: Schema): string {
  const tuple = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined;
  if (tuple) return `[${tuple.map(schemaToTypeScript).join(', ')}]`;
  if (schema.items === undefined) return 'unknown[]';
  return `Array<${schemaToTypeScript(schema.items)}>`;
}

/** A one-line JSDoc comment, or nothing for an empty description. */
function comment(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const sanitized = value.replaceAll('*/', '*\\/').replace(/\s+/g, ' ').trim();
  return sanitized.length === 0 ? undefined : `/** ${sanitized} */`;
}

function indent(text: string): string {
  if (text.length === 0) return '';
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
