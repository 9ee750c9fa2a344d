import { ConfigurationError } from '../error/configuration-error.ts';
import type { JsonSchema } from '../schema/json-schema.ts';
import { resolveSchema } from '../schema/resolve-schema.ts';
import type { SchemaCheck, SchemaInput } from '../schema/resolve-schema.ts';
import { validateJson } from '../schema/validate-json.ts';
import { isPlainObject } from '../util/json.ts';
import { assertResultSchema } from './check-result-schema.ts';

/**
 * How the model returns its structured result: `provider` (the provider's
 * native structured output), `tool` (a terminal tool named after the schema),
 * or `auto` (provider when the model supports it, else tool).
 */
export type ResultStrategy = 'auto' | 'provider' | 'tool';

/** A result schema with its name, description and strategy. */
export interface ResultOptions {
  /** A valibot schema (use `v.strictObject`, and `v.nullable` rather than `v.optional`) or a JSON Schema object. */
  readonly schema: SchemaInput;
  /** The schema's name, `^[a-zA-Z0-9_-]{1,64}$` (default `<agent name>_result`). Also the result tool's name. */
  readonly name?: string;
  /** Guidance for the model about the result. */
  readonly description?: string;
  /** The strategy (default `auto`). */
  readonly strategy?: ResultStrategy;
}

/** What an agent's `result` field accepts: a schema, or a schema with options. */
export type ResultDeclaration = SchemaInput | ResultOptions;

/** A checked result schema, ready for runs. */
export interface ResultSchema {
  readonly name: string;
  readonly description: string | undefined;
  readonly strategy: ResultStrategy;
  /** The JSON Schema sent to the model (inside the supported subset). */
  readonly jsonSchema: JsonSchema;
  /** Property names the schema declares (model-facing issues never echo other names). */
  readonly declaredNames: ReadonlySet<string>;
  /** Checks a parsed value: the subset validator's issues, then the schema library's own checks. */
  check(value: unknown): Promise<SchemaCheck>;
}

const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const STRATEGIES: readonly string[] = ['auto', 'provider', 'tool'];

/**
 * Checks a result declaration at definition time: the schema must convert to
 * JSON Schema inside the supported subset (the `ConfigurationError` names the
 * JSON path), the name must match `^[a-zA-Z0-9_-]{1,64}$` and the strategy must
 * be `auto`, `provider` or `tool`.
 */
export function defineResultSchema(declaration: ResultDeclaration, agentName: string): ResultSchema {
  const options = isResultOptions(declaration) ? declaration : { schema: declaration };
  const resolved = resolveSchema(options.schema, 'result_schema');
  const jsonSchema = normalizeNullable(resolved.jsonSchema) as JsonSchema;
  assertResultSchema(jsonSchema);
  const name = options.name ?? `${agentName.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 57)}_result`;
  if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
    throw new ConfigurationError('result_schema name must contain 1-64 letters, numbers, underscores, or hyphens');
  }
  const strategy = options.strategy ?? 'auto';
  if (!STRATEGIES.includes(strategy)) throw new ConfigurationError('result_schema strategy must be auto, provider, or tool');
  if (options.description !== undefined && typeof options.description !== 'string') {
    throw new ConfigurationError('result_schema description must be a string');
  }
  return Object.freeze({
    name,
    description: options.description,
    strategy,
    jsonSchema,
    declaredNames: declaredNames(jsonSchema),
    async check(value: unknown): Promise<SchemaCheck> {
      const issues = validateJson(jsonSchema, value);
      if (issues.length > 0) return { success: false, issues };
      return resolved.check(value);
    },
  });
}

function isResultOptions(value: ResultDeclaration): value is ResultOptions {
  return isPlainObject(value) && 'schema' in value && !('type' in value) && !('~standard' in value);
}

/**
 * Rewrites `anyOf: [X, {type: 'null'}]` (how valibot's `v.nullable` converts)
 * into `X` with `null` added to its `type` (and `enum`), which keeps nullable
 * fields inside the subset.
 */
function normalizeNullable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(normalizeNullable);
  if (!isPlainObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isPlainObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, normalizeNullable(child)]));
    } else if (key === 'items' || key === 'additionalProperties') out[key] = normalizeNullable(value);
    else out[key] = value;
  }
  const anyOf = out.anyOf;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return out;
  const nullIndex = anyOf.findIndex((branch) => isPlainObject(branch) && branch.type === 'null' && Object.keys(branch).length === 1);
  const other = anyOf[1 - nullIndex];
  if (nullIndex < 0 || !isPlainObject(other) || typeof other.type !== 'string') return out;
  const { anyOf: _anyOf, ...rest } = out;
  const merged: Record<string, unknown> = { ...rest, ...(normalizeNullable(other) as Record<string, unknown>) };
  merged.type = [other.type, 'null'];
  if (Array.isArray(merged.enum) && !merged.enum.includes(null)) merged.enum = [...merged.enum, null];
  return merged;
}

function declaredNames(schema: JsonSchema): Set<string> {
  const names = new Set<string>();
  const visit = (node: unknown) => {
    if (!isPlainObject(node)) return;
    if (isPlainObject(node.properties)) {
      for (const [name, child] of Object.entries(node.properties)) {
        names.add(name);
        visit(child);
      }
    }
    visit(node.items);
    visit(node.additionalProperties);
  };
  visit(schema);
  return names;
}
