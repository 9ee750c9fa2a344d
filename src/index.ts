/**
 * Ghostlight: one agent runtime for the browser, Cloudflare Workers and Node.
 *
 * @module
 */
export * from './agent/index';
export * from './agui/index';
export * from './artifacts/index';
export * from './codemode/index';
export * from './content/index';
export * from './error/index';
export * from './events/index';
export * from './http/index';
export * from './lifetime/index';
export * from './mcp/index';
export * from './model/index';
export * from './registry/index';
export * from './schema/index';
export * from './session/index';
export * from './skills/index';
export * from './structured/index';
export * from './tool/index';
export * from './ui-stream/index';
export * from './workspace/index';
