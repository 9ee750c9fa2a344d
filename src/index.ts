/**
 * Ghostlight: one agent runtime for the browser, Cloudflare Workers and Node.
 *
 * This entry is the core: agents, runs and their events, tools and the tool
 * registry, structured results, sessions, errors. Each optional capability
 * has its own entry and is bundled only when imported: `ghostlight/workspace`,
 * `ghostlight/sandbox`, `ghostlight/filesystem-tools`, `ghostlight/shell`,
 * `ghostlight/code-mode`, `ghostlight/skills`, `ghostlight/artifacts`,
 * `ghostlight/mcp`, `ghostlight/context`, `ghostlight/prompts`,
 * `ghostlight/todos`; the surfaces `ghostlight/http`, `ghostlight/ag-ui`,
 * `ghostlight/ui-stream`; `ghostlight/demo-model`; `ghostlight/opentelemetry`; and the runtime adapters
 * `ghostlight/cloudflare`, `ghostlight/browser`, `ghostlight/node`.
 *
 * @module ghostlight
 */
export * from './agent/index.ts';
export * from './content/index.ts';
export * from './error/index.ts';
export * from './instrumentation/index.ts';
export * from './events/index.ts';
export * from './lifetime/index.ts';
export * from './model/index.ts';
export * from './registry/index.ts';
export * from './schema/index.ts';
export * from './session/index.ts';
export * from './structured/index.ts';
export * from './tool/index.ts';
