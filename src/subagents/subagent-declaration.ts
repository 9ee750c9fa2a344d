import type { LanguageModel } from 'ai';
import type { Agent } from '../agent/agent.ts';
import { defineAgent } from '../agent/agent.ts';
import { isAgent } from '../agent/as-tool.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import type { ToolBinding } from '../tool/tool-binding.ts';
import type { ToolDeclaration } from '../tool/tool-declaration.ts';
import { isPlainObject } from '../util/json.ts';

/** One kind of subagent an agent may spawn. */
export interface SubagentDeclaration {
  /** The model-visible kind (`spawn_subagent`'s `kind`); default: the agent's name. */
  kind?: string | undefined;
  /** The agent that runs each turn of this kind. */
  agent: Agent<any>;
  /** What this kind is for, shown to the model with the kind. */
  description: string;
  /** Runs the agent with this model instead of its own. */
  model?: LanguageModel | string | undefined;
  /** Gives the agent these tools instead of its own; it never inherits the parent's. */
  tools?: readonly ToolDeclaration[] | undefined;
  /**
   * Keep the registry entry and the conversation in the run's session store so
   * a later run of the same session can continue it (default true; it takes
   * effect only when the run has `sessions`).
   */
  persist?: boolean | undefined;
}

/** Declarations made for each run, from its binding (its identity and context). Declared kinds win over resolved ones. */
export type SubagentResolver = (binding: ToolBinding) => readonly SubagentDeclaration[] | Promise<readonly SubagentDeclaration[]>;

/** A checked declaration: its kind, the agent with any overrides applied, and its policy. */
export interface SubagentKind {
  readonly kind: string;
  readonly description: string;
  readonly agent: Agent<any>;
  readonly persist: boolean;
  /** Whether the agent declares a result schema (its responses are values, not text). */
  readonly structured: boolean;
}

const MAX_KIND_LENGTH = 64;

/** Checks declarations and applies their overrides; a duplicate kind is a `ConfigurationError`. */
export function checkDeclarations(declarations: unknown, what: string): SubagentKind[] {
  if (!Array.isArray(declarations)) throw new ConfigurationError(`${what} must be a list of subagent declarations`);
  const kinds = new Set<string>();
  return declarations.map((declaration) => {
    const checked = checkDeclaration(declaration, what);
    if (kinds.has(checked.kind)) throw new ConfigurationError(`Duplicate subagent kind: ${checked.kind}`);
    kinds.add(checked.kind);
    return checked;
  });
}

/** The run's kinds: the declared ones, then the resolver's whose kind was not declared. */
export async function resolveKinds(declared: readonly SubagentKind[], resolver: SubagentResolver | undefined, binding: ToolBinding): Promise<SubagentKind[]> {
  if (!resolver) return [...declared];
  const resolved = checkDeclarations(await resolver(binding), 'A subagent resolver');
  const taken = new Set(declared.map((kind) => kind.kind));
  return [...declared, ...resolved.filter((kind) => !taken.has(kind.kind))];
}

function checkDeclaration(declaration: unknown, what: string): SubagentKind {
  if (!isPlainObject(declaration) || !isAgent(declaration.agent)) {
    throw new ConfigurationError(`${what} must give subagent declarations: { kind, agent, description } with an agent from defineAgent`);
  }
  const { agent, model, tools } = declaration as unknown as SubagentDeclaration;
  const kind = declaration.kind ?? agent.name;
  if (typeof kind !== 'string' || kind.length === 0 || kind.length > MAX_KIND_LENGTH || /[\p{Cc}]/u.test(kind)) {
    throw new ConfigurationError(`Subagent kind must be a non-empty line of at most ${MAX_KIND_LENGTH} characters: ${String(kind)}`);
  }
  if (typeof declaration.description !== 'string' || declaration.description.trim().length === 0) {
    throw new ConfigurationError(`Subagent kind ${kind} needs a description`);
  }
  if (declaration.persist !== undefined && typeof declaration.persist !== 'boolean') throw new ConfigurationError(`persist of subagent kind ${kind} must be a boolean`);
  if (tools !== undefined && !Array.isArray(tools)) throw new ConfigurationError('Delegated tools must be a list of tools');
  const delegate =
    model === undefined && tools === undefined
      ? agent
      : defineAgent({ ...agent.definition, ...(model !== undefined ? { model } : {}), ...(tools !== undefined ? { tools } : {}) });
  return {
    kind,
    description: declaration.description,
    agent: delegate,
    persist: declaration.persist !== false,
    structured: delegate.definition.result !== undefined,
  };
}
