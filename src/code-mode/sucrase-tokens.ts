// What the type eraser (strip-types.ts) reads of sucrase's parser, typed and numbered here so that nothing but
// the parser itself comes from sucrase (its token enums sit in the parser's own bundle, but are not exported by
// `sucrase/dist/esm/parser/index.js`).

/** A token of sucrase's parser: the fields the eraser reads (sucrase's `Token` class has more). */
export interface SucraseToken {
  type: number;
  contextualKeyword: number;
  start: number;
  end: number;
  isType: boolean;
  contextId: number | null;
  rhsEndIndex: number | null;
}

/** sucrase's `parse(code, isJSXEnabled, isTypeScriptEnabled, isFlowEnabled)` from `sucrase/dist/esm/parser/index.js`. */
export type SucraseParse = (code: string, jsx: boolean, typescript: boolean, flow: boolean) => { tokens: SucraseToken[] };

/**
 * The token types the eraser reads, as sucrase 3.35.1 numbers them (`parser/tokenizer/types.js`; package.json pins
 * sucrase exactly, and strip-types.test.ts checks every value against sucrase's own `TokenType`).
 */
export const TokenType = {
  string: 4608,
  name: 5632,
  eof: 6144,
  bracketL: 7680,
  bracketR: 8192,
  braceL: 9728,
  braceR: 11264,
  parenL: 13824,
  parenR: 14336,
  comma: 15360,
  semi: 16384,
  colon: 17408,
  arrow: 22528,
  hash: 29184,
  eq: 29728,
  lessThan: 44040,
  plus: 49802,
  minus: 50826,
  star: 52235,
  nonNullAssertion: 61440,
  _with: 82960,
  _const: 80912,
  _super: 86544,
  _class: 87568,
  _export: 89104,
  _import: 90640,
  _async: 100880,
  _get: 101904,
  _set: 102928,
  _declare: 103952,
  _readonly: 104976,
  _abstract: 106000,
  _static: 107024,
  _public: 107536,
  _private: 108560,
  _protected: 109584,
  _override: 110608,
  _as: 112144,
  _enum: 113168,
} as const;

/** The contextual keywords the eraser reads, as sucrase 3.35.1 numbers them (`parser/tokenizer/keywords.js`). */
export const ContextualKeyword = {
  _assert: 4,
  _async: 6,
  _constructor: 9,
  _from: 13,
  _type: 38,
} as const;
