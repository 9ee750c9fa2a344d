/**
 * Ghostlight's code mode on Cloudflare Workers: the QuickJS engine with its
 * WebAssembly imported as a compiled module. A separate entry so that a Worker
 * importing `ghostlight/cloudflare` for its Durable Object stores does not
 * carry the 0.5 MB wasm unless it uses code mode.
 *
 * @module ghostlight/cloudflare/code-mode
 */
export { cloudflareCodeEngine } from './cloudflare-code-engine';
