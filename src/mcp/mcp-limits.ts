import { ConfigurationError } from '../error/configuration-error.ts';

/**
 * Bounds on what an MCP server may send: catalog size, schema complexity and
 * returned media. The defaults are LittleGhost's; a toolset may lower or raise
 * them through `limits`.
 */
export interface McpLimits {
  /** Tools across all `tools/list` pages (1,000). */
  readonly maxTools: number;
  /** `tools/list` pages (100). */
  readonly maxPages: number;
  /** Approximate bytes of all tool definitions (10 MiB). */
  readonly maxDiscoveryBytes: number;
  /** JSON nodes of all tool definitions (100,000). */
  readonly maxDiscoveryNodes: number;
  /** Bytes of one pagination cursor (16 KiB). */
  readonly maxCursorBytes: number;
  /** Nesting depth of one definition (64). */
  readonly maxDefinitionDepth: number;
  /** JSON nodes of one definition (10,000). */
  readonly maxDefinitionNodes: number;
  /** Regular expressions in one schema (1,000). */
  readonly maxSchemaPatterns: number;
  /** Total pattern bytes in one schema (1 MiB). */
  readonly maxSchemaPatternBytes: number;
  /** Bytes of one pattern (64 KiB). */
  readonly maxSchemaPatternSourceBytes: number;
  /** Images in one result (20). */
  readonly maxImages: number;
  /** Decoded bytes of one image (16 MiB). */
  readonly maxImageBytes: number;
  /** Decoded bytes of all images in one result (64 MiB). */
  readonly maxTotalImageBytes: number;
}

/** LittleGhost's MCP limits. */
export const DEFAULT_MCP_LIMITS: Readonly<McpLimits> = Object.freeze({
  maxTools: 1_000,
  maxPages: 100,
  maxDiscoveryBytes: 10 * 1024 * 1024,
  maxDiscoveryNodes: 100_000,
  maxCursorBytes: 16 * 1024,
  maxDefinitionDepth: 64,
  maxDefinitionNodes: 10_000,
  maxSchemaPatterns: 1_000,
  maxSchemaPatternBytes: 1024 * 1024,
  maxSchemaPatternSourceBytes: 64 * 1024,
  maxImages: 20,
  maxImageBytes: 16 * 1024 * 1024,
  maxTotalImageBytes: 64 * 1024 * 1024,
});

/** The defaults with `overrides` applied; each must be a positive integer. */
export function resolveMcpLimits(overrides: Partial<McpLimits> = {}): McpLimits {
  const limits = { ...DEFAULT_MCP_LIMITS, ...overrides };
  for (const [key, value] of Object.entries(limits)) {
    if (!(key in DEFAULT_MCP_LIMITS)) throw new ConfigurationError(`Unknown MCP limit ${key}`);
    if (!Number.isSafeInteger(value) || value < 1) throw new ConfigurationError(`MCP limit ${key} must be a positive integer`);
  }
  return Object.freeze(limits);
}
