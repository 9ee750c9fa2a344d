export { createToolRegistry, ToolRegistry } from './tool-registry.ts';
export type { AttachMcpToolsOptions, RegistryTool } from './tool-registry.ts';
export { createCapabilitySnapshot } from './capability-snapshot.ts';
export type { CapabilitySnapshot } from './capability-snapshot.ts';
export { descriptorHash, toolDescriptor } from './tool-descriptor.ts';
export type { ToolDescriptor } from './tool-descriptor.ts';
export { TOOL_ID_PATTERN, toolAlias } from './tool-id.ts';
