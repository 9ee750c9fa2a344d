import { h } from '../dom';

const KEYWORDS = new Set(
  'async await break case catch class const continue default delete do else export extends finally for from function if import in instanceof let new of return switch this throw try typeof var void while yield true false null undefined interface type as'.split(' '),
);

const TOKEN = /(\/\/[^\n]*|\/\*[\s\S]*?\*\/)|(`(?:\\[\s\S]|[^`\\])*`|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*")|(\b\d+(?:\.\d+)?\b)|([A-Za-z_$][\w$]*)|(\s+)|([^\s\w$])/g;

/**
 * A read-only code block with JavaScript/TypeScript syntax colouring: a small
 * tokenizer (comments, strings, numbers, keywords) instead of a highlighting
 * library, to keep the playground bundle lean.
 */
export function codeView(source: string, label: string): HTMLElement {
  const code = h('code', {});
  for (const match of source.matchAll(TOKEN)) {
    const [text, comment, string, number, word] = match;
    const kind = comment ? 'comment' : string ? 'string' : number ? 'number' : word && KEYWORDS.has(word) ? 'keyword' : word && source[match.index + text.length] === '(' ? 'call' : undefined;
    code.append(kind ? h('span', { class: `tok-${kind}` }, text) : document.createTextNode(text));
  }
  return h('pre', { class: 'code', tabindex: 0, 'aria-label': label }, code);
}
