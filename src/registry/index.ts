export { createToolRegistry, ToolRegistry } from './tool-registry';
export type { AttachMcpToolsOptions, RegistryTool } from './tool-registry';
export { createCapabilitySnapshot } from './capability-snapshot';
export type { CapabilitySnapshot } from './capability-snapshot';
export { descriptorHash, toolDescriptor } from './tool-descriptor';
export type { ToolDescriptor } from './tool-descriptor';
export { TOOL_ID_PATTERN, toolAlias } from './tool-id';
