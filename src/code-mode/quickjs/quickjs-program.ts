import { DefaultIntrinsics } from 'quickjs-emscripten-core';
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import type { CodeEngineProgram, CodeEngineRequest, CodeEngineStep, CodeEngineStopReason } from '../code-engine.ts';
import { CodeLimitError } from '../code-limit-error.ts';
import { bootstrapSource, HOST_GLOBAL } from './bootstrap.ts';

/**
 * Interrupt checks per millisecond of busy guest code, an upper estimate:
 * QuickJS asks about 14 times per ms in a tight loop on this machine and far
 * less often in allocating code (STACK.md item 3). Multiplied by `cpuMs` it
 * caps CPU where the clock does not advance during CPU work (deployed Workers).
 */
export const INTERRUPTS_PER_MS = 20;

/**
 * One program in its own QuickJS runtime and context: memory, stack and the
 * interrupt handler are per program, so nothing leaks between programs and a
 * limit hit by one cannot affect another.
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
  readonly #control: { deliver: QuickJSHandle; encode: QuickJSHandle; runModule: QuickJSHandle };
  readonly #deliveries: Array<{ id: number; ok: boolean; payload: string | undefined }> = [];
  readonly #interruptBudget: number;
  #main: QuickJSHandle | undefined;
  #settled: CodeEngineStep | undefined;
  #interrupts = 0;
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
    this.#interruptBudget = request.limits.cpuMs * INTERRUPTS_PER_MS;
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
    if (this.#disposed || this.#broken) return { state: 'stopped', reason: this.#stopReason ?? 'host' };
    this.#sliceStart = this.#clock();
    this.#inSlice = true;
    try {
      if (this.#main === undefined) {
        const started = this.#evaluate();
        if (started) return started;
      }
      for (const delivery of this.#deliveries.splice(0)) {
        this.#call(this.#control.deliver, this.#context.newNumber(delivery.id), delivery.ok ? this.#context.true : this.#context.false,
          delivery.payload === undefined ? this.#context.undefined : this.#context.newString(delivery.payload));
        if (this.#stopReason) return { state: 'stopped', reason: this.#stopReason };
      }
      for (;;) {
        // Jobs run until the queue is empty; an error stops the queue, so run the rest after one that is no limit.
        const jobs = this.#runtime.executePendingJobs();
        const jobError = jobs.error ? this.#describe(jobs.error) : undefined;
        jobs.dispose();
        if (this.#stopReason) return { state: 'stopped', reason: this.#stopReason };
        if (jobError === undefined) break;
        const limit = limitOf(jobError);
        if (limit) return { state: 'stopped', reason: limit };
      }
      return this.#settle();
    } catch (error) {
      // The host itself failed inside the engine (a V8 stack overflow in wasm, an emscripten abort).
      this.#broken = true;
      this.#stopReason ??= isRangeError(error) ? 'stack' : 'memory';
      return { state: 'stopped', reason: this.#stopReason };
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
    const text = this.#describe(error);
    error.dispose();
    if (this.#stopReason) return { state: 'stopped', reason: this.#stopReason };
    const limit = limitOf(text);
    if (limit) return { state: 'stopped', reason: limit };
    // An interrupt is never the program's own error: if its reason went unrecorded, the program was stopped.
    if (/^InternalError: interrupted/.test(text)) return { state: 'stopped', reason: (this.#stopReason = 'host') };
    return { state: 'threw', error: text };
  }

  /** `Name: message` and the QuickJS stack of a thrown value, read without running program code where possible. */
  #describe(error: QuickJSHandle): string {
    const context = this.#context;
    try {
      if (context.typeof(error) !== 'object') return String(context.dump(error));
      const read = (key: string) => {
        const handle = context.getProp(error, key);
        const value = context.typeof(handle) === 'string' ? context.getString(handle) : undefined;
        handle.dispose();
        return value;
      };
      const message = read('message');
      if (message === undefined) return String(JSON.stringify(context.dump(error)) ?? 'Error');
      const stack = read('stack')?.trimEnd();
      const head = `${read('name') ?? 'Error'}: ${message}`;
      return stack ? `${head}\n${stack}` : head;
    } catch {
      return 'Error: the program threw a value that cannot be described';
    }
  }

  #call(fn: QuickJSHandle, ...args: QuickJSHandle[]): void {
    const result = this.#context.callFunction(fn, this.#context.undefined, ...args);
    for (const arg of args) if (arg.alive && arg !== this.#context.true && arg !== this.#context.false && arg !== this.#context.undefined) arg.dispose();
    if (result.error) {
      const text = this.#describe(result.error);
      result.error.dispose();
      const limit = limitOf(text);
      if (limit) this.#stopReason ??= limit;
    } else result.value.dispose();
  }

  #shouldInterrupt(): boolean {
    if (this.#stopReason) return true;
    if (!this.#inSlice) return false;
    this.#interrupts++;
    try {
      if (this.#request.host.shouldStop()) this.#stopReason = 'host';
      else if (this.#interrupts > this.#interruptBudget) this.#stopReason = 'cpu';
      else if (this.#cpuUsed + (this.#clock() - this.#sliceStart) > this.#request.limits.cpuMs) this.#stopReason = 'cpu';
      else if (Date.now() > this.#request.wallDeadline) this.#stopReason = 'wall';
    } catch {
      // quickjs-emscripten turns a throwing handler into an interrupt it cannot explain; stop with a reason instead.
      this.#stopReason = 'host';
    }
    return this.#stopReason !== undefined;
  }

  #bootstrap(): { deliver: QuickJSHandle; encode: QuickJSHandle; runModule: QuickJSHandle } {
    const context = this.#context;
    const host = this.#request.host;
    const hostObject = context.newObject();
    const functions = {
      call: context.newFunction('call', (id, name, args) => {
        if (context.typeof(id) !== 'number' || context.typeof(name) !== 'string') return context.newString('Invalid tool call');
        const refusal = host.call(context.getNumber(id), context.getString(name), context.typeof(args) === 'string' ? context.getString(args) : undefined);
        return refusal === undefined ? undefined : context.newString(refusal);
      }),
      text: context.newFunction('text', (value) => {
        if (context.typeof(value) === 'string') host.text(context.getString(value));
      }),
      exit: context.newFunction('exit', (value) => {
        host.exit(context.typeof(value) === 'string' ? context.getString(value) : undefined);
      }),
    };
    for (const [name, handle] of Object.entries(functions)) {
      context.setProp(hostObject, name, handle);
      handle.dispose();
    }
    context.setProp(context.global, HOST_GLOBAL, hostObject);
    hostObject.dispose();
    const control = context.unwrapResult(context.evalCode(bootstrapSource(this.#request.tools, this.#request.input), 'bootstrap.js'));
    const take = (key: string) => {
      const handle = context.getProp(control, key);
      this.#handles.push(handle);
      return handle;
    };
    const handles = { deliver: take('deliver'), encode: take('encode'), runModule: take('runModule') };
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
