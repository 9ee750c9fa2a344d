import { transformSync } from 'esbuild';
import { transform } from 'sucrase';
import { describe, expect, it } from 'vitest';
import { sourceKind, stripTypes } from './prepare-source.ts';
import { eraseTypes } from './strip-types.ts';
import { ContextualKeyword, TokenType, type SucraseParse } from './sucrase-tokens.ts';

// sucrase's CommonJS build, as Node loads it (the non-literal specifiers keep TypeScript from looking for types).
const sucraseModule = async <MODULE,>(path: string) => (await import(`sucrase/dist/${path}`)) as MODULE;
const { parse } = await sucraseModule<{ parse: SucraseParse }>('parser/index.js');
// The parser as the built package ships it: sucrase's, bundled without its Flow and JSX plugins.
const { bundleSucraseParser } = await import('../../scripts/sucrase-parser.mjs');
const bundled = (await import(`data:text/javascript;base64,${Buffer.from(await bundleSucraseParser()).toString('base64')}`)) as { loadSucraseParse(): Promise<SucraseParse> };
const builtParse = await bundled.loadSucraseParse();

/** What sucrase's full transform made of a program before the eraser replaced it. */
const sucrase = (source: string) => transform(source, { transforms: ['typescript'], disableESTransforms: true, keepUnusedImports: true }).code;

const squash = (code: string) => code.replace(/\s+/g, '');

const tools = {
  search: async ({ query }: { query: string }) => [
    { id: `${query}-1`, score: 0.9 },
    { id: `${query}-2`, score: 0.4 },
    { id: `${query}-3`, score: 0.7 },
  ],
  getUser: async ({ id }: { id: string }) => ({ id, name: id.toUpperCase(), tags: ['all', id] }),
  sum: async ({ values }: { values: number[] }) => values.reduce((total, value) => total + value, 0),
};
const input = { values: [1, 2, 3], n: 21 };

const AsyncFunction = (async () => {}).constructor as new (...parameters: string[]) => (...values: unknown[]) => Promise<unknown>;

/**
 * Runs JavaScript the way code mode does, but in Node: a script as the body of an async function of `tools` and
 * `input`, a module (compiled to CommonJS by esbuild, which parses it as JavaScript first) by calling its `run`.
 * Both reject anything that is not JavaScript.
 */
async function evaluate(code: string): Promise<unknown> {
  if (sourceKind(code) === 'script' && !/^\s*import\s/m.test(code)) return new AsyncFunction('tools', 'input', code)(tools, input);
  const commonjs = transformSync(code, { loader: 'js', format: 'cjs' }).code;
  const module = { exports: {} as { run?: (context: unknown) => unknown } };
  new Function('module', 'exports', 'require', commonjs)(module, module.exports, () => ({}));
  return module.exports.run?.({ input, tools });
}

interface Program {
  name: string;
  source: string;
  expected: unknown;
}

const corpus: Program[] = [
  { name: 'variable annotations', source: `const a: number = 1;\nlet b: string[] = ['x'];\nvar c: { d: boolean } = { d: true };\nreturn [a, b, c];`, expected: [1, ['x'], { d: true }] },
  { name: 'parameters, optional and rest', source: `function f(a: number, b?: number, ...rest: number[]): number {\n  return a + (b ?? 10) + rest.length;\n}\nreturn [f(1), f(1, 2), f(1, 2, 3, 4)];`, expected: [11, 3, 5] },
  { name: 'default parameter with a type', source: `function scale(value: number, factor: number = 2): number { return value * factor }\nreturn [scale(3), scale(3, 3)];`, expected: [6, 9] },
  { name: 'arrow return type', source: `const add = (a: number, b: number): number => a + b;\nreturn add(2, 3);`, expected: 5 },
  { name: 'arrow return type over lines', source: `const make = (n: number): {\n  value: number;\n  double: number;\n} => ({ value: n, double: n * 2 });\nreturn make(4);`, expected: { value: 4, double: 8 } },
  { name: 'async arrow with type parameters', source: `const id = async <T,>(x: T): Promise<T> => x;\nreturn await id(5);`, expected: 5 },
  { name: 'async arrow with type parameters over lines', source: `const pair = async <\n  A,\n  B\n>(a: A, b: B): Promise<[A, B]> => [a, b];\nreturn await pair(1, 'x');`, expected: [1, 'x'] },
  { name: 'generic arrow', source: `const id = <T,>(x: T): T => x;\nreturn id(7);`, expected: 7 },
  { name: 'curried arrows', source: `const curry = (a: number) => (b: number): number => a + b;\nreturn curry(1)(2);`, expected: 3 },
  { name: 'destructured typed parameter', source: `const f = ({ a, b }: { a: number; b: number }): number => a + b;\nreturn f({ a: 2, b: 5 });`, expected: 7 },
  { name: 'async arrow with return type', source: `const twice = async (x: number): Promise<number> => x * 2;\nreturn await twice(8);`, expected: 16 },
  { name: 'comments inside types', source: `const f = (a: number /* the a */, b: /* type */ string): // returns\n  string => a + b;\nreturn f(1, 'x');`, expected: '1x' },
  { name: 'interface', source: `interface User {\n  id: string;\n  name?: string;\n}\nconst u: User = { id: 'a' };\nreturn u;`, expected: { id: 'a' } },
  { name: 'generic interface extending another', source: `interface Base { id: string }\ninterface Page<T> extends Base { items: T[]; next?: string }\nconst page: Page<number> = { id: 'p', items: [1, 2] };\nreturn page.items.length;`, expected: 2 },
  { name: 'type aliases', source: `type Pair<T> = [T, T];\ntype Fn = (x: number) => number;\nconst p: Pair<number> = [1, 2];\nconst f: Fn = (x) => x * 2;\nreturn p.map(f);`, expected: [2, 4] },
  { name: 'union type over lines', source: `type Status =\n  | 'open'\n  | 'closed';\nconst s: Status = 'open';\nreturn s;`, expected: 'open' },
  { name: 'generic function declaration and call', source: `function first<T>(xs: T[]): T | undefined { return xs[0] }\nreturn first<number>([3, 4]);`, expected: 3 },
  { name: 'generic constraints and defaults', source: `function merge<A extends object, B extends object = {}>(a: A, b: B): A & B {\n  return { ...a, ...b };\n}\nreturn merge({ x: 1 }, { y: 2 });`, expected: { x: 1, y: 2 } },
  { name: 'generics in constructor calls', source: `const s = new Set<string>(['a', 'a', 'b']);\nconst m = new Map<string, number[]>();\nm.set('k', [1]);\nreturn [s.size, m.get('k')];`, expected: [2, [1]] },
  { name: 'as expression', source: `const x = JSON.parse('{"a":1}') as { a: number };\nreturn x.a;`, expected: 1 },
  { name: 'as const and readonly tuples', source: `const t: readonly [number, string] = [1, 'a'] as const;\nconst arr: ReadonlyArray<number> = [1];\nreturn [t, arr];`, expected: [[1, 'a'], [1]] },
  { name: 'satisfies', source: `const config = { retries: 3 } satisfies Record<string, number>;\nreturn config.retries;`, expected: 3 },
  { name: 'type assertion in angle brackets', source: `const o = <{ a: number }>{ a: 1 };\nreturn o.a;`, expected: 1 },
  { name: 'non-null assertions', source: `const m = new Map<string, number>([['a', 1]]);\nconst data: { a?: { b: number } } = { a: { b: 2 } };\nreturn [m.get('a')! + 1, data.a!.b + (data.a?.b ?? 0)];`, expected: [2, 4] },
  { name: 'definite assignment', source: `let x!: number;\nx = 5;\nreturn x;`, expected: 5 },
  { name: 'typed loop variable', source: `let total: number = 0;\nfor (let i: number = 0; i < 3; i++) total += i;\nreturn total;`, expected: 3 },
  { name: 'this parameter', source: `function f(this: { v: number }, add: number): number { return this.v + add }\nreturn f.call({ v: 1 }, 2);`, expected: 3 },
  { name: 'type predicate', source: `function isText(x: unknown): x is string { return typeof x === 'string' }\nreturn [1, 'a', 2, 'b'].filter(isText);`, expected: ['a', 'b'] },
  { name: 'assertion function', source: `function assert(condition: unknown, message?: string): asserts condition {\n  if (!condition) throw new Error(message);\n}\nassert(true);\nreturn 'ok';`, expected: 'ok' },
  { name: 'function type parameter', source: `function apply(fn: (x: number, y?: number) => number, v: number): number { return fn(v) }\nreturn apply((x) => x * 3, 2);`, expected: 6 },
  { name: 'keyof, typeof and mapped types', source: `const o = { a: 1, b: 2 };\ntype K = keyof typeof o;\nconst keys = Object.keys(o) as K[];\ntype M = { [P in K]: string };\nconst m: M = { a: 'x', b: 'y' };\nreturn [keys, m];`, expected: [['a', 'b'], { a: 'x', b: 'y' }] },
  { name: 'conditional type with infer', source: `type Unwrap<T> = T extends Promise<infer U> ? U : T;\nconst v: Unwrap<Promise<number>> = 3;\nreturn v;`, expected: 3 },
  { name: 'function overloads', source: `function f(x: string): string;\nfunction f(x: number): number;\nfunction f(x: any): any { return x }\nreturn [f('a'), f(1)];`, expected: ['a', 1] },
  { name: 'declare statements', source: `declare const VERSION: string;\ndeclare function log(x: string): void;\ndeclare global {\n  interface Window { x: number }\n}\ndeclare module 'm' {}\nreturn typeof VERSION;`, expected: 'undefined' },
  { name: 'namespace of types', source: `namespace Types { export type Id = string }\nconst id: Types.Id = 'q';\nreturn id;`, expected: 'q' },
  { name: 'catch clause type', source: `try {\n  throw new Error('boom');\n} catch (error: unknown) {\n  return (error as Error).message;\n}`, expected: 'boom' },
  { name: 'implements', source: `interface Shape { area(): number }\nclass Square implements Shape {\n  constructor(private side: number) {}\n  area(): number { return this.side ** 2 }\n}\nreturn new Square(3).area();`, expected: 9 },
  {
    name: 'class member modifiers',
    source: `class A {\n  public a = 1;\n  private b: number = 2;\n  protected c?: number;\n  readonly d = 4;\n  static readonly e = 5;\n  public static f(): number { return 6 }\n  private get g(): number { return this.b }\n  override toString(): string { return 'A' }\n}\nconst x = new A();\nreturn [x.a, x.d, A.e, A.f(), String(x), (x as any).g, 'c' in x];`,
    expected: [1, 4, 5, 6, 'A', 2, true],
  },
  { name: 'abstract class', source: `abstract class Base {\n  abstract name(): string;\n  protected abstract size: number;\n  greet(): string { return 'hi ' + this.name() }\n}\nclass Impl extends Base {\n  protected size = 1;\n  name() { return 'impl' }\n}\nreturn [new Impl().greet(), Object.keys(new Impl())];`, expected: ['hi impl', ['size']] },
  { name: 'declare field', source: `class A { declare x: number; y = 1 }\nconst a = new A();\nreturn ['x' in a, a.y];`, expected: [false, 1] },
  { name: 'generic class', source: `class Box<T> {\n  constructor(public value: T) {}\n  map<U>(f: (v: T) => U): Box<U> { return new Box<U>(f(this.value)) }\n}\nreturn new Box(2).map((v) => v + 1).value;`, expected: 3 },
  { name: 'class method overloads and index signature', source: `class Store {\n  [key: string]: unknown;\n  get(key: string): string;\n  get(key: number): number;\n  get(key: any): any { return key }\n}\nreturn [new Store().get('k'), new Store().get(2)];`, expected: ['k', 2] },
  { name: 'private name and static block', source: `class Counter {\n  #count: number = 0;\n  static start: number;\n  static { Counter.start = 4 }\n  inc(): number { return ++this.#count + Counter.start }\n}\nconst c = new Counter();\nc.inc();\nreturn c.inc();`, expected: 6 },
  { name: 'accessors with types', source: `class S {\n  static x: number = 0;\n  get v(): number { return S.x }\n  set v(n: number) { S.x = n }\n}\nconst s = new S();\ns.v = 9;\nreturn s.v;`, expected: 9 },
  { name: 'class expression', source: `const K = class<T> implements Iterable<T> {\n  constructor(readonly items: T[]) {}\n  *[Symbol.iterator](): Iterator<T> { yield* this.items }\n};\nreturn [...new K([1, 2])];`, expected: [1, 2] },
  { name: 'parameter properties with super', source: `class Base { constructor(public id: string) {} }\nclass Child extends Base {\n  constructor(id: string, private readonly n: number) {\n    super(id);\n  }\n  total(): string { return this.id + this.n }\n}\nreturn new Child('x', 2).total();`, expected: 'x2' },
  { name: 'parameter properties, default and optional', source: `class P {\n  constructor(public a: number = 1, protected b?: string) {}\n  get() { return [this.a, this.b] }\n}\nreturn [new P().get(), new P(2, 'z').get()];`, expected: [[1, undefined], [2, 'z']] },
  { name: 'enum', source: `enum Color { Red, Green = 5, Blue }\nreturn [Color.Red, Color.Green, Color.Blue, Color[5]];`, expected: [0, 5, 6, 'Green'] },
  { name: 'string enum over lines', source: `enum Direction {\n  Up = 'UP',\n  Down = 'DOWN',\n}\nreturn [Direction.Up, Direction.Down, Object.keys(Direction)];`, expected: ['UP', 'DOWN', ['Up', 'Down']] },
  { name: 'const enum with references', source: `const enum Flag { A = 1, B = A << 1, C = A | B }\nreturn [Flag.A, Flag.B, Flag.C];`, expected: [1, 2, 3] },
  { name: 'enum with string keys', source: `enum E { 'a-b' = 1, c = 'a-b'.length, d, "e" }\nreturn [E['a-b'], E.c, E.d, E.e, E[1]];`, expected: [1, 3, 4, 5, 'a-b'] },
  { name: 'enum member with a type inside its value', source: `enum Size { Small = (1 as number), Large = Small * 10 }\nreturn [Size.Small, Size.Large];`, expected: [1, 10] },
  { name: 'object methods with types', source: `const o = {\n  m<T>(x: T): T[] { return [x] },\n  async n(): Promise<number> { return 1 },\n};\nreturn [o.m(1), await o.n()];`, expected: [[1], 1] },
  { name: 'nullish assignment with union type', source: `let x: number | undefined;\nx ??= 3;\nreturn x;`, expected: 3 },
  {
    name: 'model program: tool result cast',
    source: `const r: Array<{id: string}> = await tools.search({ query: 'cats' }) as any;\nconst ids: string[] = r.map((x: {id: string}) => x.id);\nreturn ids;`,
    expected: ['cats-1', 'cats-2', 'cats-3'],
  },
  {
    name: 'model program: filter, sort and enrich',
    source: `interface Hit { id: string; score: number }\nconst hits = (await tools.search({ query: 'dogs' })) as Hit[];\nconst best = hits.filter((h): boolean => h.score > 0.5).sort((a: Hit, b: Hit) => b.score - a.score);\nconst users = await Promise.all(best.map(async (h: Hit): Promise<{ id: string; name: string }> => {\n  const u = await tools.getUser({ id: h.id });\n  return { id: u.id, name: u.name as string };\n}));\nreturn { count: users.length, users };`,
    expected: { count: 2, users: [{ id: 'dogs-1', name: 'DOGS-1' }, { id: 'dogs-3', name: 'DOGS-3' }] },
  },
  {
    name: 'model program: code.run style module',
    source: `export async function run({ input, tools }: { input: { values: number[] }; tools: any }): Promise<number> {\n  const total: number = await tools.sum({ values: input.values });\n  return total!;\n}`,
    expected: 6,
  },
  {
    name: 'model program: reduce with a type argument',
    source: `type Row = { id: string; tags: string[] };\nconst rows: Row[] = [];\nfor (const id of ['a', 'b'] as const) {\n  const user = await tools.getUser({ id }) as Row;\n  rows.push(user);\n}\nconst byTag = rows.reduce<Record<string, string[]>>((acc, row) => {\n  for (const tag of row.tags) (acc[tag] ??= []).push(row.id);\n  return acc;\n}, {});\nreturn byTag;`,
    expected: { all: ['a', 'b'], a: ['a'], b: ['b'] },
  },
  {
    name: 'model program: typed helpers and a result type',
    source: `type Summary = { total: number; mean: number };\nconst summarize = (values: readonly number[]): Summary => {\n  const total = values.reduce((a: number, b: number) => a + b, 0);\n  return { total, mean: total / values.length };\n};\nconst { values } = input as { values: number[] };\nconst s: Summary = summarize(values);\nreturn s satisfies Summary;`,
    expected: { total: 6, mean: 2 },
  },
  {
    name: 'module with type imports and exports',
    source: `import type { Foo } from './foo';\nimport { type Bar, baz } from './bar';\nexport type Id = string;\nexport interface Shape { id: Id }\nconst n: number = 2;\ntype Local = number;\nexport { n, type Local };\nexport type { Shape as Other };\nexport async function run({ input }: { input: { n: number } }): Promise<number> {\n  return input.n * n;\n}`,
    expected: 42,
  },
  { name: 'module exporting an enum and an abstract class', source: `export enum Mode { On = 1, Off = 0 }\nexport abstract class Base { abstract m(): void }\nexport const enum Level { Low }\nexport async function run(): Promise<unknown> { return [Mode.On, Mode[0], Level.Low] }`, expected: [1, 'Off', 0] },
  { name: 'import equals alias', source: `const Shapes = { Circle: { r: 2 } };\nimport Circle = Shapes.Circle;\nreturn Circle.r;`, expected: 2 },
];

describe('eraseTypes on a corpus of TypeScript programs, against sucrase', () => {
  it('has a corpus of at least 40 programs with unique names', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(40);
    expect(new Set(corpus.map((program) => program.name)).size).toBe(corpus.length);
  });

  it.each(corpus)('$name', async ({ source, expected }) => {
    const ours = eraseTypes(source, parse);
    expect(ours).not.toBe(source);
    // The built package's parser (no Flow, no JSX) gives the same program.
    expect(eraseTypes(source, builtParse)).toBe(ours);
    // Line breaks never move: QuickJS's line numbers point into the program as written.
    expect(ours.split('\n').length).toBe(source.split('\n').length);
    // The same tokens as sucrase's output: only the spacing differs.
    expect(squash(ours)).toBe(squash(sucrase(source)));
    const [theirs, mine] = await Promise.all([evaluate(sucrase(source)), evaluate(ours)]);
    expect(theirs).toEqual(expected);
    expect(mine).toEqual(expected);
  });

  // Module forms that cannot run here (CommonJS, other modules): the same text as sucrase's but for spacing.
  it.each([
    `const u = import.meta.url;\nif (u) { type A = 1; }\nconst m = await import('x');`,
    `import * as ns from 'x';\nimport d, * as ns2 from 'y';\nimport d2, { type Z, w } from 'z';\nimport 'side';\nimport type T from 't' with { type: 'json' };`,
    `export type * from './t';\nexport type * as ns from './t';\nexport type { A } from './a';\nexport { type B, c } from './b';`,
    `import a = require('a');\nimport type B = require('b');\nexport import type C = require('c');\nexport = a;`,
  ])('%s', (source) => {
    expect(squash(eraseTypes(source, parse))).toBe(squash(sucrase(source)));
  });
});

describe('eraseTypes', () => {
  it('numbers tokens as sucrase 3.35.1 does', async () => {
    const { TokenType: sucraseTokenType } = await sucraseModule<{ TokenType: Record<string, number> }>('parser/tokenizer/types.js');
    const { ContextualKeyword: sucraseKeyword } = await sucraseModule<{ ContextualKeyword: Record<string, number> }>('parser/tokenizer/keywords.js');
    for (const [name, value] of Object.entries(TokenType)) expect([name, value]).toEqual([name, sucraseTokenType[name]]);
    for (const [name, value] of Object.entries(ContextualKeyword)) expect([name, value]).toEqual([name, sucraseKeyword[name]]);
  });

  it('keeps lines and columns: erased text becomes spaces', () => {
    const source = `interface Hit { id: string }\nconst hits: Hit[] = (await tools.search({ query: 'q' })) as Hit[];\nconst first = hits[0]!.id;\nthrow new Error(first);`;
    const ours = eraseTypes(source, parse);
    expect(ours.length).toBe(source.length);
    for (const marker of ['const hits', 'await tools.search', 'const first', 'throw new Error']) expect(ours.indexOf(marker)).toBe(source.indexOf(marker));
    expect(ours.split('\n').map((line) => line.trimEnd())).toEqual([
      '',
      "const hits        = (await tools.search({ query: 'q' }))         ;",
      'const first = hits[0] .id;',
      'throw new Error(first);',
    ]);
  });

  it('moves `)` to the line of `=>` when a return type spans lines', () => {
    const ours = eraseTypes(`const f = (a: number): {\n  b: number;\n} => ({ b: a });`, parse);
    expect(ours.split('\n').map((line) => line.trimEnd())).toEqual(['const f = (a', '', ' )=> ({ b: a });']);
  });

  it('assigns parameter properties after super(…)', () => {
    const ours = eraseTypes(`class A extends B {\n  constructor(private x: number) {\n    super();\n  }\n}`, parse);
    expect(ours).toBe(`class A extends B {\n  constructor(        x        ) {\n    super();this.x = x;;\n  }\n}`);
  });

  it('throws on what sucrase cannot parse', () => {
    expect(() => eraseTypes('const = ;', parse)).toThrow();
    expect(() => eraseTypes('class A { constructor(private { a }) {} }', parse)).toThrow();
  });
});

describe('stripTypes', () => {
  it('returns the JavaScript of a TypeScript program', async () => {
    expect(await stripTypes('const a: number = 1;\nreturn a;')).toBe('const a         = 1;\nreturn a;');
  });

  it('returns undefined when the source does not parse as TypeScript either, or nothing changes', async () => {
    expect(await stripTypes('const = ;')).toBeUndefined();
    expect(await stripTypes('return [1, 2].map((n) => n * 2);')).toBeUndefined();
  });
});
