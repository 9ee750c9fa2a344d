import { ConfigurationError } from '../error/configuration-error.ts';
import { UseAfterDisposeError } from '../lifetime/async-scope.ts';
import { fromAiSdkTools, isAiSdkToolSet } from './ai-sdk-tool.ts';
import { MissingToolError } from './missing-tool-error.ts';
import { isTool } from './tool.ts';
import type { Tool } from './tool.ts';
import type { ToolBinding } from './tool-binding.ts';
import type { ToolDeclaration } from './tool-declaration.ts';

/**
 * The tools of one run: declarations resolved against the run's binding
 * (providers called, `availableIf` applied, AI SDK records adapted), checked
 * for name collisions, and closed once, in reverse order, when the run ends.
 */
export class RunTools {
  readonly #byName = new Map<string, Tool>();
  /** Every tool the run took on, in order, including one rejected for a collision: all are closed. */
  readonly #taken: Tool[] = [];
  readonly #binding: ToolBinding;
  readonly #lookup: ToolLookup | undefined;
  #closed = false;

  private constructor(binding: ToolBinding, lookup: ToolLookup | undefined) {
    this.#binding = binding;
    this.#lookup = lookup;
  }

  /**
   * Resolves `declarations` for one run. On a collision it closes every tool
   * it took on, then throws `ConfigurationError("Tool name collision: X")`.
   * Tool ids (strings) are resolved with `options.lookup`, the run's tool
   * registry; an id it does not know is a `MissingToolError`.
   */
  static async resolve(
    declarations: readonly ToolDeclaration[],
    binding: ToolBinding,
    options: { lookup?: ToolLookup | undefined } = {},
  ): Promise<RunTools> {
    const runTools = new RunTools(binding, options.lookup);
    try {
      await runTools.#collect(declarations);
    } catch (error) {
      await runTools.close();
      throw error;
    }
    return runTools;
  }

  /** The tool named `name`, if the run has one. */
  get(name: string): Tool | undefined {
    this.#assertOpen();
    return this.#byName.get(name);
  }

  /** Every tool, in declaration order. */
  list(): Tool[] {
    this.#assertOpen();
    return [...this.#byName.values()];
  }

  /** Adds tools after resolution (capabilities such as skills or code mode); a collision throws. */
  add(tools: readonly Tool[]): void {
    this.#assertOpen();
    for (const tool of tools) this.#take(tool);
  }

  /** Whether `close` has run. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Calls each tool's `close` once, in reverse order; returns the failures. */
  async close(): Promise<unknown[]> {
    if (this.#closed) return [];
    this.#closed = true;
    const failures: unknown[] = [];
    for (let index = this.#taken.length - 1; index >= 0; index--) {
      const tool = this.#taken[index]!;
      if (!tool.close) continue;
      try {
        await tool.close(this.#binding);
      } catch (error) {
        failures.push(error);
      }
    }
    return failures;
  }

  #take(tool: Tool): void {
    this.#taken.push(tool);
    if (this.#byName.has(tool.name)) throw new ConfigurationError(`Tool name collision: ${tool.name}`);
    this.#byName.set(tool.name, tool);
  }

  async #collect(declaration: ToolDeclaration): Promise<void> {
    if (declaration === null || declaration === undefined || declaration === false) return;
    if (typeof declaration === 'string') {
      await this.#collect(this.#named(declaration));
    } else if (Array.isArray(declaration)) {
      for (const child of declaration) await this.#collect(child);
    } else if (isTool(declaration)) {
      if (declaration.availableIf && !(await declaration.availableIf(this.#binding))) return;
      this.#take(declaration);
    } else if (typeof declaration === 'function') {
      await this.#collect(await declaration(this.#binding));
    } else if (isAiSdkToolSet(declaration)) {
      await this.#collect(fromAiSdkTools(declaration));
    } else {
      throw new ConfigurationError('Tools must be defined with defineTool, be AI SDK tool records, or be tool providers');
    }
  }

  #named(id: string): Tool {
    if (!this.#lookup) throw new MissingToolError(id, { message: `Tool ${id} is named, but the run has no tool registry` });
    const tool = this.#lookup(id);
    if (!tool) throw new MissingToolError(id);
    return tool;
  }

  #assertOpen(): void {
    if (this.#closed) throw new UseAfterDisposeError('The tools of this run');
  }
}

/** Finds a registry tool by id for a run (the run's `toolRegistry`). */
export type ToolLookup = (id: string) => Tool | undefined;
