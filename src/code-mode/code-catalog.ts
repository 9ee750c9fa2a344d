import { ConfigurationError } from '../error/configuration-error.ts';
import type { JsonSchema } from '../schema/json-schema.ts';
import type { Tool } from '../tool/tool.ts';

/** One tool as programs see it. */
export interface CodeCatalogEntry {
  /** The identifier in programs: `tools.<name>(args)`. */
  readonly name: string;
  /** The tool's own (model-visible) name, which calls go to. */
  readonly toolName: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema | undefined;
}

/** Names a program cannot use for a tool: the code-mode controls. */
export const RESERVED_CODE_NAMES: readonly string[] = Object.freeze(['exec', 'wait', 'stop']);

/**
 * Turns a tool name into a JavaScript identifier: characters outside
 * `[A-Za-z0-9_$]` become `_`, a leading non-identifier character gets a `_`
 * prefix, and `then` (which would make `tools` thenable) and `call` (the
 * dynamic form `tools.call(name, args)`) get one too.
 */
export function normalizeCodeName(name: string): string {
  let normalized = name.replace(/[^A-Za-z0-9_$]/g, '_');
  if (!/^[A-Za-z_$]/.test(normalized)) normalized = `_${normalized}`;
  if (normalized === 'then' || normalized === 'call') normalized = `_${normalized}`;
  return normalized;
}

/**
 * The tools a program may call, under identifier names. Two tools whose names
 * normalise to the same identifier, or a tool named like a control, are a
 * `ConfigurationError`.
 */
export class CodeCatalog {
  readonly entries: readonly CodeCatalogEntry[];
  readonly #byName = new Map<string, CodeCatalogEntry>();
  readonly #byToolName = new Map<string, CodeCatalogEntry>();

  constructor(tools: readonly Pick<Tool, 'name' | 'description' | 'input' | 'output'>[]) {
    const entries: CodeCatalogEntry[] = [];
    for (const tool of tools) {
      const name = normalizeCodeName(tool.name);
      if (RESERVED_CODE_NAMES.includes(name)) {
        throw new ConfigurationError(`Code-mode tool name ${JSON.stringify(tool.name)} conflicts with reserved tool ${JSON.stringify(name)}`);
      }
      const existing = this.#byName.get(name);
      if (existing) {
        throw new ConfigurationError(
          `Code-mode tool names ${JSON.stringify(existing.toolName)} and ${JSON.stringify(tool.name)} both normalize to ${JSON.stringify(name)}`,
        );
      }
      const entry = Object.freeze({
        name,
        toolName: tool.name,
        description: tool.description,
        inputSchema: tool.input.jsonSchema,
        outputSchema: tool.output?.jsonSchema,
      });
      entries.push(entry);
      this.#byName.set(name, entry);
      this.#byToolName.set(tool.name, entry);
    }
    this.entries = Object.freeze(entries);
  }

  /** Finds a tool by its identifier or its own name, with or without a `tools.` prefix. */
  resolve(name: string): CodeCatalogEntry | undefined {
    const bare = name.startsWith('tools.') ? name.slice('tools.'.length) : name;
    return this.#byName.get(bare) ?? this.#byToolName.get(bare);
  }
}
