import type { Tool } from './tool.ts';
import type { ToolBinding } from './tool-binding.ts';
import type { AiSdkToolSet } from './ai-sdk-tool.ts';

/**
 * A function of the run binding that returns tools: for collections that own
 * discovery or shared setup (an MCP server, an account's tools). It may return
 * tools, nested arrays, AI SDK tool records, other providers or nothing.
 *
 * @example
 * const accountTools: ToolProvider = (binding) => [
 *   accountStatus,
 *   binding.run.invocation.context.mayClose ? closeAccount : null,
 * ];
 */
export type ToolProvider = (binding: ToolBinding) => ToolDeclaration | Promise<ToolDeclaration>;

/**
 * Anything an agent's `tools` list accepts. Arrays are flattened; `null`,
 * `undefined` and `false` are skipped; a string is a tool id resolved from the
 * run's tool registry (`toolRegistry` in the ask options).
 */
export type ToolDeclaration =
  | Tool<any, any>
  | string
  | ToolProvider
  | AiSdkToolSet
  | null
  | undefined
  | false
  | readonly ToolDeclaration[];
