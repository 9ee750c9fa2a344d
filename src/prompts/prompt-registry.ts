import type { Instructions, PromptLocals } from '../agent/agent-definition.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import type { ToolBinding } from '../tool/tool-binding.ts';
import { InvalidPromptTemplateError, MissingPromptLocalError, MissingPromptTemplateError } from './prompt-errors.ts';

/** Renders a partial from inside a template: `partial('shared/voice', { tone })`. */
export type RenderPartial = (name: string, locals?: Readonly<Record<string, unknown>>) => string;

/**
 * A prompt template: a plain function of its locals (reading one that was not
 * supplied throws `MissingPromptLocalError`) and a partial renderer,
 * returning text. Bundled with the application like any other code; nothing
 * is evaluated from strings.
 */
// Locals are `any` so that templates destructure them plainly; read them as the types you passed.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type PromptTemplate = (locals: Readonly<Record<string, any>>, partial: RenderPartial) => string;

/** The locals of a view: values, or a function of the run's binding returning them. */
export type ViewLocals =
  | Readonly<Record<string, unknown>>
  | ((binding: ToolBinding) => Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>>);

/** Options of {@link PromptRegistry.view}. */
export interface PromptViewOptions {
  /** The agent's own locals (LittleGhost's `prompt_local`), over the standard ones. */
  readonly locals?: ViewLocals | undefined;
}

/** Options of {@link definePrompts}. */
export interface PromptRegistryOptions {
  /** How deeply partials may nest (default 20). */
  readonly maxDepth?: number | undefined;
}

/** The default nesting limit of partials (LittleGhost's). */
export const MAX_PROMPT_DEPTH = 20;

const LOCAL_NAME = /^[A-Za-z_$][\w$]*$/;

/** A registry of prompt templates by name (`support/system`, `shared/_voice`). */
export interface PromptRegistry {
  /** The registered names. */
  readonly names: readonly string[];
  /** Renders the template `name` with exactly `locals`. */
  render(name: string, locals?: Readonly<Record<string, unknown>>): string;
  /**
   * The agent `instructions` that render `name` each run with the standard
   * locals (`invocation`, `run`, `agent`, `skillsPrompt`) and the view's own.
   * Without a name, the agent's conventional template `<agent name>/system`.
   */
  view(name?: string, options?: PromptViewOptions): Instructions;
}

/**
 * Registers prompt templates (LittleGhost's prompt views without files): an
 * explicit map from names to template functions, so a bundler ships exactly
 * the prompts the application imports.
 *
 * Names are relative paths (`support/system`); partials live under an
 * underscore name (`shared/_voice`) and are called without it
 * (`partial('shared/voice', { tone })`); a partial name without a folder is
 * looked up in the folder of the template calling it. A partial gets only the
 * locals passed to it. Unknown names are `MissingPromptTemplateError`;
 * unsafe names, cycles and nesting deeper than `maxDepth` (20) are
 * `InvalidPromptTemplateError`; a local nobody supplied is
 * `MissingPromptLocalError`.
 *
 * @example
 * const prompts = definePrompts({
 *   'support/system': ({ agent, product }, partial) => `You are ${agent.name} for ${product}.\n${partial('shared/voice', { tone: 'warm' })}`,
 *   'shared/_voice': ({ tone }) => `Keep a ${tone} tone.`,
 * });
 * defineAgent({ name: 'support', model, instructions: prompts.view('support/system', { locals: { product: 'Acme' } }) });
 */
export function definePrompts(templates: Readonly<Record<string, PromptTemplate>>, options: PromptRegistryOptions = {}): PromptRegistry {
  const maxDepth = options.maxDepth ?? MAX_PROMPT_DEPTH;
  if (!Number.isInteger(maxDepth) || maxDepth < 1) throw new ConfigurationError('maxDepth must be a positive integer');
  const table = new Map<string, PromptTemplate>();
  for (const [name, template] of Object.entries(templates)) {
    if (typeof template !== 'function') throw new ConfigurationError(`Prompt template ${name} must be a function`);
    table.set(normalizeName(name), template);
  }

  const render = (name: string, locals: object, stack: readonly string[]): string => {
    if (stack.length >= maxDepth) throw new InvalidPromptTemplateError(`Prompt template recursion exceeds ${maxDepth} levels`);
    if (stack.includes(name)) throw new InvalidPromptTemplateError(`Prompt template cycle detected: ${[...stack, name].join(' -> ')}`);
    const template = table.get(name);
    if (!template) throw new MissingPromptTemplateError(`Prompt template not found: ${name}`);
    const path = [...stack, name];
    const partial: RenderPartial = (partialName, partialLocals = {}) => render(partialPath(partialName, name), checkLocals(partialLocals), path);
    const text = template(strictLocals(locals), partial);
    if (typeof text !== 'string') throw new InvalidPromptTemplateError(`Prompt template ${name} did not return text`);
    return text;
  };

  return Object.freeze({
    names: Object.freeze([...table.keys()]),
    render: (name: string, locals: Readonly<Record<string, unknown>> = {}) => render(normalizeName(name), checkLocals(locals), []),
    view(name?: string, viewOptions: PromptViewOptions = {}): Instructions {
      return async (binding: ToolBinding, standard: PromptLocals) => {
        const own = typeof viewOptions.locals === 'function' ? await viewOptions.locals(binding) : (viewOptions.locals ?? {});
        // The view's locals over the standard ones, which stay lazy: a capability learns which of its locals were placed.
        const layered = Object.assign(Object.create(standard) as object, checkLocals(own));
        return render(normalizeName(name ?? `${binding.agent.name}/system`), layered, []);
      };
    },
  });
}

/** A view of `locals` whose missing names throw instead of reading as `undefined`. */
function strictLocals(locals: object): Readonly<Record<string, unknown>> {
  return new Proxy(locals, {
    get(target, key) {
      if (typeof key === 'symbol' || key in target) return Reflect.get(target, key);
      if (key === 'then' || key === 'toJSON') return undefined;
      throw new MissingPromptLocalError(key);
    },
    set() {
      throw new TypeError('Prompt locals are read-only');
    },
  }) as Readonly<Record<string, unknown>>;
}

function checkLocals(locals: unknown): Readonly<Record<string, unknown>> {
  if (typeof locals !== 'object' || locals === null || Array.isArray(locals)) throw new InvalidPromptTemplateError('Prompt locals must be an object');
  for (const key of Object.keys(locals)) {
    if (!LOCAL_NAME.test(key)) throw new InvalidPromptTemplateError(`Invalid prompt local name: ${JSON.stringify(key)}`);
  }
  return locals as Readonly<Record<string, unknown>>;
}

/** A relative, slash-separated name: no empty name, NUL, absolute path, backslash or `..` segment. */
function normalizeName(name: unknown): string {
  const value = String(name);
  const parts = value.split('/');
  if (value.length === 0 || value.includes('\0') || value.includes('\\') || value.startsWith('/') || parts.includes('..') || parts.some((part) => part === '')) {
    throw new InvalidPromptTemplateError(`Unsafe prompt template name: ${JSON.stringify(value)}`);
  }
  return value.replace(/^(?:\.\/)+/, '');
}

/** `partial('voice')` from `support/system` → `support/_voice`; `partial('shared/voice')` → `shared/_voice`. */
function partialPath(name: string, parent: string): string {
  const normalized = normalizeName(name);
  const slash = normalized.lastIndexOf('/');
  const folder = slash >= 0 ? normalized.slice(0, slash + 1) : '';
  const base = normalized.slice(slash + 1);
  const path = `${folder}${base.startsWith('_') ? base : `_${base}`}`;
  const parentSlash = parent.lastIndexOf('/');
  return slash < 0 && parentSlash >= 0 ? `${parent.slice(0, parentSlash + 1)}${path}` : path;
}
