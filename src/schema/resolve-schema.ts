import { toJsonSchema } from '@valibot/to-json-schema';
import type { BaseIssue, BaseSchema } from 'valibot';
import { ConfigurationError } from '../error/configuration-error.ts';
import { isPlainObject } from '../util/json.ts';
import type { JsonSchema } from './json-schema.ts';
import { validateJson } from './validate-json.ts';

/** The outcome of checking a value against a resolved schema. */
export type SchemaCheck<T = unknown> =
  | { success: true; value: T }
  | { success: false; issues: string[] };

/**
 * A schema in the two forms Ghostlight needs: JSON Schema for models and
 * catalogs, and a checker that returns the parsed value or path-prefixed
 * issues (`$.city is required`).
 */
export interface ResolvedSchema<T = unknown> {
  /** The JSON Schema (draft 2020-12 vocabulary) sent to models and shown in catalogs. */
  readonly jsonSchema: JsonSchema;
  /** Checks `value`; returns the parsed value (after schema transforms) or the issues. */
  check(value: unknown): Promise<SchemaCheck<T>>;
}

/**
 * What may describe a tool's input or output: a valibot schema, any Standard
 * Schema that can produce JSON Schema (valibot's `toStandardJsonSchema`,
 * zod 4), an AI SDK `Schema` (`jsonSchema(...)`, `zodSchema(...)`), or a plain
 * JSON Schema object.
 */
export type SchemaInput = object;

interface StandardProps {
  vendor: string;
  validate(value: unknown): StandardResult | PromiseLike<StandardResult>;
  jsonSchema?: { input(options: { target: string }): unknown };
}

type StandardResult =
  | { value: unknown; issues?: undefined }
  | { issues: ReadonlyArray<{ message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }> };

const schemaSymbol = Symbol.for('vercel.ai.schema');

/**
 * Turns any supported schema into a {@link ResolvedSchema}.
 *
 * A bare valibot schema is converted with `@valibot/to-json-schema` (it must
 * never silently lose its JSON Schema, which is the trap AI SDK falls into);
 * a schema that cannot be converted is a `ConfigurationError` naming `what`.
 */
export function resolveSchema<T = unknown>(input: SchemaInput, what: string): ResolvedSchema<T> {
  if ((typeof input !== 'object' && typeof input !== 'function') || input === null) {
    throw new ConfigurationError(`${what} must be a valibot schema, a Standard Schema, an AI SDK schema or a JSON Schema object`);
  }
  const standard = standardProps(input);
  if (standard) {
    const jsonSchema = standardJsonSchema(input, standard, what);
    return withStructuralCheck<T>(jsonSchema, async (value) => checkStandard<T>(standard, value));
  }
  if (schemaSymbol in input || typeof input === 'function') {
    return aiSdkSchema<T>(input, what);
  }
  if (isPlainObject(input)) {
    const jsonSchema = input as JsonSchema;
    return withStructuralCheck<T>(jsonSchema, undefined);
  }
  throw new ConfigurationError(`${what} must be a valibot schema, a Standard Schema, an AI SDK schema or a JSON Schema object`);
}

function withStructuralCheck<T>(
  jsonSchema: JsonSchema,
  refine: ((value: unknown) => Promise<SchemaCheck<T>>) | undefined,
): ResolvedSchema<T> {
  return {
    jsonSchema,
    async check(value) {
      const issues = validateJson(jsonSchema, value);
      if (issues.length > 0) return { success: false, issues };
      return refine ? refine(value) : { success: true, value: value as T };
    },
  };
}

function standardProps(input: object): StandardProps | undefined {
  const props = (input as { '~standard'?: StandardProps })['~standard'];
  return props && typeof props.validate === 'function' ? props : undefined;
}

function standardJsonSchema(input: object, standard: StandardProps, what: string): JsonSchema {
  try {
    if (standard.vendor === 'valibot' && (input as { kind?: unknown }).kind === 'schema') {
      return stripDialect(
        toJsonSchema(input as BaseSchema<unknown, unknown, BaseIssue<unknown>>, {
          target: 'draft-2020-12',
          errorMode: 'throw',
        }) as JsonSchema,
      );
    }
    if (standard.jsonSchema) {
      return stripDialect(standard.jsonSchema.input({ target: 'draft-2020-12' }) as JsonSchema);
    }
  } catch (error) {
    throw new ConfigurationError(`${what} cannot be converted to JSON Schema: ${(error as Error).message}`, {
      cause: error,
    });
  }
  throw new ConfigurationError(
    `${what} is a ${standard.vendor} Standard Schema without JSON Schema support; wrap it so it can describe itself to the model`,
  );
}

async function checkStandard<T>(standard: StandardProps, value: unknown): Promise<SchemaCheck<T>> {
  const result = await standard.validate(value);
  if (!result.issues) return { success: true, value: (result as { value: T }).value };
  return { success: false, issues: result.issues.map((issue) => `${issuePath(issue.path)} ${issue.message}`) };
}

function issuePath(path: ReadonlyArray<PropertyKey | { key: PropertyKey }> | undefined): string {
  let text = '$';
  for (const segment of path ?? []) {
    const key = typeof segment === 'object' ? segment.key : segment;
    text += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  }
  return text;
}

/** The parts of an AI SDK `Schema` (`jsonSchema(...)`, `zodSchema(...)`) Ghostlight reads. */
interface AiSdkSchema {
  readonly jsonSchema: unknown;
  validate?(value: unknown): { success: true; value: unknown } | { success: false; error: Error } | PromiseLike<{ success: true; value: unknown } | { success: false; error: Error }>;
}

/**
 * An AI SDK schema, read directly rather than through `asSchema` (which would
 * bring zod into every bundle): the object `jsonSchema(...)` returns, or a
 * lazy schema (a function returning one).
 */
function aiSdkSchema<T>(input: object, what: string): ResolvedSchema<T> {
  const schema = (typeof input === 'function' ? (input as () => unknown)() : input) as AiSdkSchema;
  if (typeof schema !== 'object' || schema === null || !(schemaSymbol in schema)) {
    throw new ConfigurationError(`${what} must be a valibot schema, a Standard Schema, an AI SDK schema or a JSON Schema object`);
  }
  const jsonSchema = schema.jsonSchema;
  if (!isPlainObject(jsonSchema)) {
    throw new ConfigurationError(`${what} has an asynchronous JSON Schema, which Ghostlight does not support`);
  }
  const validate = schema.validate?.bind(schema);
  return withStructuralCheck<T>(stripDialect(jsonSchema as JsonSchema), validate
    ? async (value) => {
        const result = await validate(value);
        return result.success
          ? { success: true, value: result.value as T }
          : { success: false, issues: [`$ ${result.error.message}`] };
      }
    : undefined);
}

function stripDialect(schema: JsonSchema): JsonSchema {
  if (!('$schema' in schema)) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
