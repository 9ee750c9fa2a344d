import { ToolError } from '../tool/tool-error.ts';

/** The longest glob pattern accepted, in characters. */
export const MAX_GLOB_LENGTH = 1_000;
const MAX_ALTERNATIVES = 256;

type Token =
  | { readonly type: 'literal'; readonly value: string }
  | { readonly type: 'any' }
  | { readonly type: 'star' }
  | { readonly type: 'class'; readonly negate: boolean; readonly ranges: ReadonlyArray<readonly [number, number]> };

type Segment = { readonly type: 'globstar' } | { readonly type: 'tokens'; readonly tokens: readonly Token[] };

/**
 * Compiles a glob into a matcher of `/`-separated relative paths: `*` and
 * `?` within one segment, `**` as a whole segment for any number of
 * segments, `[a-z]`, `[!x]`, `{a,b}` and `\` escapes. Names starting with a
 * dot match too. Matching takes time proportional to pattern × path (no
 * backtracking blow-up), so model-written patterns are safe.
 *
 * @example
 * compileGlob('**\/*.md')('notes/today.md'); // true
 */
export function compileGlob(pattern: string): (path: string) => boolean {
  if (typeof pattern !== 'string' || pattern.length === 0) throw new ToolError('Glob pattern must not be empty');
  if (pattern.length > MAX_GLOB_LENGTH) throw new ToolError('Glob pattern is too long');
  const alternatives = expandBraces(pattern).map(compileSegments);
  return (path) => {
    const segments = path.split('/').filter((segment) => segment.length > 0);
    return alternatives.some((compiled) => matchSegments(compiled, segments));
  };
}

function expandBraces(pattern: string): string[] {
  const open = findUnescaped(pattern, '{', 0);
  if (open === -1) return [pattern];
  let depth = 0;
  const commas: number[] = [];
  for (let index = open; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === '\\') {
      index++;
      continue;
    }
    if (char === '{') depth++;
    else if (char === ',' && depth === 1) commas.push(index);
    else if (char === '}' && --depth === 0) {
      if (commas.length === 0) {
        return expandBraces(pattern.slice(index + 1)).map((rest) => `${pattern.slice(0, index + 1)}${rest}`);
      }
      const bounds = [open, ...commas, index];
      const results: string[] = [];
      for (let choice = 0; choice < bounds.length - 1; choice++) {
        const option = pattern.slice(bounds[choice]! + 1, bounds[choice + 1]);
        for (const expanded of expandBraces(`${pattern.slice(0, open)}${option}${pattern.slice(index + 1)}`)) {
          results.push(expanded);
          if (results.length > MAX_ALTERNATIVES) throw new ToolError('Glob pattern has too many alternatives');
        }
      }
      return results;
    }
  }
  return [pattern];
}

function findUnescaped(text: string, char: string, from: number): number {
  for (let index = from; index < text.length; index++) {
    if (text[index] === '\\') index++;
    else if (text[index] === char) return index;
  }
  return -1;
}

function compileSegments(pattern: string): Segment[] {
  const segments: Segment[] = pattern
    .split('/')
    .filter((segment) => segment.length > 0)
    .map((segment) => (segment === '**' ? { type: 'globstar' } : { type: 'tokens', tokens: tokenize(segment) }));
  // A trailing `**` matches what lies beneath, not the directory itself (`notes/**` is not `notes`), as in minimatch.
  if (segments.at(-1)?.type === 'globstar') segments.push({ type: 'tokens', tokens: [{ type: 'star' }] });
  return segments;
}

function tokenize(segment: string): Token[] {
  const chars = Array.from(segment);
  const tokens: Token[] = [];
  for (let index = 0; index < chars.length; index++) {
    const char = chars[index]!;
    if (char === '\\' && index + 1 < chars.length) tokens.push({ type: 'literal', value: chars[++index]! });
    else if (char === '*') {
      if (tokens.at(-1)?.type !== 'star') tokens.push({ type: 'star' });
    } else if (char === '?') tokens.push({ type: 'any' });
    else if (char === '[') {
      const parsed = parseClass(chars, index);
      if (parsed) {
        tokens.push(parsed.token);
        index = parsed.end;
      } else tokens.push({ type: 'literal', value: char });
    } else tokens.push({ type: 'literal', value: char });
  }
  return tokens;
}

function parseClass(chars: readonly string[], start: number): { token: Token; end: number } | undefined {
  let index = start + 1;
  const negate = chars[index] === '!' || chars[index] === '^';
  if (negate) index++;
  const ranges: Array<[number, number]> = [];
  let first = true;
  for (; index < chars.length; index++) {
    let char = chars[index]!;
    if (char === ']' && !first) return { token: { type: 'class', negate, ranges }, end: index };
    first = false;
    if (char === '\\' && index + 1 < chars.length) char = chars[++index]!;
    const low = char.codePointAt(0)!;
    if (chars[index + 1] === '-' && index + 2 < chars.length && chars[index + 2] !== ']') {
      const high = chars[index + 2]!.codePointAt(0)!;
      ranges.push([Math.min(low, high), Math.max(low, high)]);
      index += 2;
    } else ranges.push([low, low]);
  }
  return undefined;
}

/** Wildcard matching with one backtrack point (linear in practice, O(p·s) at worst). */
function matchSegments(pattern: readonly Segment[], segments: readonly string[]): boolean {
  let p = 0;
  let s = 0;
  let star = -1;
  let resume = 0;
  while (s < segments.length) {
    const current = pattern[p];
    if (current?.type === 'globstar') {
      star = p++;
      resume = s;
    } else if (current && matchTokens(current.tokens, Array.from(segments[s]!))) {
      p++;
      s++;
    } else if (star !== -1) {
      p = star + 1;
      s = ++resume;
    } else return false;
  }
  while (pattern[p]?.type === 'globstar') p++;
  return p === pattern.length;
}

function matchTokens(tokens: readonly Token[], chars: readonly string[]): boolean {
  let t = 0;
  let c = 0;
  let star = -1;
  let resume = 0;
  while (c < chars.length) {
    const token = tokens[t];
    if (token?.type === 'star') {
      star = t++;
      resume = c;
    } else if (token && matchOne(token, chars[c]!)) {
      t++;
      c++;
    } else if (star !== -1) {
      t = star + 1;
      c = ++resume;
    } else return false;
  }
  while (tokens[t]?.type === 'star') t++;
  return t === tokens.length;
}

function matchOne(token: Token, char: string): boolean {
  switch (token.type) {
    case 'literal':
      return token.value === char;
    case 'any':
      return true;
    case 'class': {
      const code = char.codePointAt(0)!;
      const inside = token.ranges.some(([low, high]) => code >= low && code <= high);
      return inside !== token.negate;
    }
    default:
      return false;
  }
}
