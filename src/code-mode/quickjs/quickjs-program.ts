import { DefaultIntrinsics } from 'quickjs-emscripten-core';
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import type { CodeEngineProgram, CodeEngineRequest, CodeEngineStep, CodeEngineStopReason } from '../code-engine.ts';
import { CodeLimitError } from '../code-limit-error.ts';
import { bootstrapSource, HOST_GLOBAL } from './bootstrap.ts';
import { WORK_UNITS_PER_MS } from './builtin-bounds.ts';

/** Jobs run per `executePendingJobs` call; the host checks the budget between batches (STACK.md, "Long builtins"). */
export const JOB_BATCH = 64;

/**
 * Interrupt checks per millisecond of guest work assumed where the clock does
 * not advance during CPU work (deployed Workers, STACK.md G4): a conservative
 * rate (QuickJS checks ~14 times per ms in a tight loop and under 1 per ms in
 * allocation-heavy code on the reference machine, down to ~0.2), so a frozen clock stops
 * programs early rather than late. With an advancing clock the clock decides.
 */
export const FROZEN_INTERRUPTS_PER_MS = 0.25;

/**
 * A clock that has not moved within one slice after this many interrupt checks, or after this much charged
 * builtin work, counts as frozen. Both take well over a millisecond of real work, more than the coarsest
 * browser timer resolution, so an advancing clock is never mistaken for a frozen one.
 */
const FROZEN_AFTER_INTERRUPTS = 32;
const FROZEN_AFTER_WORK = 50 * WORK_UNITS_PER_MS;

/** The handles of the bootstrap's control object. */
interface Control {
  readonly deliver: QuickJSHandle;
  readonly encode: QuickJSHandle;
  readonly runModule: QuickJSHandle;
  readonly describe: QuickJSHandle;
}

/** Extra heap a program's error may use while it is described (its limit may be what it just ran into). */
const DESCRIBE_HEADROOM = 1024 * 1024;

const UNDESCRIBABLE = 'Error: the program threw a value that cannot be described';

/**
 * One program in its own QuickJS runtime and context: memory, stack and the
 * interrupt handler are per program, so nothing leaks between programs and a
 * limit hit by one cannot affect another.
 *
 * CPU is the time spent in the program's slices, checked by QuickJS's
 * interrupt handler, between job batches, and whenever a bounded builtin
 * charges its work (`builtin-bounds.ts`); where the clock is frozen the
 * estimate is the interrupt count plus the charged work.
 *
 * Disposal follows STACK.md G10–G12: results are read before anything is
 * disposed, every handle is released before the context, failures while
 * disposing are caught, and a program that saw the engine fail reports it
 * through `onBroken` so the engine loads a fresh module.
 */
export class QuickJsProgram implements CodeEngineProgram {
  readonly #request: CodeEngineRequest;
  readonly #clock: () => number;
  readonly #onBroken: () => void;
  readonly #runtime: QuickJSRuntime;
  readonly #context: QuickJSContext;
  readonly #handles: QuickJSHandle[] = [];
  readonly #control: Control;
  readonly #deliveries: Array<{ id: number; ok: boolean; payload: string | undefined }> = [];
  readonly #clipChars: number;
  #main: QuickJSHandle | undefined;
  #settled: CodeEngineStep | undefined;
  #interrupts = 0;
  #sliceInterrupts = 0;
  #sliceWork = 0;
  #clockFrozen = false;
  /** Work charged by the builtin bounds, in WORK_UNITS_PER_MS units. */
  #work = 0;
  #cpuUsed = 0;
  #sliceStart = 0;
  /** Limits apply to the program's own slices, not to the bootstrap (our code, however slow the host is). */
  #inSlice = false;
  #stopReason: CodeEngineStopReason | undefined;
  #broken = false;
  #disposed = false;

  constructor(module: QuickJSWASMModule, request: CodeEngineRequest, clock: () => number, onBroken: () => void) {
    this.#request = request;
    this.#clock = clock;
    this.#onBroken = onBroken;
    this.#clipChars = request.limits.outputBytes + 1;
    this.#runtime = module.newRuntime();
    try {
      this.#runtime.setMemoryLimit(request.limits.memoryBytes);
      this.#runtime.setMaxStackSize(request.limits.stackBytes);
      this.#runtime.setInterruptHandler(() => this.#shouldInterrupt());
      this.#context = this.#runtime.newContext({ intrinsics: { ...DefaultIntrinsics, TypedArrays: false } });
      this.#control = this.#bootstrap();
    } catch (error) {
      this.dispose();
      // Too little memory for even the bootstrap is the memory limit, not an engine failure.
      if (/out of memory/i.test(String((error as Error)?.message ?? error))) {
        throw new CodeLimitError('memory', 'code-mode program exceeded its memory limit');
      }
      throw error;
    }
  }

  deliver(id: number, ok: boolean, payload: string | undefined): void {
    this.#deliveries.push({ id, ok, payload });
  }

  step(): CodeEngineStep {
    if (this.#disposed || this.#broken) return this.#stopped();
    this.#sliceStart = this.#clock();
    this.#sliceInterrupts = 0;
    this.#sliceWork = 0;
    this.#inSlice = true;
    try {
      if (this.#main === undefined) {
        const started = this.#evaluate();
        if (started) return started;
      }
      for (const delivery of this.#deliveries.splice(0)) {
        if (delivery.payload !== undefined) this.#work += delivery.payload.length >> 2;
        this.#call(this.#control.deliver, this.#context.newNumber(delivery.id), delivery.ok ? this.#context.true : this.#context.false,
          delivery.payload === undefined ? this.#context.undefined : this.#context.newString(delivery.payload));
        if (this.#stopReason) return this.#stopped();
      }
      // Jobs run in bounded batches with a budget check between them, so neither a job queue that never
      // drains (a fan-out, thousands of `for (;;) await 0` loops) nor the jobs queued behind a stop can hold
      // the host: stopping never waits for the queue.
      for (;;) {
        const jobs = this.#runtime.executePendingJobs(JOB_BATCH);
        if (this.#stopReason) {
          jobs.dispose();
          return this.#stopped();
        }
        if (jobs.error) {
          const text = this.#describe(jobs.error);
          jobs.dispose();
          if (this.#stopReason) return this.#stopped();
          const limit = limitOf(text);
          if (limit) return { state: 'stopped', reason: (this.#stopReason = limit) };
          continue;
        }
        const executed = jobs.value;
        jobs.dispose();
        if (executed < JOB_BATCH) break;
        if (this.#checkLimits()) return this.#stopped();
      }
      return this.#settle();
    } catch (error) {
      // The host itself failed inside the engine (a V8 stack overflow in wasm, an emscripten abort).
      this.#broken = true;
      this.#stopReason ??= isRangeError(error) ? 'stack' : 'memory';
      return this.#stopped();
    } finally {
      this.#inSlice = false;
      this.#cpuUsed += this.#clock() - this.#sliceStart;
    }
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    let failed = this.#broken;
    if (!this.#broken) {
      try {
        for (const handle of [...this.#handles, this.#main]) if (handle?.alive) handle.dispose();
        this.#context?.dispose();
      } catch {
        failed = true;
      }
      try {
        this.#runtime.dispose();
      } catch {
        failed = true;
      }
    }
    if (failed) this.#onBroken();
  }

  #stopped(): CodeEngineStep {
    return { state: 'stopped', reason: this.#stopReason ?? 'host' };
  }

  /** Evaluates the program; returns a final step when it cannot even start (a syntax error). */
  #evaluate(): CodeEngineStep | undefined {
    const context = this.#context;
    const request = this.#request;
    if (request.kind === 'script') {
      const result = context.evalCode(`(async () => { ${request.source}\n})()`, 'program.js');
      if (result.error) return this.#threw(result.error);
      this.#main = result.value;
      return undefined;
    }
    const result = context.evalCode(request.source, 'program.js', { type: 'module' });
    if (result.error) return this.#threw(result.error);
    const started = context.callFunction(this.#control.runModule, context.undefined, result.value);
    result.value.dispose();
    if (started.error) return this.#threw(started.error);
    this.#main = started.value;
    return undefined;
  }

  /** Reads where the main promise stands; the value is encoded to JSON inside the guest. */
  #settle(): CodeEngineStep {
    if (this.#settled) return this.#settled;
    const context = this.#context;
    const state = context.getPromiseState(this.#main!);
    if (state.type === 'pending') return { state: 'waiting' };
    if (state.type === 'rejected') {
      this.#settled = this.#threw(state.error);
      return this.#settled;
    }
    const encoded = context.callFunction(this.#control.encode, context.undefined, state.value);
    state.value.dispose();
    if (encoded.error) {
      this.#settled = this.#threw(encoded.error);
      return this.#settled;
    }
    const value = context.typeof(encoded.value) === 'string' ? context.getString(encoded.value) : undefined;
    encoded.value.dispose();
    this.#settled = { state: 'returned', value };
    return this.#settled;
  }

  #threw(error: QuickJSHandle): CodeEngineStep {
    if (this.#stopReason) {
      error.dispose();
      return this.#stopped();
    }
    const text = this.#describe(error);
    error.dispose();
    if (this.#stopReason) return this.#stopped();
    const limit = limitOf(text);
    if (limit) return { state: 'stopped', reason: limit };
    // An interrupt is never the program's own error: if its reason went unrecorded, the program was stopped.
    if (/^InternalError: interrupted/.test(text)) return { state: 'stopped', reason: (this.#stopReason = 'host') };
    return { state: 'threw', error: text };
  }

  /**
   * `Name: message` and the QuickJS stack of a thrown value (other values as JSON, or their
   * `Object.prototype.toString` tag: a thrown promise is `[object Promise]`), at most `outputBytes + 1`
   * characters, read inside the guest. The heap limit is raised by {@link DESCRIBE_HEADROOM} meanwhile, so
   * an out-of-memory error can still be described (and recognised). The handle stays the caller's.
   */
  #describe(error: QuickJSHandle): string {
    const context = this.#context;
    const memory = this.#request.limits.memoryBytes;
    try {
      this.#runtime.setMemoryLimit(memory + DESCRIBE_HEADROOM);
      const described = context.callFunction(this.#control.describe, context.undefined, error);
      if (described.error) {
        described.error.dispose();
        return UNDESCRIBABLE;
      }
      const text = context.typeof(described.value) === 'string' ? context.getString(described.value) : UNDESCRIBABLE;
      described.value.dispose();
      return text;
    } catch {
      return UNDESCRIBABLE;
    } finally {
      this.#runtime.setMemoryLimit(memory);
    }
  }

  #call(fn: QuickJSHandle, ...args: QuickJSHandle[]): void {
    const result = this.#context.callFunction(fn, this.#context.undefined, ...args);
    for (const arg of args) if (arg.alive && arg !== this.#context.true && arg !== this.#context.false && arg !== this.#context.undefined) arg.dispose();
    if (result.error) {
      const text = this.#stopReason ? '' : this.#describe(result.error);
      result.error.dispose();
      const limit = limitOf(text);
      if (limit) this.#stopReason ??= limit;
    } else result.value.dispose();
  }

  /** CPU used by the program so far, in ms: the clock, or where it is frozen an estimate from the work done. */
  #usedMs(): number {
    const measured = this.#cpuUsed + (this.#inSlice ? this.#clock() - this.#sliceStart : 0);
    if (!this.#clockFrozen) return measured;
    return Math.max(measured, this.#interrupts / FROZEN_INTERRUPTS_PER_MS + this.#work / WORK_UNITS_PER_MS);
  }

  /** Records why the program must stop, if it must; true when it must. */
  #checkLimits(): boolean {
    if (this.#stopReason) return true;
    if (this.#request.host.shouldStop()) this.#stopReason = 'host';
    else if (this.#usedMs() > this.#request.limits.cpuMs) this.#stopReason = 'cpu';
    else if (Date.now() > this.#request.wallDeadline) this.#stopReason = 'wall';
    return this.#stopReason !== undefined;
  }

  #shouldInterrupt(): boolean {
    if (this.#stopReason) return true;
    if (!this.#inSlice) return false;
    this.#interrupts++;
    try {
      this.#sliceInterrupts++;
      this.#detectFrozenClock();
      this.#checkLimits();
    } catch {
      // quickjs-emscripten turns a throwing handler into an interrupt it cannot explain; stop with a reason instead.
      this.#stopReason = 'host';
    }
    return this.#stopReason !== undefined;
  }

  #detectFrozenClock(): void {
    if (this.#clockFrozen || (this.#sliceInterrupts < FROZEN_AFTER_INTERRUPTS && this.#sliceWork < FROZEN_AFTER_WORK)) return;
    if (this.#clock() === this.#sliceStart) this.#clockFrozen = true;
  }

  /**
   * A builtin's charge (`units` of estimated work). `pre`: the estimate of one call about to run, refused
   * when it is more than twice what is left of the budget; otherwise the work is added and the budget
   * checked. Returns what is left (units), or -1 when the program must stop.
   */
  #charge(units: number, pre: boolean): number {
    if (!this.#inSlice) return this.#stopReason ? -1 : Number.MAX_SAFE_INTEGER;
    try {
      if (pre) {
        const left = (this.#request.limits.cpuMs - this.#usedMs()) * WORK_UNITS_PER_MS;
        if (units > 2 * left) this.#stopReason ??= 'cpu';
      } else {
        this.#work += units;
        this.#sliceWork += units;
        this.#detectFrozenClock();
        this.#checkLimits();
      }
    } catch {
      this.#stopReason = 'host';
    }
    if (this.#stopReason) return -1;
    return Math.max(0, (this.#request.limits.cpuMs - this.#usedMs()) * WORK_UNITS_PER_MS);
  }

  #bootstrap(): Control {
    const context = this.#context;
    const host = this.#request.host;
    const hostObject = context.newObject();
    const functions = {
      call: context.newFunction('call', (id, name, args) => {
        if (context.typeof(id) !== 'number' || context.typeof(name) !== 'string') return context.newString('Invalid tool call');
        const text = context.typeof(args) === 'string' ? context.getString(args) : undefined;
        if (text !== undefined) this.#work += text.length >> 3;
        const refusal = host.call(context.getNumber(id), context.getString(name), text);
        return refusal === undefined ? undefined : context.newString(refusal);
      }),
      text: context.newFunction('text', (value) => {
        if (context.typeof(value) === 'string') host.text(context.getString(value));
      }),
      exit: context.newFunction('exit', (value) => {
        host.exit(context.typeof(value) === 'string' ? context.getString(value) : undefined);
      }),
      work: context.newFunction('work', (units, pre) => {
        const charged = context.typeof(units) === 'number' ? context.getNumber(units) : 0;
        return context.newNumber(this.#charge(charged, context.typeof(pre) === 'number' && context.getNumber(pre) !== 0));
      }),
    };
    for (const [name, handle] of Object.entries(functions)) {
      context.setProp(hostObject, name, handle);
      handle.dispose();
    }
    context.setProp(context.global, HOST_GLOBAL, hostObject);
    hostObject.dispose();
    const source = bootstrapSource({ tools: this.#request.tools, input: this.#request.input, clipChars: this.#clipChars, determinism: this.#request.determinism });
    const control = context.unwrapResult(context.evalCode(source, 'bootstrap.js'));
    const take = (key: keyof Control) => {
      const handle = context.getProp(control, key);
      this.#handles.push(handle);
      return handle;
    };
    const handles = { deliver: take('deliver'), encode: take('encode'), runModule: take('runModule'), describe: take('describe') };
    control.dispose();
    return handles;
  }
}

function limitOf(text: string): CodeEngineStopReason | undefined {
  if (/^InternalError: (out of memory|string too long)/.test(text)) return 'memory';
  if (/^InternalError: stack overflow/.test(text) || /^RangeError: Maximum call stack size exceeded/.test(text)) return 'stack';
  return undefined;
}

function isRangeError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'RangeError';
}
