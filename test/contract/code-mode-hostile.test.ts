// The hostile-program corpus (issue 19, "Code mode"): programs that try to hold the host, grow its memory,
// flood it with text or smuggle keys into tools. Each runs on the runtime's default engine (worker threads in
// Node, a Web Worker in Chromium, QuickJS on the thread in workerd) under tight limits, and for each the test
// measures the longest gap in the host's event loop, the time until the program was stopped and the host heap
// it left behind, and asserts the bounds:
//
//   - the host is blocked at most 2 × cpuMs + 50 ms, and the program is stopped within that of host time,
//     whatever it calls (plus the runtime's scheduling noise, below);
//   - the host retains at most 2 × memoryBytes for the program (where the runtime can measure its heap);
//   - and the outcome is the one named (a limit, an ordinary program error, a value).
//
// Programs marked `inThread: 'unbounded'` are the classes no in-thread bound can stop in time (operators and
// syntax over huge values, stack overflow caught and recursed): where the engine is preemptive they are held
// to the same bounds; on workerd they must still end with the named outcome, and their measurements are
// reported (BENCHMARKS.md, "Code mode under attack"; docs/code-mode.md, "Stopping programs").
//
// With GHOSTLIGHT_HOSTILE_REPORT=1 (vitest.config.ts provides it) each measurement is printed as one
// `HOSTILE {json}` line for `npm run bench -- code-mode-hostile`.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CancelledError, defineAgent, defineTool } from 'ghostlight';
import type { GhostlightEvent } from 'ghostlight';
import { CodeLimitError, CodeProgramError, codeMode, createQuickJsEngine, defaultCodeEngine, runCode } from 'ghostlight/code-mode';
import type { CodeEngine, CodeLimitName, CodeLimits, RunCodeResult } from 'ghostlight/code-mode';
import { testRuntime } from '#test-runtime';
import { scriptedModel } from '../support/scripted-model';

const CPU_MS = 100;
const MEMORY_BYTES = 16 * 1024 * 1024;
const OUTPUT_BYTES = 100_000;
const limits: Partial<CodeLimits> = { cpuMs: CPU_MS, memoryBytes: MEMORY_BYTES, wallMs: 5_000, outputBytes: OUTPUT_BYTES, cleanupMs: 200 };
/**
 * The runtime's own scheduling noise, added to the bound (2 × cpuMs + 50 ms) before it is asserted: the suite
 * runs in three runtimes at once (and `npm test` beside every other project) on a shared two-core machine, so
 * the OS deschedules the host and its workers for tens to hundreds of milliseconds, the budget is measured on
 * the wall clock, and a stop also waits for timers, worker messages and a worker's termination. On an idle
 * machine the worst cases are well inside the bound itself (BENCHMARKS.md, "Code mode under attack"); before
 * the fixes the same programs held the host for seconds or never returned.
 */
const BLOCKED_NOISE_MS = 150;
const STOP_NOISE_MS = 250;
/** The bound on host memory retained for one program. */
const MEMORY_BOUND = 2 * MEMORY_BYTES;
declare module 'vitest' {
  export interface ProvidedContext {
    /** Print each measurement (GHOSTLIGHT_HOSTILE_REPORT=1, set by `npm run bench -- code-mode-hostile`). */
    hostileReport: boolean;
  }
}
const report = inject('hostileReport') === true;

type Outcome = { limit: CodeLimitName } | { threw: RegExp } | { value: unknown } | { cancelled: true };

interface HostileCase {
  readonly name: string;
  /** The class in the report. */
  readonly kind: string;
  readonly source: string;
  readonly expect: Outcome | readonly Outcome[];
  readonly limits?: Partial<CodeLimits>;
  /** Run on an engine on the host's thread whose clock never advances (deployed Workers, STACK.md G4). */
  readonly frozenClock?: true;
  /**
   * No in-thread bound can stop this class in time: held to the bounds where the engine is preemptive; on
   * workerd `unbounded` runs it (sized to end within seconds) and asserts only its outcome, `skip` does not run
   * it there (it would hold the isolate for minutes).
   */
  readonly inThread?: 'unbounded' | 'skip';
  /** Abort the program's signal after this many ms (the stop time then counts from the abort). */
  readonly abortAfterMs?: number;
  /** The program is due to stop this many ms after it starts (its wall limit): the stop time counts from then. */
  readonly dueAfterMs?: number;
  /** The stop time is not CPU-bound (the program waits on the host): only the blocked time is asserted. */
  readonly waits?: true;
  /** Further checks on the settled program. */
  readonly check?: (settled: Settled) => void;
}

type Settled = { ok: true; result: RunCodeResult } | { ok: false; error: unknown };

const echo = defineTool({ name: 'echo', description: 'Echo the arguments.', input: { type: 'object', additionalProperties: true }, execute: (input) => input });
const hang = defineTool({ name: 'hang', description: 'Never answers.', input: { type: 'object' }, execute: () => new Promise(() => {}) });
const leaky = (name: string, errorName: string) =>
  defineTool({
    name,
    description: 'Fails with a driver error.',
    input: { type: 'object' },
    execute: () => {
      const error = new Error('connection refused');
      error.name = errorName;
      throw error;
    },
  });
class PgError extends Error {
  override name = 'PgError';
}
const pg = defineTool({ name: 'pg', description: 'Fails with a PgError.', input: { type: 'object' }, execute: () => Promise.reject(new PgError('boom')) });
const inspect = defineTool({
  name: 'inspect',
  description: 'Describes its arguments.',
  input: { type: 'object', additionalProperties: true },
  execute: (input) => {
    const args = input as Record<string, unknown>;
    const merged: Record<string, unknown> = {};
    // A naive merge, the kind an own `__proto__` key turns into a prototype change.
    for (const key of Object.keys(args)) merged[key] = args[key];
    const nested = args.nested as Record<string, unknown> | undefined;
    return {
      keys: Object.keys(args),
      nestedKeys: nested ? Object.keys(nested) : [],
      mergedPrototypeIsObject: Object.getPrototypeOf(merged) === Object.prototype,
      polluted: ({} as Record<string, unknown>).polluted ?? null,
    };
  },
});
const measure = defineTool({ name: 'measure', description: 'The length of its arguments as JSON.', input: { type: 'object', additionalProperties: true }, execute: (input) => JSON.stringify(input).length });
const tools = [echo, hang, measure, leaky('leak', 'PgError password=hunter2 host=db.internal'), leaky('huge_name', `E${'x'.repeat(100_000)}`), pg, inspect];

const cpu = { limit: 'cpu' } as const;
const memory = { limit: 'memory' } as const;
const stack = { limit: 'stack' } as const;
const output = { limit: 'output' } as const;
const longText = (chars: number) => `"x".repeat(${chars})`;

const cases: HostileCase[] = [
  // Builtins that run over an array-like's length, never reaching QuickJS's interrupt check.
  { kind: 'long builtin', name: 'includes over an array-like of length 2^53-1', source: 'return Array.prototype.includes.call({ length: 2 ** 53 - 1 }, 1);', expect: cpu },
  { kind: 'long builtin', name: 'join of new Array(2^32-1)', source: 'return new Array(2 ** 32 - 1).join("").length;', expect: cpu },
  { kind: 'long builtin', name: 'indexOf over an array-like', source: 'return Array.prototype.indexOf.call({ length: 2 ** 40 }, 1);', expect: cpu },
  { kind: 'long builtin', name: 'lastIndexOf over an array-like', source: 'return Array.prototype.lastIndexOf.call({ length: 2 ** 40 }, 1);', expect: cpu },
  { kind: 'long builtin', name: 'reverse of a sparse array', source: 'const a = []; a[2 ** 32 - 2] = 1; a.reverse(); return 1;', expect: cpu },
  { kind: 'long builtin', name: 'copyWithin over an array-like', source: 'Array.prototype.copyWithin.call({ length: 2 ** 40 }, 0, 1); return 1;', expect: cpu },
  { kind: 'long builtin', name: 'splice of an array-like', source: 'Array.prototype.splice.call({ length: 2 ** 40 }, 0, 1); return 1;', expect: cpu },
  { kind: 'long builtin', name: 'forEach over holes', source: 'new Array(2 ** 32 - 1).forEach(() => {}); return 1;', expect: cpu },
  { kind: 'long builtin', name: 'every over holes', source: 'return new Array(2 ** 32 - 1).every(() => false);', expect: cpu },
  { kind: 'long builtin', name: 'reduce over holes', source: 'return new Array(2 ** 32 - 1).reduce((a) => a, 0);', expect: cpu },
  { kind: 'long builtin', name: 'flat of a huge sparse inner array', source: 'return [new Array(2 ** 32 - 1)].flat().length;', expect: cpu },
  { kind: 'long builtin', name: 'flatMap returning a huge sparse array', source: 'return [1].flatMap(() => new Array(2 ** 32 - 1)).length;', expect: cpu },
  { kind: 'long builtin', name: 'concat of a spreadable array-like', source: 'return [].concat({ length: 2 ** 40, [Symbol.isConcatSpreadable]: true }).length;', expect: cpu },
  { kind: 'long builtin', name: 'sort of an array-like', source: 'Array.prototype.sort.call({ length: 2 ** 40 }); return 1;', expect: cpu },
  { kind: 'long builtin', name: 'Array.from of an array-like', source: 'return Array.from({ length: 2 ** 32 - 1 }).length;', expect: [cpu, memory] },
  { kind: 'long builtin', name: 'Iterator.prototype.drop of almost everything', source: 'return new Array(2 ** 32 - 1).values().drop(2 ** 32 - 2).next().done;', expect: cpu },
  { kind: 'long builtin', name: 'default sort of a large array', source: 'const a = Array.from({ length: 600000 }, (_, i) => (i * 7919) % 600000); a.sort(); return a[0];', expect: [cpu, memory] },
  { kind: 'long builtin', name: 'a loop of 2 ms builtin calls', source: 'const a = Array.from({ length: 20000 }, (_, i) => i); for (;;) a.includes(-1);', expect: cpu },
  { kind: 'long builtin', name: 'a loop of JSON.stringify', source: 'const o = Array.from({ length: 20000 }, (_, i) => ({ i })); for (;;) JSON.stringify(o);', expect: cpu },
  { kind: 'long builtin', name: 'a loop of Object.keys', source: 'const o = {}; for (let i = 0; i < 50000; i++) o["k" + i] = i; for (;;) Object.keys(o);', expect: cpu },
  { kind: 'long builtin', name: 'Promise.all of 10^6 promises', source: 'const ps = []; for (let i = 0; i < 1e6; i++) ps.push(Promise.resolve(i)); await Promise.all(ps); return 1;', expect: [cpu, memory] },
  // String search: QuickJS's search is quadratic in the needle length.
  { kind: 'string search', name: 'quadratic indexOf', source: 'const h = "a".repeat(120000), n = "a".repeat(60000) + "b"; return h.indexOf(n);', expect: cpu },
  { kind: 'string search', name: 'quadratic lastIndexOf', source: 'const h = "a".repeat(120000), n = "a".repeat(60000) + "b"; return h.lastIndexOf(n);', expect: cpu },
  { kind: 'string search', name: 'quadratic includes', source: 'const h = "a".repeat(120000), n = "a".repeat(60000) + "b"; return h.includes(n);', expect: cpu },
  { kind: 'string search', name: 'quadratic split', source: 'const h = "a".repeat(120000), n = "a".repeat(60000) + "b"; return h.split(n).length;', expect: cpu },
  { kind: 'string search', name: 'quadratic replaceAll', source: 'const h = "a".repeat(120000), n = "a".repeat(60000) + "b"; return h.replaceAll(n, "").length;', expect: cpu },
  { kind: 'string search', name: 'a long literal regular expression', source: 'const h = "a".repeat(120000), n = "a".repeat(60000) + "b"; return h.search(new RegExp(n));', expect: cpu },
  { kind: 'string search', name: 'catastrophic backtracking inside QuickJS', source: 'return /^(a|a)*$/.test("a".repeat(40) + "b");', expect: cpu },
  { kind: 'string search', name: 'long needles still found', source: 'const n = "ab".repeat(40); const h = "x".repeat(300000) + n + "y".repeat(300000); return [h.indexOf(n), h.lastIndexOf(n), h.includes(n), h.split(n).length, h.replace(n, "!").length, h.replaceAll(n, "$&$&").length];', limits: { cpuMs: 1_000 }, expect: { value: [300000, 300000, true, 2, 600001, 600160] } },
  // BigInt sizes.
  { kind: 'bigint', name: 'one huge BigInt toString', source: 'return ((1n << 1000000n) - 1n).toString().length;', expect: cpu },
  { kind: 'bigint', name: 'a loop of BigInt toString calls', source: 'const a = (1n << 100000n) - 1n; for (;;) a.toString();', expect: cpu },
  { kind: 'bigint', name: 'parsing a 300,000-digit BigInt', source: `return BigInt(${longText(300000).replace('"x"', '"9"')}) > 0n;`, expect: cpu },
  { kind: 'bigint', name: 'BigInt.asIntN with 2^20 bits (linear, allowed)', source: 'return BigInt.asIntN(2 ** 20, 5n) === 5n;', expect: { value: true } },
  { kind: 'bigint', name: 'multiplying 300,000-bit BigInts', source: 'const a = (1n << 300000n) - 1n; for (;;) a * a;', expect: cpu, inThread: 'skip' },
  // Job queues.
  { kind: 'jobs', name: 'a promise-job fan-out (each job schedules two)', source: 'const f = () => { Promise.resolve().then(f); Promise.resolve().then(f); }; f(); await new Promise(() => {});', expect: [cpu, memory] },
  { kind: 'jobs', name: '20,000 independent for (;;) await 0 loops', source: 'for (let i = 0; i < 20000; i++) (async () => { for (;;) await 0; })(); await new Promise(() => {});', expect: [cpu, memory] },
  { kind: 'jobs', name: 'a thenable that resolves to itself', source: 'const t = { then(resolve) { resolve(t); } }; await t;', expect: [cpu, memory] },
  { kind: 'jobs', name: 'an endless async generator', source: 'for await (const x of (async function* () { for (;;) yield 0; })()) {}', expect: cpu },
  { kind: 'jobs', name: 'a busy loop inside a promise job', source: 'Promise.resolve().then(() => { for (;;) {} }); await new Promise(() => {});', expect: cpu },
  // Recursion.
  { kind: 'recursion', name: 'stack overflow caught and recursed', source: 'function f() { try { f(); } catch { f(); } } f();', expect: [cpu, stack], inThread: 'unbounded' },
  { kind: 'recursion', name: 'recursion through a getter', source: 'const o = { get x() { return this.x; } }; return o.x;', expect: stack },
  { kind: 'recursion', name: 'recursion through a Proxy trap', source: 'const p = new Proxy({}, { get: (t, k, r) => r[k] }); return p.x;', expect: stack },
  { kind: 'recursion', name: 'recursion through toJSON', source: 'const o = { toJSON() { return JSON.stringify(o); } }; return JSON.stringify(o);', expect: stack },
  { kind: 'recursion', name: 'recursion through a map callback', source: 'const f = () => [1].map(f); return f();', expect: stack },
  { kind: 'recursion', name: 'recursion through valueOf', source: 'const o = { valueOf() { return o + 1; } }; return o + 1;', expect: stack },
  // Allocation.
  { kind: 'allocation', name: 'an array of 10^8 elements', source: 'return new Array(1e8).fill(0).length;', expect: [memory, cpu] },
  { kind: 'allocation', name: 'a Map that grows forever', source: 'const m = new Map(); for (let i = 0; ; i++) m.set(i, { i });', expect: [memory, cpu] },
  { kind: 'allocation', name: '"x".repeat(2^28)', source: 'return "x".repeat(2 ** 28).length;', expect: [memory, cpu] },
  { kind: 'allocation', name: 'padEnd to 10^9', source: 'return "".padEnd(1e9).length;', expect: [memory, cpu] },
  { kind: 'allocation', name: 'a tool argument of 256 MiB', source: 'await tools.echo({ big: "x".repeat(2 ** 28) });', expect: [memory, cpu] },
  { kind: 'allocation', name: 'allocation under a frozen clock', source: 'for (;;) { const a = []; for (let i = 0; i < 1000; i++) a.push({ i, s: "v" + i }); }', expect: [cpu, memory], frozenClock: true },
  { kind: 'allocation', name: 'a busy loop under a frozen clock', source: 'for (;;) {}', expect: cpu, frozenClock: true },
  { kind: 'allocation', name: 'long builtins under a frozen clock', source: 'const a = Array.from({ length: 20000 }, (_, i) => i); for (;;) a.includes(-1);', expect: cpu, frozenClock: true },
  {
    kind: 'allocation',
    name: 'arguments in flight beyond the memory limit are refused',
    source: 'const big = "x".repeat(3e6); const r = await Promise.allSettled(Array.from({ length: 8 }, () => tools.measure({ big }))); return r.map((x) => x.status === "fulfilled" ? x.value : x.reason.message);',
    limits: { cpuMs: 1_000 },
    waits: true,
    expect: { value: [...Array(5).fill(3_000_010), ...Array(3).fill('Code-mode tool arguments in flight exceed the program memory limit')] },
  },
  // Output and error text.
  { kind: 'output', name: 'endless text', source: 'for (;;) text("x".repeat(1000));', expect: output },
  { kind: 'output', name: 'one 2 MB text', source: `text(${longText(2e6)});`, expect: output },
  { kind: 'output', name: 'a 2 MB return value', source: `return ${longText(2e6)};`, expect: output },
  { kind: 'output', name: 'a 2 MB exit value', source: `exit(${longText(2e6)});`, expect: output },
  {
    kind: 'error text',
    name: 'a thrown 8 MB message',
    source: `throw new Error(${longText(8e6)});`,
    limits: { cpuMs: 1_000 },
    expect: { threw: /^Error: xxx/ },
    check: (settled) => expect(errorBytes(settled)).toBeLessThanOrEqual(OUTPUT_BYTES),
  },
  {
    kind: 'error text',
    name: 'a thrown 8 MB name and stack',
    source: `const e = new Error("m"); e.name = ${longText(4e6)}; e.stack = ${longText(4e6)}; throw e;`,
    limits: { cpuMs: 1_000 },
    expect: { threw: /^xxx/ },
    check: (settled) => expect(errorBytes(settled)).toBeLessThanOrEqual(OUTPUT_BYTES),
  },
  {
    kind: 'error text',
    name: 'a thrown 8 MB string',
    source: `throw ${longText(8e6)};`,
    limits: { cpuMs: 1_000 },
    expect: { threw: /^xxx/ },
    check: (settled) => expect(errorBytes(settled)).toBeLessThanOrEqual(OUTPUT_BYTES),
  },
  {
    kind: 'error text',
    name: 'an error after the output is nearly full',
    source: `text(${longText(OUTPUT_BYTES - 100)}); throw new Error(${longText(50_000)});`,
    expect: { threw: /^Error: x.*tokens truncated/s },
    check: (settled) => expect(errorBytes(settled) + OUTPUT_BYTES - 100).toBeLessThanOrEqual(OUTPUT_BYTES + 8),
  },
  { kind: 'error text', name: 'throw Promise.resolve(42)', source: 'throw Promise.resolve(42);', expect: { threw: /^\[object Promise\]$/ } },
  { kind: 'error text', name: 'rejecting with a promise', source: 'return await new Promise((_, reject) => reject(Promise.resolve(1)));', expect: { threw: /^\[object Promise\]$/ } },
  { kind: 'error text', name: 'throwing a function', source: 'throw () => 1;', expect: { threw: /^\[object Function\]$/ } },
  { kind: 'error text', name: 'throwing a symbol', source: 'throw Symbol("s");', expect: { threw: /^Symbol\(s\)$/ } },
  { kind: 'error text', name: 'throwing a revoked proxy', source: 'const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); throw proxy;', expect: { threw: /./ } },
  { kind: 'error text', name: 'throwing a huge BigInt', source: 'throw (1n << 1000000n);', expect: { threw: /^BigInt of about \d+ bits$/ } },
  // The interrupt handler's edges: program code the host runs while reading values.
  { kind: 'interrupt edge', name: 'a loop in a thrown object\'s toJSON', source: 'throw { toJSON() { for (;;) {} } };', expect: cpu },
  { kind: 'interrupt edge', name: 'a loop in a message getter', source: 'throw { get message() { for (;;) {} } };', expect: cpu },
  { kind: 'interrupt edge', name: 'a loop in a tool argument getter', source: 'await tools.echo({ get x() { for (;;) {} } });', expect: cpu },
  { kind: 'interrupt edge', name: 'a loop in a Proxy trap on tool arguments', source: 'await tools.echo(new Proxy({}, { ownKeys() { for (;;) {} } }));', expect: cpu },
  { kind: 'interrupt edge', name: 'a loop in the toJSON of a text value', source: 'text({ toJSON() { for (;;) {} } });', expect: cpu },
  { kind: 'interrupt edge', name: 'a loop in the toJSON of an exit value', source: 'exit({ toJSON() { for (;;) {} } });', expect: cpu },
  { kind: 'interrupt edge', name: 'a loop in Symbol.toPrimitive of a BigInt argument', source: 'return BigInt({ [Symbol.toPrimitive]() { for (;;) {} } });', expect: cpu },
  { kind: 'interrupt edge', name: 'a loop in code made by Function', source: 'Function("for (;;) {}")();', expect: cpu },
  { kind: 'interrupt edge', name: 'a loop in an async function constructor', source: 'await (async () => {}).constructor("for (;;) {}")();', expect: cpu },
  { kind: 'interrupt edge', name: 'an abort while a long builtin runs', source: 'const s = "x".repeat(1e6), t = "x".repeat(1e6); for (;;) s === t;', limits: { cpuMs: 10_000 }, abortAfterMs: 50, expect: { cancelled: true }, inThread: 'skip' },
  { kind: 'interrupt edge', name: 'the wall limit while a long builtin runs', source: 'const s = "x".repeat(1e6), t = "x".repeat(1e6); for (;;) s === t;', limits: { cpuMs: 10_000, wallMs: 100 }, dueAfterMs: 100, expect: { limit: 'wall' }, inThread: 'unbounded' },
  // Values crossing to the host.
  { kind: 'values crossing', name: 'Symbol.toPrimitive and valueOf traps in arguments', source: 'return await tools.echo({ a: { [Symbol.toPrimitive]() { return 1; }, valueOf() { return 2; } }, b: 3 });', expect: { value: { a: {}, b: 3 } } },
  { kind: 'values crossing', name: 'a throwing getter in arguments', source: 'return await tools.echo({ get x() { throw new Error("no"); } });', expect: { threw: /Tool arguments must be JSON-serializable/ } },
  { kind: 'values crossing', name: 'a circular return value', source: 'const a = {}; a.a = a; return a;', expect: { threw: /circular/i } },
  { kind: 'values crossing', name: 'a circular text value', source: 'const a = {}; a.a = a; text(a); return 1;', expect: { value: 1 } },
  { kind: 'values crossing', name: 'a BigInt return value', source: 'return { n: 1n };', expect: { threw: /BigInt/ } },
  { kind: 'values crossing', name: 'toJSON returning a huge value', source: `return { toJSON() { return ${longText(2e6)}; } };`, expect: output },
  // Tool errors: only a safe identifier of the class name reaches the program (and the model).
  { kind: 'tool errors', name: 'a driver error name with a password', source: 'try { await tools.leak({}); } catch (e) { return e.message; }', expect: { value: 'Tool failed (Error)' } },
  { kind: 'tool errors', name: 'a 100 KB error name', source: 'try { await tools.huge_name({}); } catch (e) { return e.message; }', expect: { value: 'Tool failed (Error)' } },
  { kind: 'tool errors', name: 'a class name is kept', source: 'try { await tools.pg({}); } catch (e) { return e.message; }', expect: { value: 'Tool failed (PgError)' } },
  // Arguments: an own __proto__ key never reaches execute.
  {
    kind: 'arguments',
    name: 'an own __proto__ key, top level and nested',
    source: 'const a = JSON.parse(\'{"__proto__": {"polluted": "yes"}, "x": 1, "nested": {"__proto__": {"polluted": "yes"}, "y": 2}}\'); return await tools.inspect(a);',
    expect: { value: { keys: ['x', 'nested'], nestedKeys: ['y'], mergedPrototypeIsObject: true, polluted: null } },
  },
  {
    kind: 'arguments',
    name: 'a computed __proto__ key',
    source: 'return await tools.inspect({ ["__proto__"]: { polluted: "yes" }, x: 1 });',
    expect: { value: { keys: ['x'], nestedKeys: [], mergedPrototypeIsObject: true, polluted: null } },
  },
  // Memory the host keeps: call records carry previews, not 1 MiB arguments.
  {
    kind: 'host memory',
    name: '40 calls with 1 MiB arguments',
    source: 'const big = "x".repeat(2 ** 20); for (let i = 0; i < 40; i++) await tools.echo({ big, i }); return 40;',
    limits: { cpuMs: 5_000 },
    waits: true,
    expect: { value: 40 },
    check: (settled) => {
      const calls = settled.ok ? settled.result.toolCalls : [];
      expect(calls).toHaveLength(40);
      for (const call of calls) {
        expect(JSON.stringify(call.input).length).toBeLessThan(10_000);
        expect(JSON.stringify(call.value).length).toBeLessThan(10_000);
        expect(call.content.length).toBeLessThan(50_000);
      }
    },
  },
];

interface Measurement {
  readonly runtime: string;
  readonly name: string;
  readonly kind: string;
  readonly inThread: boolean;
  readonly waits: boolean;
  /** 2 × the program's cpuMs + 50 ms. */
  readonly boundMs: number;
  readonly stoppedMs: number;
  readonly blockedMs: number;
  readonly retainedBytes: number | undefined;
  readonly outcome: string;
}

const measurements: Measurement[] = [];
let frozenEngine: CodeEngine;
let frozenLoads = 0;

describe('the hostile-program corpus', () => {
  const engine = defaultCodeEngine();
  beforeAll(async () => {
    const variant = await testRuntime.quickJsVariant();
    frozenEngine = createQuickJsEngine({
      variant: async () => {
        frozenLoads++;
        return variant;
      },
      clock: () => 0,
    });
    await Promise.all([engine.ready(), frozenEngine.ready()]);
  });

  afterAll(() => {
    if (!report) return;
    for (const measurement of measurements) console.log(`HOSTILE ${JSON.stringify(measurement)}`);
  });

  it('has at least 60 programs', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
  });

  for (const entry of cases) {
    const preemptive = testRuntime.preemptiveCodeEngine && !entry.frozenClock;
    it.skipIf(!preemptive && entry.inThread === 'skip')(`${entry.kind}: ${entry.name}`, async () => {
      const programEngine = entry.frozenClock ? frozenEngine : engine;
      // A worker terminated by the previous program is being replaced; wait for it outside the measurement.
      await programEngine.ready();
      const before = await testRuntime.hostMemoryBytes();
      const controller = new AbortController();
      const probe = gapProbe();
      const started = performance.now();
      let triggered = started;
      const abort =
        entry.abortAfterMs === undefined
          ? undefined
          : setTimeout(() => {
              triggered = performance.now();
              controller.abort();
            }, entry.abortAfterMs);
      const settled: Settled = await runCode(entry.source, { tools, engine: programEngine, limits: { ...limits, cpuMs: cpuOf(entry), ...entry.limits }, signal: controller.signal }).then(
        (result) => ({ ok: true as const, result }),
        (error: unknown) => ({ ok: false as const, error }),
      );
      const ended = performance.now();
      clearTimeout(abort);
      const blockedMs = await probe.stop();
      const after = await testRuntime.hostMemoryBytes();
      const retainedBytes = before === undefined || after === undefined ? undefined : Math.max(0, after - before);
      const due = entry.abortAfterMs !== undefined ? Math.max(started + entry.abortAfterMs, triggered) : started + (entry.dueAfterMs ?? 0);
      const stoppedMs = ended - due;
      measurements.push({ runtime: testRuntime.name, name: entry.name, kind: entry.kind, inThread: !preemptive, waits: entry.waits === true, boundMs: 2 * cpuOf(entry) + 50, stoppedMs, blockedMs, retainedBytes, outcome: describeOutcome(settled) });

      expectOutcome(settled, entry.expect);
      entry.check?.(settled);
      if (preemptive || entry.inThread !== 'unbounded') {
        const bound = 2 * cpuOf(entry) + 50;
        expect(blockedMs, 'longest host event-loop gap').toBeLessThanOrEqual(bound + BLOCKED_NOISE_MS);
        if (!entry.waits) expect(stoppedMs, 'time until stopped').toBeLessThanOrEqual(bound + STOP_NOISE_MS);
      }
      if (retainedBytes !== undefined) expect(retainedBytes, 'host memory retained').toBeLessThanOrEqual(MEMORY_BOUND);
      // The host is untouched and the next program runs normally.
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect((await runCode('return 1 + 1;', { engine: programEngine })).value).toBe(2);
    });
  }

  it('keeps the engine: a thrown promise does not reload the wasm module', async () => {
    const loads = frozenLoads;
    for (const source of ['throw Promise.resolve(42);', 'return await new Promise((_, reject) => reject(Promise.resolve(1)));']) {
      const error = await runCode(source, { engine: frozenEngine, limits }).catch((caught: unknown) => caught);
      expect(CodeProgramError.isInstance(error), String(error)).toBe(true);
    }
    expect((await runCode('return 3;', { engine: frozenEngine })).value).toBe(3);
    expect(frozenLoads).toBe(loads);
  });

  it('keeps bounded previews of code calls in an agent run, and the host memory stays within 2 × memoryBytes', async () => {
    const source = 'const big = "x".repeat(2 ** 20); for (let i = 0; i < 30; i++) await tools.echo({ big, i }); return 30;';
    const model = scriptedModel([{ toolCalls: [{ id: 'x1', name: 'exec', input: { source } }] }, { text: 'Done.' }]);
    const agent = defineAgent({ name: 'hostile', model, tools: [echo], capabilities: [codeMode({ engine, limits: { ...limits, cpuMs: 5_000 } })] });
    const before = await testRuntime.hostMemoryBytes();
    const run = await agent.ask('go');
    const after = await testRuntime.hostMemoryBytes();
    expect(run.outcome).toBe('completed');
    const calls = run.events.filter((event): event is Extract<GhostlightEvent, { type: 'tool-start' | 'tool-stop' }> => event.type === 'tool-start' || event.type === 'tool-stop');
    expect(calls).toHaveLength(60);
    for (const event of calls) {
      const kept = event.type === 'tool-start' ? event.input : event.value;
      expect(kept).toMatchObject({ truncated: true });
      expect(JSON.stringify(kept).length).toBeLessThan(10_000);
    }
    if (before !== undefined && after !== undefined) expect(after - before).toBeLessThanOrEqual(MEMORY_BOUND);
  });
});

/**
 * The program's CPU budget: 100 ms for the programs that attack it (a CPU limit is among their outcomes), 1 s
 * for the rest, whose point is another limit or a value and which must not run out of CPU on a loaded machine.
 */
function cpuOf(entry: HostileCase): number {
  if (entry.limits?.cpuMs !== undefined) return entry.limits.cpuMs;
  const outcomes = Array.isArray(entry.expect) ? entry.expect : [entry.expect as Outcome];
  return outcomes.some((outcome) => 'limit' in outcome && outcome.limit === 'cpu') ? CPU_MS : 1_000;
}

/** The longest gap between timer callbacks while a program runs: how long the host's event loop was blocked. */
function gapProbe(): { stop(): Promise<number> } {
  let longest = 0;
  let last = performance.now();
  let running = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  return {
    async stop() {
      // One more tick measures the gap up to now (a program that blocked the thread until the end).
      await new Promise((resolve) => setTimeout(resolve, 0));
      running = false;
      clearTimeout(timer);
      return Math.max(longest, performance.now() - last);
    },
  };
}

function expectOutcome(settled: Settled, expected: Outcome | readonly Outcome[]): void {
  const options = Array.isArray(expected) ? expected : [expected as Outcome];
  const matches = options.some((option) => matchesOutcome(settled, option));
  expect(matches, `${describeOutcome(settled)} is not ${JSON.stringify(options, (_, value: unknown) => (value instanceof RegExp ? String(value) : value))}`).toBe(true);
}

function matchesOutcome(settled: Settled, option: Outcome): boolean {
  if ('value' in option) return settled.ok && JSON.stringify(settled.result.value) === JSON.stringify(option.value);
  if (settled.ok) return false;
  const error = settled.error;
  if ('limit' in option) return CodeLimitError.isInstance(error) && error.limit === option.limit;
  if ('cancelled' in option) return CancelledError.isInstance(error);
  return CodeProgramError.isInstance(error) && option.threw.test(error.message);
}

function describeOutcome(settled: Settled): string {
  if (settled.ok) return `value ${JSON.stringify(settled.result.value)?.slice(0, 80)}`;
  const error = settled.error as Error;
  if (CodeLimitError.isInstance(error)) return `limit ${error.limit}`;
  return `${error?.name}: ${String(error?.message).slice(0, 80)}`;
}

function errorBytes(settled: Settled): number {
  return settled.ok ? 0 : new TextEncoder().encode((settled.error as Error).message).length;
}
