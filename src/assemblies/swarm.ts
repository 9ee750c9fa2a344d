import type { UserModelMessage } from 'ai';
import { defineAgent } from '../agent/agent.ts';
import type { Agent } from '../agent/agent.ts';
import { isAgent } from '../agent/as-tool.ts';
import { cancel } from '../agent/hooks.ts';
import type { AgentHooks } from '../agent/hooks.ts';
import type { Run } from '../agent/run.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import { ProtocolError } from '../error/protocol-error.ts';
import { defineTool } from '../tool/define-tool.ts';
import { ToolError } from '../tool/tool-error.ts';
import { AssemblyLimitError, AssemblyRoutingError } from './assembly-errors.ts';
import type { AssemblyExecution } from './assembly-execution.ts';
import { checkName, Composite } from './composite.ts';
import { resolveStepPolicy, STEP_POLICY_KEYS } from './step-policy.ts';
import type { ResolvedStepPolicy, StepPolicy } from './step-policy.ts';

/** SPEC A15 Swarm defaults. */
export const DEFAULT_SWARM_MAX_STEPS = 20;
export const DEFAULT_MAX_HANDOFF_REPEATS = 3;
/** The tool a member hands off with. */
export const HANDOFF_TOOL_NAME = 'handoff_to_agent';

/** A swarm member with its options. */
export interface SwarmMemberOptions extends StepPolicy {
  readonly agent: Agent<any>;
  /** Whether the member sees the caller's history (default false). */
  readonly history?: boolean | undefined;
  /** Whether the member sees the caller's application context (default false). */
  readonly context?: boolean | undefined;
  /** What the member does, for the handoff tool's description ("id: description"). */
  readonly description?: string | undefined;
}

/** What `defineSwarm` takes. */
export interface SwarmSpec {
  readonly name: string;
  readonly description?: string | undefined;
  /** At least two agents by id (an agent, or `{ agent, history, context, timeout, retries, retryOn, retryDelay }`). */
  readonly members: Readonly<Record<string, Agent<any> | SwarmMemberOptions>>;
  /** The member that answers first. */
  readonly start: string;
  /** The declared routes: each source's unique targets (never itself). Without it every member may hand off to every other. */
  readonly handoffs?: Readonly<Record<string, readonly string[]>> | undefined;
  /** Most member runs (default 20). */
  readonly maxSteps?: number | undefined;
  /** Most repeats of one directed handoff, such as triage → billing (default 3). */
  readonly maxHandoffRepeats?: number | undefined;
}

interface Member {
  readonly id: string;
  readonly agent: Agent<any>;
  readonly history: boolean;
  readonly context: boolean;
  readonly policy: ResolvedStepPolicy;
  readonly description: string | undefined;
}

interface Transition {
  readonly agentId: string;
  readonly message: string;
  readonly context?: Record<string, unknown>;
}

/**
 * A swarm: one member agent active at a time; the active member may hand the
 * request to a declared next member with the `handoff_to_agent` tool. The
 * members' intermediate text stays out of the caller's stream; the member that
 * answers streams.
 */
export class Swarm<TOutput = unknown> extends Composite<TOutput> {
  readonly name: string;
  readonly kind = 'swarm' as const;
  readonly description: string | undefined;
  readonly start: string;
  readonly maxSteps: number;
  readonly maxHandoffRepeats: number;
  readonly #members: ReadonlyMap<string, Member>;
  readonly #routes: ReadonlyMap<string, readonly string[]>;
  /** Each member with routes, defined once with its handoff tool and hooks; a step's handoff is found by its run id. */
  readonly #handoffs: ReadonlyMap<string, MemberHandoff>;

  constructor(spec: SwarmSpec, members: ReadonlyMap<string, Member>, routes: ReadonlyMap<string, readonly string[]>) {
    super();
    this.name = spec.name;
    this.description = spec.description;
    this.start = spec.start;
    this.maxSteps = spec.maxSteps ?? DEFAULT_SWARM_MAX_STEPS;
    this.maxHandoffRepeats = spec.maxHandoffRepeats ?? DEFAULT_MAX_HANDOFF_REPEATS;
    this.#members = members;
    this.#routes = routes;
    const descriptions = new Map([...members].map(([id, member]) => [id, member.description]));
    this.#handoffs = new Map(
      [...members.values()].flatMap((member) => {
        const allowed = routes.get(member.id) ?? [];
        return allowed.length > 0 ? [[member.id, memberHandoff(member.agent, allowed, descriptions)] as const] : [];
      }),
    );
    Object.freeze(this);
  }

  /** The member ids, in declaration order. */
  get members(): readonly string[] {
    return [...this.#members.keys()];
  }

  /** The members `id` may hand off to. */
  routesFrom(id: string): readonly string[] {
    return this.#routes.get(id) ?? [];
  }

  protected async perform(execution: AssemblyExecution): Promise<Run> {
    const repeats = new Map<string, number>();
    let current = this.start;
    let input: UserModelMessage = execution.input;
    let previous: string | undefined;
    for (let step = 1; ; step++) {
      execution.checkControl();
      if (step > this.maxSteps) throw new AssemblyLimitError(`${this.name} reached its maxSteps limit of ${this.maxSteps}`);
      const member = this.#members.get(current)!;
      const allowed = this.routesFrom(current);
      const handoff = this.#handoffs.get(current);
      const attempts: string[] = [];
      let attempt: HandoffState | undefined;
      let result;
      try {
        result = await execution.runStep({
          participant: current,
          child: handoff ? handoff.agent : member.agent,
          input,
          history: member.history ? execution.history : [],
          context: member.context ? execution.context : {},
          policy: member.policy,
          predecessorIds: previous ? [previous] : [],
          events: 'buffer',
          step,
          started: (runId) => {
            if (!handoff) return;
            attempts.push(runId);
            handoff.states.set(runId, (attempt = { alone: true }));
          },
          accept: (run) => attempt?.transition !== undefined && run.outcome === 'cancelled' && !execution.signal.aborted,
          recordOutput: (run) => (attempt?.transition ? { ...attempt.transition } : run.output),
        });
      } finally {
        for (const runId of attempts) handoff?.states.delete(runId);
      }
      previous = result.step.id;
      const transition = attempt?.transition;
      if (!transition) {
        execution.release(result.buffered);
        return result.run;
      }
      if (!allowed.includes(transition.agentId)) throw new AssemblyRoutingError(`swarm member selected unavailable target ${JSON.stringify(transition.agentId)}`);
      const key = `${current}\u0000${transition.agentId}`;
      const count = (repeats.get(key) ?? 0) + 1;
      repeats.set(key, count);
      const source = { assembly: this.name, assemblyKind: 'swarm' as const };
      if (count > this.maxHandoffRepeats) {
        execution.emit({ type: 'assembly-handoff-loop', ...source, from: current, to: transition.agentId, count });
        throw new AssemblyLimitError(`swarm repeated handoff ${JSON.stringify(current)} -> ${JSON.stringify(transition.agentId)} too many times`);
      }
      execution.emit({ type: 'assembly-transition', ...source, step, from: current, to: transition.agentId, handoff: true });
      input = { role: 'user', content: handoffInput(current, transition) };
      current = transition.agentId;
    }
  }
}

/** The input the next member gets: "Handoff from X:\n<message>", plus the context as JSON when the member sent one. */
export function handoffInput(from: string, transition: Transition): string {
  let text = `Handoff from ${from}:\n${transition.message}`;
  if (transition.context !== undefined) {
    let json: string;
    try {
      json = JSON.stringify(transition.context);
    } catch (error) {
      throw new AssemblyRoutingError('swarm handoff context must be JSON-compatible', { cause: error });
    }
    text += `\n\nAdditional context supplied by the previous agent:\n${json}`;
  }
  return text;
}

/** What one attempt of a member step did with its handoff tool. */
interface HandoffState {
  transition?: Transition;
  /** Whether the handoff call was the only tool call of its response. */
  alone: boolean;
}

/** A member defined once with its handoff tool and the hooks that end its run once it hands off. */
interface MemberHandoff {
  readonly agent: Agent<any>;
  /** The running attempts, by their run id (the tool and the hooks find theirs from the run they are bound to). */
  readonly states: Map<string, HandoffState>;
}

function memberHandoff(agent: Agent<any>, allowed: readonly string[], descriptions: ReadonlyMap<string, string | undefined>): MemberHandoff {
  const states = new Map<string, HandoffState>();
  const listed = allowed.map((id) => {
    const description = descriptions.get(id);
    return description ? `${id}: ${description}` : id;
  });
  const tool = defineTool({
    name: HANDOFF_TOOL_NAME,
    description: `Hand the request to one available swarm member: ${listed.join('; ')}`,
    input: {
      type: 'object',
      properties: {
        agent_id: { type: 'string', enum: [...allowed] },
        message: { type: 'string' },
        context: { type: 'object', additionalProperties: true },
      },
      required: ['agent_id', 'message'],
      additionalProperties: false,
    },
    execute(value, binding) {
      const input = value as { agent_id: string; message: string; context?: Record<string, unknown> };
      const state = states.get(binding.run.runId);
      if (!state) throw new ToolError('The swarm handoff is not available outside its swarm');
      if (!state.alone) throw new ToolError('An assembly transition must be the only tool call in a model response');
      state.transition = { agentId: input.agent_id, message: input.message, ...(input.context !== undefined ? { context: input.context } : {}) };
      return `Handing off to ${input.agent_id}.`;
    },
  });
  const afterModel: NonNullable<AgentHooks['afterModel']> = ({ run, response }) => {
    const handoffs = response.toolCalls.filter((call) => call.toolName === HANDOFF_TOOL_NAME).length;
    if (handoffs > 1) throw new ProtocolError('Multiple assembly transitions were requested in one agent turn');
    const state = states.get(run.runId);
    if (state) state.alone = response.toolCalls.length === handoffs;
  };
  const beforeModel: NonNullable<AgentHooks['beforeModel']> = ({ run }) => (states.get(run.runId)?.transition ? cancel('The member handed off') : undefined);
  const own = agent.definition.hooks ?? {};
  return {
    states,
    agent: defineAgent({
      ...agent.definition,
      tools: [...(agent.definition.tools ?? []), tool],
      hooks: {
        ...own,
        afterModel: [...toArray(own.afterModel), afterModel] as never,
        beforeModel: [beforeModel, ...toArray(own.beforeModel)] as never,
      },
    }),
  };
}

function toArray<T>(value: T | readonly T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? [...(value as T[])] : [value as T];
}

/**
 * Defines a swarm (SPEC A15): at least two member agents, a start member and
 * the declared handoff routes; checked now (`ConfigurationError`).
 *
 * @example
 * const support = defineSwarm({
 *   name: 'support',
 *   members: { triage, billing, account: { agent: account, history: true, context: true } },
 *   start: 'triage',
 *   handoffs: { triage: ['billing', 'account'], billing: ['triage'], account: ['triage'] },
 * });
 * const run = await support.ask('Why was I charged twice?');
 */
export function defineSwarm<TOutput = string>(spec: SwarmSpec): Swarm<TOutput> {
  if (typeof spec !== 'object' || spec === null) throw new ConfigurationError('a swarm definition must be an object');
  checkName('swarm', spec.name);
  if (typeof spec.members !== 'object' || spec.members === null) throw new ConfigurationError('swarm must declare at least two members');
  const members = new Map<string, Member>();
  for (const [id, value] of Object.entries(spec.members)) {
    if (id.length === 0) throw new ConfigurationError('swarm member id cannot be empty');
    const options: SwarmMemberOptions = isAgent(value) ? { agent: value } : (value as SwarmMemberOptions);
    if (!isAgent(options?.agent)) throw new ConfigurationError('swarm members must be Agent definitions');
    for (const key of Object.keys(options)) {
      if (!['agent', 'history', 'context', 'description'].includes(key) && !(STEP_POLICY_KEYS as readonly string[]).includes(key)) {
        throw new ConfigurationError(`swarm member ${JSON.stringify(id)} has an unknown option ${key}`);
      }
    }
    if (![undefined, true, false].includes(options.history) || ![undefined, true, false].includes(options.context)) {
      throw new ConfigurationError('swarm member history and context options must be true or false');
    }
    members.set(id, {
      id,
      agent: options.agent,
      history: options.history === true,
      context: options.context === true,
      policy: resolveStepPolicy(options, `swarm member ${JSON.stringify(id)}`),
      description: options.description,
    });
  }
  if (members.size < 2) throw new ConfigurationError('swarm must declare at least two members');
  if (spec.start === undefined) throw new ConfigurationError('swarm must declare a start member');
  if (!members.has(spec.start)) throw new ConfigurationError(`swarm start member ${JSON.stringify(spec.start)} is not declared`);
  const routes = new Map<string, readonly string[]>();
  if (spec.handoffs === undefined) {
    for (const id of members.keys()) routes.set(id, Object.freeze([...members.keys()].filter((other) => other !== id)));
  } else {
    for (const [from, targets] of Object.entries(spec.handoffs)) {
      if (!members.has(from)) throw new ConfigurationError(`swarm handoff source ${JSON.stringify(from)} is not declared`);
      if (!Array.isArray(targets) || targets.length === 0) throw new ConfigurationError('handoff requires at least one target');
      if (new Set(targets).size !== targets.length) throw new ConfigurationError('handoff targets must be unique');
      for (const target of targets) {
        if (!members.has(target)) throw new ConfigurationError(`swarm handoff target ${JSON.stringify(target)} is not declared`);
        if (target === from) throw new ConfigurationError(`swarm member ${JSON.stringify(target)} cannot hand off to itself`);
      }
      routes.set(from, Object.freeze([...targets]));
    }
  }
  for (const [key, value] of [['maxSteps', spec.maxSteps], ['maxHandoffRepeats', spec.maxHandoffRepeats]] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) throw new ConfigurationError(`${key} must be at least 1`);
  }
  return new Swarm<TOutput>(spec, members, routes);
}
