import type { CharSet } from './char-set.ts';

/** A zero-width assertion. */
export type Assertion =
  | 'line-start'
  | 'line-end'
  | 'newline-start'
  | 'newline-end'
  | 'text-start'
  | 'text-end'
  | 'word-boundary'
  | 'not-word-boundary'
  | 'folded-word-boundary'
  | 'folded-not-word-boundary';

/**
 * A parsed regular expression. Flags are already applied: a case-insensitive
 * literal is the set of its case variants, `^` is `line-start` or
 * `text-start`, `.` is a set.
 */
export type RegexNode =
  | { readonly type: 'empty' }
  | { readonly type: 'set'; readonly set: CharSet }
  | { readonly type: 'assertion'; readonly assertion: Assertion }
  | { readonly type: 'group'; readonly index: number; readonly body: RegexNode }
  | { readonly type: 'concat'; readonly items: readonly RegexNode[] }
  | { readonly type: 'alternation'; readonly items: readonly RegexNode[] }
  | { readonly type: 'repeat'; readonly body: RegexNode; readonly min: number; readonly max: number; readonly greedy: boolean };

/** Whether `node` can match the empty string. */
export function nullable(node: RegexNode): boolean {
  switch (node.type) {
    case 'empty':
    case 'assertion':
      return true;
    case 'set':
      return false;
    case 'group':
      return nullable(node.body);
    case 'concat':
      return node.items.every(nullable);
    case 'alternation':
      return node.items.some(nullable);
    case 'repeat':
      return node.min === 0 || nullable(node.body);
  }
}

/** The capture groups inside `node`, as `[first, last]` (their numbers are consecutive), or undefined when none. */
export function groupsWithin(node: RegexNode): readonly [number, number] | undefined {
  let first = Infinity;
  let last = -Infinity;
  const visit = (current: RegexNode) => {
    if (current.type === 'group') {
      first = Math.min(first, current.index);
      last = Math.max(last, current.index);
      visit(current.body);
    } else if (current.type === 'concat' || current.type === 'alternation') current.items.forEach(visit);
    else if (current.type === 'repeat') visit(current.body);
  };
  visit(node);
  return first === Infinity ? undefined : [first, last];
}
