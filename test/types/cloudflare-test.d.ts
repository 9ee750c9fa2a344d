/** The part of the vitest plugin's `cloudflare:test` module the tests use (provided at run time in workerd). */
declare module 'cloudflare:test' {
  export function runInDurableObject<R>(stub: unknown, callback: (instance: unknown, state: { storage: never }) => R | Promise<R>): Promise<R>;
}
