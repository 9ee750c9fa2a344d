import { beforeAll, describe, expect, it } from 'vitest';
import { defineTool } from 'ghostlight';
import { CodeLimitError, CodeProgramError, runCode, defaultCodeEngine } from 'ghostlight/code-mode';
import type { CodeLimitName, CodeLimits } from 'ghostlight/code-mode';
import { echoTool } from '../support/code-tools';

const engine = defaultCodeEngine();
const echo = echoTool('echo').tool;
const hang = defineTool({ name: 'hang', description: 'Never answers.', input: { type: 'object' }, execute: () => new Promise(() => {}) });
const then = defineTool({ name: 'then', description: 'A tool named then.', input: { type: 'object' }, execute: () => 'then-result' });
const pollute = defineTool({
  name: 'pollute',
  description: 'Returns a value with a __proto__ key.',
  input: { type: 'object' },
  execute: () => JSON.parse('{"__proto__": {"polluted": true}, "plain": 1}') as unknown,
});
const tools = [echo, hang, then, pollute];

/** Tight limits so every stop happens fast. */
const tight: Partial<CodeLimits> = { cpuMs: 200, memoryBytes: 16 * 1024 * 1024, wallMs: 2_000, outputBytes: 100_000, cleanupMs: 100 };

type Expectation =
  | { limit: CodeLimitName | readonly CodeLimitName[] }
  | { threw: RegExp }
  | { value: unknown };

interface Case {
  name: string;
  source: string;
  expect: Expectation;
  limits?: Partial<CodeLimits>;
}

const cases: Case[] = [
  // Busy loops and job storms: stopped by the CPU budget.
  { name: 'infinite while loop', source: 'while (true) {}', expect: { limit: 'cpu' } },
  { name: 'infinite for loop', source: 'for (;;) {}', expect: { limit: 'cpu' } },
  { name: 'infinite do-while loop', source: 'do {} while (1);', expect: { limit: 'cpu' } },
  { name: 'busy loop after an await', source: 'await null; while (true) {}', expect: { limit: 'cpu' } },
  { name: 'busy loop inside a promise job', source: 'Promise.resolve().then(() => { while (true) {} }); await new Promise(() => {});', expect: { limit: ['cpu', 'wall'] } },
  { name: 'microtask storm', source: 'const loop = () => Promise.resolve().then(loop); loop(); await new Promise(() => {});', expect: { limit: ['cpu', 'memory'] } },
  { name: 'clock tampering before a busy loop', source: 'Date.now = () => 0; performance = undefined; while (true) {}', expect: { limit: 'cpu' } },
  { name: 'catastrophic regular expression', source: 'return /^(a+)+$/.test("a".repeat(40) + "b");', expect: { limit: 'cpu' } },
  { name: 'sort with a comparator that never returns', source: '[3, 2, 1].sort(() => { while (true) {} });', expect: { limit: 'cpu' } },
  { name: 'catching exit, then looping', source: 'try { exit(5); } catch {} while (true) {}', expect: { value: 5 } },
  { name: 'exit storm', source: 'for (;;) exit(1);', expect: { value: 1 } },
  { name: 'an error getter that loops', source: 'throw { get message() { while (true) {} } };', expect: { limit: 'cpu' } },
  { name: 'a proxy return value whose trap loops', source: 'return new Proxy({}, { ownKeys() { while (true) {} } });', expect: { limit: 'cpu' } },
  // Deep recursion: stopped by the QuickJS stack limit, never the host's.
  { name: 'infinite recursion', source: 'function f() { return f() + 1; } f();', expect: { limit: 'stack' } },
  { name: 'mutual recursion', source: 'const a = () => b() + 1; const b = () => a() + 1; a();', expect: { limit: 'stack' } },
  { name: 'recursion in an async function', source: 'async function f(n) { return (await f(n + 1)) + 1; } await f(0);', expect: { limit: ['stack', 'memory'] } },
  { name: 'recursion through toString', source: 'const o = { toString() { return "" + o; } }; return "" + o;', expect: { limit: 'stack' } },
  { name: 'deeply nested JSON', source: 'let a = []; for (let i = 0; i < 200000; i++) a = [a]; return JSON.stringify(a).length;', expect: { limit: ['stack', 'memory', 'cpu'] } },
  // Allocation bombs: stopped by the memory limit (or the CPU budget while QuickJS collects garbage near the limit, STACK.md G19).
  { name: 'string doubling', source: 'let s = "x"; const keep = []; while (true) { s += s; keep.push(s); }', expect: { limit: ['memory', 'cpu'] } },
  { name: 'huge array', source: 'const a = new Array(1e8).fill(0); return a.length;', expect: { limit: ['memory', 'cpu'] } },
  { name: 'huge repeat', source: 'return "x".repeat(2 ** 29).length;', expect: { limit: ['memory', 'cpu'] } },
  { name: 'object growth', source: 'const o = {}; for (let i = 0; ; i++) o["k" + i] = { i };', expect: { limit: ['memory', 'cpu'] } },
  { name: 'unresolved promise storm', source: 'const keep = []; for (;;) keep.push(new Promise(() => {}));', expect: { limit: ['memory', 'cpu'] } },
  { name: 'huge tool argument', source: 'await tools.echo({ big: "x".repeat(2 ** 28) });', expect: { limit: ['memory', 'cpu'] } },
  // Output: bounded by the output limit.
  { name: 'endless output', source: 'while (true) text("x".repeat(1000));', expect: { limit: 'output' } },
  { name: 'one huge text', source: 'text("x".repeat(200000));', expect: { limit: 'output' } },
  { name: 'a storm of empty texts', source: 'for (let i = 0; i < 1e6; i++) text("");', expect: { limit: ['output', 'cpu'] } },
  { name: 'huge return value', source: 'return "x".repeat(200000);', expect: { limit: 'output' } },
  { name: 'toJSON that returns a huge value', source: 'return { toJSON() { return "y".repeat(300000); } };', expect: { limit: 'output' } },
  // Tool-call storms: bounded by the pending-call and budget limits.
  { name: 'promise storm of tool calls', source: 'await Promise.all(Array.from({ length: 5000 }, () => tools.echo({})));', limits: { cpuMs: 2_000 }, expect: { limit: 'pendingCalls' } },
  { name: 'tool-call budget', source: 'for (let i = 0; i < 20; i++) await tools.echo({ i });', limits: { toolCalls: 10 }, expect: { threw: /Code-mode tool call budget exceeded/ } },
  { name: 'a tool that never answers', source: 'await tools.hang({});', limits: { wallMs: 150 }, expect: { limit: 'wall' } },
  { name: 'a promise that never settles', source: 'await new Promise(() => {});', limits: { wallMs: 150 }, expect: { limit: 'wall' } },
  // Tool calls after exit are refused; exit completes with its value.
  { name: 'a tool call after exit', source: 'exit("early"); await tools.echo({ after: true }); return "late";', expect: { value: 'early' } },
  { name: 'a tool call after a caught exit', source: 'try { exit("early"); } catch {} const r = await tools.echo({}).catch((e) => e.message); return r;', expect: { value: 'early' } },
  // Host escapes: nothing of the host is reachable.
  { name: 'host bridge global', source: 'return [typeof __ghostlight_host, Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith("__")).length];', expect: { value: ['undefined', 0] } },
  { name: 'ambient host globals', source: 'return ["process", "require", "fetch", "console", "WebAssembly", "setTimeout", "setInterval", "ArrayBuffer", "Uint8Array", "SharedArrayBuffer", "Atomics", "DataView", "XMLHttpRequest", "navigator", "caches"].map((n) => typeof globalThis[n]).filter((t) => t !== "undefined").length;', expect: { value: 0 } },
  { name: 'Function constructor', source: 'return Function("return [typeof process, typeof fetch, this === globalThis]")();', expect: { value: ['undefined', 'undefined', true] } },
  { name: 'indirect eval', source: 'return (0, eval)("typeof require + typeof WebAssembly");', expect: { value: 'undefinedundefined' } },
  { name: 'dynamic import', source: 'return await import("fs");', expect: { threw: /./ } },
  { name: 'static import in a module', source: 'import fs from "fs";\nexport async function run() { return typeof fs; }', expect: { threw: /./ } },
  { name: 'the tools prototype chain', source: 'return [Object.getPrototypeOf(tools), typeof tools.constructor, typeof tools.__proto__, Object.isFrozen(tools)];', expect: { value: [null, 'undefined', 'undefined', true] } },
  // QuickJS lets a program redefine its own (locked) globals; that only changes the program's own context.
  { name: 'redefining the control globals', source: 'Object.defineProperty(globalThis, "exit", { value: () => "no exit" }); return [exit(), typeof tools.echo];', expect: { value: ['no exit', 'function'] } },
  { name: 'overwriting tools', source: 'globalThis.tools = null; tools = null; return typeof tools.echo;', expect: { value: 'function' } },
  // Values returned by tools can be tampered with only inside the sandbox.
  { name: 'prototype tampering of a tool value', source: 'const r = await tools.echo({ v: 1 }); Object.getPrototypeOf(r).polluted = true; Object.prototype.toJSON = () => "hacked"; return r;', expect: { value: 'hacked' } },
  { name: 'a __proto__ key from a tool', source: 'const r = await tools.pollute({}); return [r.plain, ({}).polluted === undefined, Object.keys(r).length];', expect: { value: [1, true, 2] } },
  { name: 'tampering with JSON and Map before a call', source: 'JSON.parse = () => { throw new Error("no"); }; JSON.stringify = () => "{}"; Map.prototype.get = () => undefined; return (await tools.echo({ v: 2 })).v;', expect: { value: 2 } },
  { name: 'tampering with Promise before a call', source: 'globalThis.Promise = function () {}; return (await tools.echo({ v: 3 })).v;', expect: { value: 3 } },
  // A tool named then, and malformed calls.
  { name: 'a tool named then', source: 'const awaited = await tools; return [typeof tools.then, awaited === tools, await tools._then({})];', expect: { value: ['undefined', true, 'then-result'] } },
  { name: 'an unknown tool', source: 'return await tools.call("nope", {});', expect: { threw: /Tool is not available in code mode: nope/ } },
  { name: 'arguments that are not an object', source: 'return await tools.echo(5);', expect: { threw: /Tool arguments must be an object/ } },
  { name: 'circular arguments', source: 'const a = {}; a.a = a; return await tools.echo(a);', expect: { threw: /Tool arguments must be JSON-serializable/ } },
  { name: 'a symbol as tool name', source: 'return await tools.call(Symbol("x"), {});', expect: { threw: /Tool is not available in code mode/ } },
  // Odd throws and syntax.
  { name: 'throwing a number', source: 'throw 42;', expect: { threw: /^42$/ } },
  { name: 'a syntax error', source: 'return )(;', expect: { threw: /SyntaxError/ } },
  { name: 'a getter that throws on the return value', source: 'return { get x() { throw new Error("boom"); } };', expect: { threw: /boom/ } },
];

describe('the adversarial corpus', () => {
  beforeAll(() => engine.ready());

  it('has at least 40 programs', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  for (const entry of cases) {
    it(`handles ${entry.name}`, async () => {
      const outcome = await runCode(entry.source, { tools, engine, limits: { ...tight, ...entry.limits } }).then(
        (result) => ({ ok: true as const, result }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      const expected = entry.expect;
      if ('value' in expected) {
        expect(outcome.ok ? outcome.result.value : outcome.error).toEqual(expected.value);
      } else if ('limit' in expected) {
        expect(outcome.ok).toBe(false);
        const error = outcome.ok ? undefined : outcome.error;
        expect(CodeLimitError.isInstance(error), String(error)).toBe(true);
        const allowed: readonly string[] = typeof expected.limit === 'string' ? [expected.limit] : expected.limit;
        expect(allowed).toContain((error as CodeLimitError).limit);
      } else {
        expect(outcome.ok).toBe(false);
        const error = outcome.ok ? undefined : outcome.error;
        expect(CodeProgramError.isInstance(error), String(error)).toBe(true);
        expect((error as Error).message).toMatch(expected.threw);
      }
      // The host stays responsive and untouched, and the next program runs normally.
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect((Object.prototype as Record<string, unknown>).toJSON).toBeUndefined();
      expect((await runCode('return 1 + 1;', { engine })).value).toBe(2);
    });
  }
});
