// A type eraser on sucrase's parser alone: the parser flags every token of TypeScript-only syntax (`isType`), and
// this walk blanks those tokens, the way sucrase's own `transform` does with `transforms: ['typescript']`,
// `disableESTransforms` and `keepUnusedImports` (transformers/RootTransformer.js, TypeScriptTransformer.js,
// ESMImportTransformer.js, util/getClassInfo.js), without sucrase's other transformers in the bundle.
// Erased text becomes spaces and line breaks stay, so QuickJS's line and column numbers still point into the
// program the model wrote. Only enums, parameter properties, `import A = B` and the return types and type
// parameters of arrow functions move text, and only within a line.

import { ContextualKeyword, TokenType, type SucraseParse, type SucraseToken } from './sucrase-tokens.ts';

const tt = TokenType;
const ck = ContextualKeyword;

/** Modifiers TypeScript allows and JavaScript does not: erased wherever they stand (TypeScriptTransformer.js). */
const TYPESCRIPT_MODIFIERS: ReadonlySet<number> = new Set([tt._public, tt._protected, tt._private, tt._abstract, tt._readonly, tt._override, tt.nonNullAssertion]);

/** What may stand before a class member's name (getClassInfo.js `isAccessModifier`). */
const MEMBER_PREFIXES: ReadonlySet<number> = new Set([
  tt._async, tt._get, tt._set, tt.plus, tt.minus, tt._readonly, tt._static, tt._public, tt._private, tt._protected,
  tt._override, tt._abstract, tt.star, tt._declare, tt.hash,
]);

/** Words an enum member cannot be declared as a variable under (sucrase's util/isIdentifier.js, plus strict mode's two). */
const RESERVED_WORDS: ReadonlySet<string> = new Set(
  ('break case catch class const continue debugger default delete do else export extends finally for function if import in ' +
    'instanceof new return super switch this throw try typeof var void while with yield enum implements interface let package ' +
    'private protected public static await false null true arguments eval').split(' '),
);

const isNewline = (character: string | undefined) => character === '\n' || character === '\r' || character === '\u2028' || character === '\u2029';

const isIdentifier = (name: string) => /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u.test(name) && !RESERVED_WORDS.has(name);

/**
 * Removes TypeScript syntax from `source` as sucrase's `transform` does (`transforms: ['typescript']`,
 * `disableESTransforms`, `keepUnusedImports`), keeping every line break and, mostly, every column.
 *
 * @param source A program that may contain TypeScript syntax.
 * @param parse sucrase's parser (`sucrase/dist/esm/parser/index.js`, or the CommonJS build in Node).
 * @returns The JavaScript; throws when sucrase cannot parse `source` as TypeScript.
 */
export function eraseTypes(source: string, parse: SucraseParse): string {
  const tokens = parse(source, false, true, false).tokens;
  // out[p] is what position p of the source becomes: its character, a space, or text written there.
  const out = source.split('');
  // Class members to remove, from their first token to the token after them (declare and abstract fields).
  const removals = new Map<number, number>();
  // Parameter properties: the assignments to write after a constructor's `{` or its `super(…)`.
  const insertions = new Map<number, string>();
  let index = 0;

  const last = tokens.length - 1; // the eof token
  const is = (at: number, type: number) => tokens[at]!.type === type;
  const isType = (at: number) => at < last && tokens[at]!.isType;
  const isWord = (at: number, keyword: number) => tokens[at]!.type === tt.name && tokens[at]!.contextualKeyword === keyword;
  const textOf = (token: SucraseToken) => source.slice(token.start, token.end);
  const blank = (from: number, to: number) => {
    for (let position = from; position < to; position++) if (!isNewline(source[position])) out[position] = ' ';
  };
  // Erases tokens first to end - 1 and what lies between them, and continues after them.
  const remove = (first: number, end: number) => {
    blank(tokens[first]!.start, tokens[end - 1]!.end);
    index = end;
  };
  // Blanks [from, to) and writes text there, overflowing at the end of the first line it reaches.
  const write = (from: number, to: number, text: string) => {
    blank(from, to);
    let stop = from;
    while (stop < to && !isNewline(source[stop])) stop++;
    const room = stop - from;
    if (room === 0) out[from] = text + out[from];
    else if (text.length <= room) for (let offset = 0; offset < text.length; offset++) out[from + offset] = text[offset]!;
    else {
      for (let offset = 0; offset < room - 1; offset++) out[from + offset] = text[offset]!;
      out[stop - 1] = text.slice(room - 1);
    }
  };
  const append = (at: number, text: string) => {
    out[tokens[at]!.end - 1] += text;
  };

  // One unit of sucrase's RootTransformer.processToken: a token, or a construct read at once.
  const step = () => {
    const token = tokens[index]!;
    const removalEnd = removals.get(index);
    if (removalEnd !== undefined) return remove(index, removalEnd);
    const assignments = insertions.get(index);
    if (assignments !== undefined) {
      append(index++, assignments);
      return;
    }
    if (token.type === tt._class && !token.isType) {
      readClass(index++);
      return;
    }
    if (token.type === tt._import && !is(index + 1, tt.parenL)) return eraseImportTypes();
    if (token.type === tt._export && is(index + 1, tt.braceL)) {
      index++;
      return eraseTypeSpecifiers();
    }
    if (token.type === tt._export && isWord(index + 1, ck._type)) return eraseTypeExport();
    if (token.type === tt._export && is(index + 1, tt.eq)) {
      write(token.start, token.end, 'module.exports');
      index++;
      return;
    }
    if (token.type === tt._export && is(index + 1, tt._import) && isWord(index + 2, ck._type) && is(index + 4, tt.eq)) {
      // `export import type A = require('a');`, always 9 tokens
      return remove(index, index + 9);
    }
    if (eraseArrowReturnType() || eraseAsyncArrowTypeParameters()) return;
    if (token.isType) {
      let end = index + 1;
      while (isType(end)) end++;
      return remove(index, end);
    }
    if (TYPESCRIPT_MODIFIERS.has(token.type)) return remove(index, index + 1);
    if (token.type === tt._enum || (token.type === tt._const && is(index + 1, tt._enum))) return eraseEnum(index);
    if (token.type === tt._export && (is(index + 1, tt._enum) || (is(index + 1, tt._const) && is(index + 2, tt._enum)))) {
      return eraseEnum(index + 1);
    }
    index++;
  };

  // `import type … from '…'` goes whole; `import { type A, b }` loses `type A`; `import A = B.c` becomes
  // `const A = B.c` (ESMImportTransformer.js).
  const eraseImportTypes = () => {
    const first = index + 1;
    if (is(first, tt.name) && is(first + 1, tt.eq)) {
      write(tokens[index]!.start, tokens[index]!.end, 'const');
      index = first;
      return;
    }
    if (isWord(first, ck._type) && is(first + 1, tt.name) && is(first + 2, tt.eq)) {
      // `import type A = require('a');`, always 8 tokens
      return remove(index, index + 8);
    }
    if (isWord(first, ck._type) && !is(first + 1, tt.comma) && !isWord(first + 1, ck._from)) {
      let end = first;
      while (!is(end, tt.string)) end++;
      end = afterImportAttributes(end + 1);
      return remove(index, is(end, tt.semi) ? end + 1 : end);
    }
    index = first;
    if (is(index, tt.name)) index += is(index + 1, tt.comma) ? 2 : 1;
    if (is(index, tt.braceL)) eraseTypeSpecifiers();
  };

  // At a `{` of named imports or exports: removes `type A` and `type A as B` with their commas.
  const eraseTypeSpecifiers = () => {
    index++;
    while (!is(index, tt.braceR)) {
      let end = index + 1;
      while (!is(end, tt.comma) && !is(end, tt.braceR)) end++;
      const count = end - index;
      if (is(end, tt.comma)) end++;
      if (count === 2 || count === 4) remove(index, end);
      else index = end;
    }
    index++;
  };

  // `export type { A } [from '…']`, `export type * [as ns] from '…'` (and the head of `export type A = …`).
  const eraseTypeExport = () => {
    let end = index + 2;
    if (is(end, tt.braceL)) {
      while (!is(end, tt.braceR)) end++;
      end++;
    } else {
      end++;
      if (is(end, tt._as)) end += 2;
    }
    if (isWord(end, ck._from) && is(end + 1, tt.string)) end = afterImportAttributes(end + 2);
    remove(index, end);
  };

  const afterImportAttributes = (at: number) => {
    if (!((is(at, tt._with) || isWord(at, ck._assert)) && is(at + 1, tt.braceL))) return at;
    let depth = 0;
    for (let end = at + 1; ; end++) {
      if (is(end, tt.braceL)) depth++;
      else if (is(end, tt.braceR) && --depth === 0) return end + 1;
      else if (is(end, tt.eof)) return end;
    }
  };

  // `(a): T => …`: no line break may stand between `)` and `=>`, so `)` moves to just before `=>`
  // (RootTransformer.processPossibleArrowParamEnd).
  const eraseArrowReturnType = () => {
    if (!(is(index, tt.parenR) && is(index + 1, tt.colon) && tokens[index + 1]!.isType)) return false;
    let next = index + 1;
    while (isType(next)) next++;
    if (!is(next, tt.arrow)) return false;
    const arrow = tokens[next]!.start;
    blank(tokens[index]!.start, arrow);
    if (isNewline(source[arrow - 1])) out[arrow] = ')' + out[arrow];
    else out[arrow - 1] = ')';
    index = next + 1;
    return true;
  };

  // `async <T>(x) => …`: `(` moves next to `async`, in case the type parameters span lines
  // (RootTransformer.processPossibleAsyncArrowWithTypeParams).
  const eraseAsyncArrowTypeParameters = () => {
    const token = tokens[index]!;
    if (!(token.type === tt._async || isWord(index, ck._async)) || !is(index + 1, tt.lessThan) || !tokens[index + 1]!.isType) return false;
    let next = index + 1;
    while (isType(next)) next++;
    if (!is(next, tt.parenL)) return false;
    blank(token.end, tokens[next]!.end);
    if (isNewline(source[token.end])) out[token.end - 1] += '(';
    else out[token.end] = '(';
    index = next + 1;
    return true;
  };

  // `[const] enum E { A, B = 2, C = "c" }` becomes sucrase's
  // `var E; (function (E) { const A = 0; E[E["A"] = A] = "A"; … })(E || (E = {}));` (TypeScriptTransformer.processEnum).
  const eraseEnum = (first: number) => {
    let nameIndex = first;
    while (is(nameIndex, tt._const) || is(nameIndex, tt._enum)) nameIndex++;
    const name = textOf(tokens[nameIndex]!);
    write(tokens[first]!.start, tokens[nameIndex]!.end, `var ${name}; (function (${name})`);
    index = nameIndex + 2;
    let previous: string | undefined;
    while (!is(index, tt.braceR)) {
      const key = tokens[index]!;
      const quoted = key.type === tt.string;
      const keyCode = quoted ? textOf(key) : `"${textOf(key)}"`;
      const keyName = quoted ? source.slice(key.start + 1, key.end - 1) : textOf(key);
      const variable = isIdentifier(keyName) ? keyName : undefined;
      const member = `${name}[${keyCode}]`;
      if (is(index + 1, tt.eq) && is(index + 2, tt.string) && (is(index + 3, tt.comma) || is(index + 3, tt.braceR))) {
        // A string member has no reverse mapping.
        write(key.start, key.end, variable ? `const ${variable}` : member);
        append(index + 2, variable ? `; ${member} = ${variable};` : ';');
        index += 3;
      } else if (is(index + 1, tt.eq)) {
        const end = tokens[index + 1]!.rhsEndIndex!;
        write(key.start, key.end, variable ? `const ${variable}` : `${name}[${member}`);
        index += 2;
        while (index < end) step();
        append(end - 1, variable ? `; ${name}[${member} = ${variable}] = ${keyCode};` : `] = ${keyCode};`);
      } else {
        const value = previous === undefined ? '0' : `${previous} + 1`;
        write(key.start, key.end, variable ? `const ${variable} = ${value}; ${name}[${member} = ${variable}] = ${keyCode};` : `${name}[${member} = ${value}] = ${keyCode};`);
        index++;
      }
      if (is(index, tt.comma)) remove(index, index + 1);
      previous = variable ?? member;
    }
    append(index++, `)(${name} || (${name} = {}));`);
  };

  // Reads a class ahead of the walk (getClassInfo.js with ES transforms off): `declare` and `abstract` fields
  // are removed, and parameter properties become assignments at the start of the constructor.
  const readClass = (classIndex: number) => {
    const classContext = tokens[classIndex]!.contextId;
    const isClassToken = (at: number, type: number) => is(at, type) && tokens[at]!.contextId === classContext;
    let at = classIndex + 1;
    while (!isClassToken(at, tt.braceL)) at++;
    at++;
    while (!isClassToken(at, tt.braceR) && !is(at, tt.eof)) {
      if (isWord(at, ck._constructor) && !tokens[at]!.isType) {
        at = readConstructor(at);
        continue;
      }
      if (is(at, tt.semi) || tokens[at]!.isType) {
        at++;
        continue;
      }
      const start = at;
      let isStatic = false;
      let isPrivateName = false;
      let isDeclareOrAbstract = false;
      while (MEMBER_PREFIXES.has(tokens[at]!.type)) {
        isStatic ||= is(at, tt._static);
        isPrivateName ||= is(at, tt.hash);
        isDeclareOrAbstract ||= is(at, tt._declare) || is(at, tt._abstract);
        at++;
      }
      if ((isStatic && is(at, tt.braceL)) || isPrivateName) {
        at = nextMember(at, start, classContext);
        continue;
      }
      if (isWord(at, ck._constructor) && !tokens[at]!.isType) {
        at = readConstructor(at);
        continue;
      }
      if (is(at, tt.bracketL)) {
        const bracketContext = tokens[at]!.contextId;
        while (!(is(at, tt.bracketR) && tokens[at]!.contextId === bracketContext)) at++;
      }
      at++;
      if (is(at, tt.lessThan) || is(at, tt.parenL)) {
        at = nextMember(at, start, classContext);
        continue;
      }
      while (isType(at)) at++;
      if (is(at, tt.eq)) at = tokens[at]!.rhsEndIndex!;
      else if (isDeclareOrAbstract) removals.set(start, at);
    }
  };

  // The first token of the member after the one at `at` (getClassInfo.js `skipToNextClassElement`).
  const nextMember = (at: number, start: number, classContext: number | null) => {
    at++;
    while (tokens[at]!.contextId !== classContext && !is(at, tt.eof)) at++;
    while (at - 1 > start && MEMBER_PREFIXES.has(tokens[at - 1]!.type)) at--;
    return at;
  };

  // At `constructor`: notes `this.x = x` for each parameter with a modifier; returns the token after the body.
  const readConstructor = (at: number) => {
    at++;
    const context = tokens[at]!.contextId;
    const assignments: string[] = [];
    while (!(is(at, tt.parenR) && tokens[at]!.contextId === context)) {
      if (tokens[at]!.contextId !== context) {
        at++;
        continue;
      }
      at++;
      if (!MEMBER_PREFIXES.has(tokens[at]!.type)) continue;
      while (MEMBER_PREFIXES.has(tokens[at]!.type)) at++;
      if (!is(at, tt.name)) throw new Error('A parameter property must be a plain name.');
      const name = textOf(tokens[at]!);
      assignments.push(`this.${name} = ${name}`);
    }
    at++;
    while (isType(at)) at++;
    let insertAt = at;
    let foundSuperCall = false;
    while (!(is(at, tt.braceR) && tokens[at]!.contextId === context)) {
      if (!foundSuperCall && is(at, tt._super) && is(at + 1, tt.parenL)) {
        const superContext = tokens[++at]!.contextId;
        while (!(is(at, tt.parenR) && tokens[at]!.contextId === superContext)) at++;
        insertAt = at;
        foundSuperCall = true;
      }
      at++;
    }
    if (assignments.length > 0) insertions.set(insertAt, `;${assignments.join(';')};`);
    return at + 1;
  };

  while (!is(index, tt.eof)) step();
  return out.join('');
}
