/** Globals programs must not see (the seeds' list; QuickJS lacks most of them anyway). */
const HIDDEN_GLOBALS = [
  'console', 'process', 'require', 'fetch', 'WebAssembly', 'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Atomics',
  'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
  'BigInt64Array', 'BigUint64Array', 'Float32Array', 'Float64Array',
];

/** The global name the host functions sit under until the bootstrap captures and deletes them. */
export const HOST_GLOBAL = '__ghostlight_host';

/**
 * The guest-side prelude, evaluated before the program in every fresh
 * context. It captures the host functions and the intrinsics it relies on
 * before any program code runs (so a program that tampers with `Promise`,
 * `JSON` or `Map` only breaks itself), defines `tools`, `ALL_TOOLS`, `text`,
 * `exit` and `input` as locked globals, hides the host globals the seeds
 * forbid, and returns the control object the host drives.
 */
export function bootstrapSource(tools: ReadonlyArray<{ name: string; description: string }>, input: string | undefined): string {
  const definitions = JSON.stringify(tools.map(({ name, description }) => ({ name, description })));
  const inputLiteral = input === undefined ? 'undefined' : JSON.stringify(input);
  const hidden = HIDDEN_GLOBALS.map((name) => `${name}: locked(undefined)`).join(', ');
  return `(() => {
  "use strict";
  const g = globalThis;
  const host = g.${HOST_GLOBAL};
  delete g.${HOST_GLOBAL};
  const hostCall = host.call, hostText = host.text, hostExit = host.exit;
  const definitions = ${definitions};
  const inputJson = ${inputLiteral};
  const apply = Reflect.apply;
  const stringify = JSON.stringify, parse = JSON.parse;
  const freeze = Object.freeze, create = Object.create, defineProperty = Object.defineProperty, defineProperties = Object.defineProperties;
  const PromiseCtor = Promise, ErrorCtor = Error, StringCtor = String;
  const promiseResolve = Promise.resolve, promiseThen = Promise.prototype.then;
  const mapGet = Map.prototype.get, mapSet = Map.prototype.set, mapDelete = Map.prototype.delete;
  const pending = new Map();
  const exitSignal = freeze(create(null));
  let nextId = 0;

  const encode = (value) => value === undefined ? undefined : apply(stringify, undefined, [value]);
  const show = (value) => {
    if (typeof value === "string") return value;
    if (value === undefined) return "undefined";
    if (typeof value === "bigint") return StringCtor(value);
    let encoded;
    try { encoded = encode(value); } catch (error) { encoded = undefined; }
    return encoded === undefined ? StringCtor(value) : encoded;
  };
  const invoke = (name, args) => new PromiseCtor((resolve, reject) => {
    let encoded;
    try { encoded = encode(args); } catch (error) {
      reject(new ErrorCtor("Tool arguments must be JSON-serializable"));
      return;
    }
    const id = ++nextId;
    apply(mapSet, pending, [id, { resolve, reject }]);
    const refusal = hostCall(id, StringCtor(name), encoded);
    if (refusal !== undefined) {
      apply(mapDelete, pending, [id]);
      reject(new ErrorCtor(refusal));
    }
  });

  const tools = create(null);
  for (let index = 0; index < definitions.length; index++) {
    const name = definitions[index].name;
    defineProperty(tools, name, { value: (args) => invoke(name, args), enumerable: true });
  }
  defineProperty(tools, "call", { value: (name, args) => invoke(name, args) });
  freeze(tools);
  const catalog = [];
  for (let index = 0; index < definitions.length; index++) {
    catalog[index] = freeze({ name: definitions[index].name, description: definitions[index].description });
  }
  freeze(catalog);
  const text = (value) => { hostText(show(value)); };
  const exit = (value) => {
    let encoded;
    try { encoded = encode(value); } catch (error) { encoded = undefined; }
    hostExit(encoded);
    throw exitSignal;
  };
  const input = inputJson === undefined ? undefined : parse(inputJson);
  const locked = (value) => ({ value, writable: false, enumerable: false, configurable: false });
  defineProperties(g, {
    tools: locked(tools), ALL_TOOLS: locked(catalog), text: locked(text), exit: locked(exit), input: locked(input),
    ${hidden}
  });

  return freeze({
    deliver: (id, ok, payload) => {
      const entry = apply(mapGet, pending, [id]);
      if (entry === undefined) return;
      apply(mapDelete, pending, [id]);
      if (!ok) { entry.reject(new ErrorCtor(payload)); return; }
      let value;
      try { value = payload === undefined ? undefined : parse(payload); } catch (error) { entry.reject(error); return; }
      entry.resolve(value);
    },
    encode,
    runModule: (namespace) => apply(promiseThen, apply(promiseResolve, PromiseCtor, [namespace]), [(exports) => {
      const entry = typeof exports.run === "function" ? exports.run : typeof exports.default === "function" ? exports.default : undefined;
      return entry === undefined ? undefined : entry({ input, tools });
    }]),
  });
})()`;
}
