import { isPlainObject } from '../util/json.ts';

/** One reference a template makes: the workflow input, or a step's output, and a path into it. */
export interface TemplateReference {
  /** `input`, or the id of the step whose output is read. */
  readonly root: 'input' | { readonly step: string };
  /** Property names and array indexes below the root. */
  readonly path: readonly (string | number)[];
  /** The expression as written. */
  readonly text: string;
}

/** What resolving a template reads from. */
export interface TemplateScope {
  readonly input: unknown;
  readonly outputs: ReadonlyMap<string, unknown>;
}

const TEMPLATE = /\{\{([^{}]*)\}\}/g;
const WHOLE = /^\{\{([^{}]*)\}\}$/;
const SEGMENT = /^(?:\.([A-Za-z_$][A-Za-z0-9_$-]*)|\[(\d{1,9})\])/;

/** A template that cannot be read; `message` says why. */
export class TemplateSyntaxError extends Error {
  override readonly name = 'TemplateSyntaxError';
}

/**
 * Parses one expression: `input`, `input.a.b[0]`, `steps.<id>.output`, `steps.<id>.output.items[2].name`.
 * Throws `TemplateSyntaxError` for anything else.
 */
export function parseExpression(expression: string): TemplateReference {
  const text = expression.trim();
  let rest: string;
  let root: TemplateReference['root'];
  if (text === 'input' || text.startsWith('input.') || text.startsWith('input[')) {
    root = 'input';
    rest = text.slice('input'.length);
  } else {
    const step = /^steps\.([a-zA-Z][a-zA-Z0-9_-]{0,63})\.output/.exec(text);
    if (!step) throw new TemplateSyntaxError(`"{{ ${text} }}" must start with input or steps.<id>.output`);
    root = { step: step[1]! };
    rest = text.slice(step[0].length);
  }
  const path: (string | number)[] = [];
  while (rest.length > 0) {
    const segment = SEGMENT.exec(rest);
    if (!segment) throw new TemplateSyntaxError(`"{{ ${text} }}" has an invalid path at "${rest}"`);
    path.push(segment[1] !== undefined ? segment[1] : Number(segment[2]));
    rest = rest.slice(segment[0].length);
  }
  return { root, path, text };
}

/**
 * Every reference in a template value (strings anywhere inside objects and arrays). A string that is exactly
 * one `{{ … }}` stands for the referenced value itself; `{{` inside other text is interpolated as text.
 * Throws `TemplateSyntaxError` for an unbalanced `{{` or `}}` or an expression {@link parseExpression} rejects.
 */
export function templateReferences(value: unknown): TemplateReference[] {
  const references: TemplateReference[] = [];
  visitStrings(value, (text) => {
    const stripped = text.replace(TEMPLATE, (_match, expression: string) => {
      references.push(parseExpression(expression));
      return '';
    });
    if (stripped.includes('{{') || stripped.includes('}}')) throw new TemplateSyntaxError(`"${text}" has an unbalanced {{ or }}`);
  });
  return references;
}

/**
 * Resolves a template value against the workflow input and step outputs. A whole-string template keeps the
 * referenced value's type; interpolated values become text (strings as they are, other values as JSON).
 * A path that leads nowhere resolves to `undefined` (dropped from objects, `null` in arrays).
 */
export function resolveTemplate(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return read(parseExpression(whole[1]!), scope);
    return value.replace(TEMPLATE, (_match, expression: string) => asText(read(parseExpression(expression), scope)));
  }
  if (Array.isArray(value)) return value.map((item) => resolveTemplate(item, scope) ?? null);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const resolved = resolveTemplate(child, scope);
      // defineProperty: a `__proto__` key in a plan stays a plain property.
      if (resolved !== undefined) Object.defineProperty(out, key, { value: resolved, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

function read(reference: TemplateReference, scope: TemplateScope): unknown {
  let current = reference.root === 'input' ? scope.input : scope.outputs.get(reference.root.step);
  for (const segment of reference.path) {
    if (typeof segment === 'number' ? !Array.isArray(current) : !isPlainObject(current)) return undefined;
    const container = current as Record<string | number, unknown>;
    current = Object.hasOwn(container, segment) ? container[segment] : undefined;
  }
  return current;
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value) ?? '';
}

function visitStrings(value: unknown, visit: (text: string) => void): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'string') visit(current);
    else if (Array.isArray(current)) stack.push(...current);
    else if (isPlainObject(current)) stack.push(...Object.values(current));
  }
}
