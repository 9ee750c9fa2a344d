import type { Tool as AiSdkTool } from 'ai';
import { ConfigurationError } from '../error/configuration-error.ts';
import { fromAiSdkTool, isAiSdkTool } from '../tool/ai-sdk-tool.ts';
import { MissingToolError } from '../tool/missing-tool-error.ts';
import { isTool, markTool } from '../tool/tool.ts';
import type { Tool } from '../tool/tool.ts';
import { isPlainObject } from '../util/json.ts';
import { createCapabilitySnapshot } from './capability-snapshot.ts';
import type { CapabilitySnapshot } from './capability-snapshot.ts';
import { descriptorText } from './tool-descriptor.ts';
import { assertToolId, toolAlias } from './tool-id.ts';

/** What a registry holds under an id: a Ghostlight tool or an AI SDK `tool()` value. */
export type RegistryTool = Tool<any, any> | AiSdkTool<any, any>;

/** Options of {@link ToolRegistry.attachMcpTools}. */
export interface AttachMcpToolsOptions {
  /** Registers each tool as `<prefix>.<name>` (e.g. `atlas.search`). */
  prefix?: string;
}

interface Entry {
  readonly tool: Tool;
  readonly descriptor: string;
}

const NOT_AN_ID_CHARACTER = /[^a-zA-Z0-9_.-]/g;

/**
 * Tools by id, supplied to runs (`toolRegistry` in the ask options) so agents
 * can name their tools instead of holding them. Registering new ids is
 * allowed at any time; an id, once registered, keeps its descriptor:
 * registering it again with a different description or schema throws, and
 * registering the same descriptor again changes nothing.
 *
 * Ids may contain dots for namespaces; the model sees a provider-safe alias
 * (`atlas.search` → `atlas__search`), and events and results report the id.
 */
export class ToolRegistry {
  /** The seam version. */
  readonly version = 'tool-registry-v1' as const;
  readonly #entries = new Map<string, Entry>();
  readonly #aliases = new Map<string, string>();

  /**
   * Registers `tool` under `id`. Throws a `ConfigurationError` for an invalid
   * id, an id already registered with a different descriptor, or an id whose
   * model-facing alias another id already uses.
   */
  register(id: string, tool: RegistryTool): this {
    const prepared = this.#prepare(id, tool);
    const existing = this.#entries.get(id);
    if (existing) {
      if (existing.descriptor !== prepared.descriptor) {
        throw new ConfigurationError(`Tool ${id} is already registered with a different descriptor`);
      }
      return this;
    }
    this.#assertAliasFree(id, prepared.tool.name);
    this.#add(id, prepared);
    return this;
  }

  /** Registers every entry of a record keyed by id (see {@link register}). */
  registerAll(tools: Readonly<Record<string, RegistryTool>>): this {
    if (!isPlainObject(tools)) throw new ConfigurationError('Expected a record of tools keyed by id');
    for (const [id, tool] of Object.entries(tools)) this.register(id, tool);
    return this;
  }

  /**
   * Registers the tools of an MCP server whose client the application owns:
   * an AI SDK tool record (`await mcpClient.tools()` from `@ai-sdk/mcp`) or
   * Ghostlight tools (`await client.tools()` from {@link connectMcp}). Each
   * becomes `<prefix>.<name>`; characters an id cannot hold become `_`. Any
   * collision — with a registered id, or between two tools of the batch —
   * throws before anything is registered. Returns the registered ids.
   *
   * @example
   * registry.attachMcpTools(await atlas.tools(), { prefix: 'atlas' }); // ['atlas.search', …]
   */
  attachMcpTools(tools: Readonly<Record<string, RegistryTool>> | readonly Tool[], options: AttachMcpToolsOptions = {}): string[] {
    const { prefix } = options;
    if (prefix !== undefined) assertToolId(prefix);
    const named: Array<[string, RegistryTool]> = Array.isArray(tools)
      ? tools.map((tool) => [isTool(tool) ? tool.name : invalidBatch(), tool])
      : isPlainObject(tools)
        ? Object.entries(tools)
        : invalidBatch();
    const batch = new Map<string, { tool: Tool; descriptor: string }>();
    const aliases = new Map<string, string>();
    for (const [name, tool] of named) {
      const id = prefix === undefined ? idFrom(name) : `${prefix}.${idFrom(name)}`;
      if (this.#entries.has(id) || batch.has(id)) throw new ConfigurationError(`Tool id collision: ${id}`);
      const prepared = this.#prepare(id, tool);
      this.#assertAliasFree(id, prepared.tool.name);
      const other = aliases.get(prepared.tool.name);
      if (other !== undefined) throw aliasCollision(other, id, prepared.tool.name);
      aliases.set(prepared.tool.name, id);
      batch.set(id, prepared);
    }
    for (const [id, prepared] of batch) this.#add(id, prepared);
    return [...batch.keys()];
  }

  /** The run tool registered under `id` (named with its model-facing alias), if any. */
  get(id: string): Tool | undefined {
    return this.#entries.get(id)?.tool;
  }

  /** Whether `id` is registered. */
  has(id: string): boolean {
    return this.#entries.has(id);
  }

  /** Every registered id, in registration order. */
  ids(): string[] {
    return [...this.#entries.keys()];
  }

  /** The tools for `ids`, in order; the first unknown id throws `MissingToolError`. */
  resolve(ids: readonly string[]): Tool[] {
    return ids.map((id) => {
      const tool = this.get(id);
      if (!tool) throw new MissingToolError(id);
      return tool;
    });
  }

  /**
   * Locks the descriptors of `ids` (every registered id when omitted) into a
   * capability snapshot; an unknown id throws `MissingToolError`. Pass the
   * snapshot to a later run as `capabilitySnapshot` to detect drift.
   */
  async snapshot(ids: readonly string[] = this.ids()): Promise<CapabilitySnapshot> {
    return createCapabilitySnapshot(this.resolve(ids));
  }

  #prepare(id: string, source: RegistryTool): Entry {
    assertToolId(id);
    const alias = toolAlias(id);
    let tool: Tool;
    if (isTool(source)) tool = markTool({ ...source, name: alias, id });
    else if (isAiSdkTool(source)) tool = markTool({ ...fromAiSdkTool(alias, source), id });
    else throw new ConfigurationError(`Tool ${id} must be defined with defineTool or be an AI SDK tool`);
    return { tool, descriptor: descriptorText(tool) };
  }

  #assertAliasFree(id: string, alias: string): void {
    const other = this.#aliases.get(alias);
    if (other !== undefined && other !== id) throw aliasCollision(other, id, alias);
  }

  #add(id: string, entry: Entry): void {
    this.#entries.set(id, entry);
    this.#aliases.set(entry.tool.name, id);
  }
}

/**
 * Creates a tool registry from a record keyed by id.
 *
 * @example
 * const registry = createToolRegistry({ fetchCandidates, 'atlas.search': atlasSearch });
 * const run = await agent.ask('Shortlist job 7', { toolRegistry: registry }); // agent tools: ['fetchCandidates', 'atlas.search']
 */
export function createToolRegistry(tools: Readonly<Record<string, RegistryTool>> = {}): ToolRegistry {
  return new ToolRegistry().registerAll(tools);
}

function invalidBatch(): never {
  throw new ConfigurationError('attachMcpTools expects an AI SDK tool record or an array of tools');
}

function idFrom(name: string): string {
  if (typeof name !== 'string' || name.length === 0) throw new ConfigurationError('MCP tools must have names');
  return name.replace(NOT_AN_ID_CHARACTER, '_');
}

function aliasCollision(first: string, second: string, alias: string): ConfigurationError {
  return new ConfigurationError(`Tool ids "${first}" and "${second}" map to "${alias}"`);
}
