import { unionOf } from './char-set.ts';
import type { CharSet } from './char-set.ts';
import { nullable } from './regex-node.ts';
import type { RegexNode } from './regex-node.ts';

/** Where matches of a pattern can start, and text each contains: what lets the VM skip ahead without running. */
export interface RegexPrefilter {
  /** Literal text every match contains: a text (after the search's start) without it cannot match. */
  readonly required: string | undefined;
  readonly start:
    | { readonly type: 'anywhere' }
    /** Only at the start of the text (`^` without multiline, `\A`). */
    | { readonly type: 'text-start' }
    /** Only where a line starts (`^` with multiline). */
    | { readonly type: 'line-start' }
    /** Only where this literal text starts (found with `indexOf`). */
    | { readonly type: 'prefix'; readonly prefix: string }
    /** Only at one of these code points. */
    | { readonly type: 'first'; readonly first: CharSet };
}

const MAX_EXACT = 1_000;

/** The prefilter of a parsed pattern. */
export function prefilterOf(node: RegexNode): RegexPrefilter {
  const texts: string[] = [];
  const exact = exactText(node);
  if (exact !== undefined) texts.push(exact);
  else requiredTexts(node, texts);
  const longest = texts.reduce((best, text) => (text.length > best.length ? text : best), '');
  const start = startOf(node);
  const required = longest.length === 0 || (start.type === 'prefix' && start.prefix === longest) ? undefined : longest;
  return { required, start };
}

function startOf(node: RegexNode): RegexPrefilter['start'] {
  const anchor = leadingAnchor(node);
  if (anchor === 'text-start') return { type: 'text-start' };
  if (nullable(node)) return anchor === 'line-start' ? { type: 'line-start' } : { type: 'anywhere' };
  const prefix: number[] = [];
  literalPrefix(node, prefix);
  // A prefix starting with a lone low surrogate could be found inside a surrogate pair.
  if (prefix.length > 0 && !(prefix[0]! >= 0xdc00 && prefix[0]! <= 0xdfff)) return { type: 'prefix', prefix: String.fromCodePoint(...prefix) };
  if (anchor === 'line-start') return { type: 'line-start' };
  return { type: 'first', first: unionOf(starts(node)) };
}

/** The anchor every match of `node` starts at, if any. */
function leadingAnchor(node: RegexNode): 'text-start' | 'line-start' | undefined {
  switch (node.type) {
    case 'assertion':
      if (node.assertion === 'newline-start') return 'line-start';
      return node.assertion === 'text-start' || node.assertion === 'line-start' ? node.assertion : undefined;
    case 'group':
      return leadingAnchor(node.body);
    case 'concat':
      return node.items.length > 0 ? leadingAnchor(node.items[0]!) : undefined;
    case 'alternation': {
      const anchors = new Set(node.items.map(leadingAnchor));
      return anchors.size === 1 ? [...anchors][0] : undefined;
    }
    default:
      return undefined;
  }
}

/** Appends the code points every match of `node` begins with; returns whether `node` is all literal. */
function literalPrefix(node: RegexNode, out: number[]): boolean {
  switch (node.type) {
    case 'empty':
    case 'assertion':
      return true;
    case 'set':
      if (node.set.single < 0) return false;
      out.push(node.set.single);
      return true;
    case 'group':
      return literalPrefix(node.body, out);
    case 'concat':
      return node.items.every((item) => literalPrefix(item, out));
    default:
      return false;
  }
}

/** The one text `node` matches, if it matches exactly one (assertions aside). */
function exactText(node: RegexNode): string | undefined {
  switch (node.type) {
    case 'empty':
    case 'assertion':
      return '';
    case 'set':
      return node.set.single < 0 ? undefined : String.fromCodePoint(node.set.single);
    case 'group':
      return exactText(node.body);
    case 'concat': {
      let text = '';
      for (const item of node.items) {
        const part = exactText(item);
        if (part === undefined || text.length + part.length > MAX_EXACT) return undefined;
        text += part;
      }
      return text;
    }
    case 'repeat': {
      const body = node.min === node.max ? exactText(node.body) : undefined;
      return body === undefined || body.length * node.min > MAX_EXACT ? undefined : body.repeat(node.min);
    }
    case 'alternation':
      return undefined;
  }
}

/** Appends literal texts every match of `node` contains. */
function requiredTexts(node: RegexNode, out: string[]): void {
  switch (node.type) {
    case 'set':
      if (node.set.single >= 0) out.push(String.fromCodePoint(node.set.single));
      return;
    case 'group':
      requiredTexts(node.body, out);
      return;
    case 'concat': {
      let run = '';
      for (const item of node.items) {
        const part = exactText(item);
        if (part !== undefined && run.length + part.length <= MAX_EXACT) {
          run += part;
          continue;
        }
        out.push(run);
        run = '';
        requiredTexts(item, out);
      }
      out.push(run);
      return;
    }
    case 'repeat':
      if (node.min === 0) return;
      if (exactText(node.body) !== undefined) out.push(exactText(node.body)!);
      else requiredTexts(node.body, out);
      return;
    default:
      return;
  }
}

/** The sets of code points a non-empty match of `node` can begin with. */
function starts(node: RegexNode): CharSet[] {
  switch (node.type) {
    case 'empty':
    case 'assertion':
      return [];
    case 'set':
      return [node.set];
    case 'group':
      return starts(node.body);
    case 'concat': {
      const sets: CharSet[] = [];
      for (const item of node.items) {
        sets.push(...starts(item));
        if (!nullable(item)) break;
      }
      return sets;
    }
    case 'alternation':
      return node.items.flatMap(starts);
    case 'repeat':
      return node.max === 0 ? [] : starts(node.body);
  }
}
