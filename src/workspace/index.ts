export { Workspace } from './workspace';
export type {
  WorkspaceChangeEvent,
  WorkspaceEntry,
  WorkspaceLifecycleContext,
  WorkspaceLocation,
  WorkspaceMount,
  WorkspaceOptions,
  WorkspaceTarget,
  WorkspaceUsage,
} from './workspace-options';
export { DEFAULT_WORKSPACE_LIMITS } from './workspace-limits';
export type { WorkspaceLimits } from './workspace-limits';
export { WORKSPACE_SCHEME } from './workspace-path';
export { isWorkspaceStore } from './workspace-store';
export type { WorkspaceChange, WorkspaceRecord, WorkspaceStore } from './workspace-store';
export { MemoryWorkspaceStore } from './memory-workspace-store';
export { snapshotFromJson, snapshotToJson } from './workspace-snapshot';
export type { WorkspaceRecordJson, WorkspaceSnapshot, WorkspaceSnapshotJson } from './workspace-snapshot';
export { WorkspaceError } from './workspace-error';
export type { WorkspaceErrorCode } from './workspace-error';
export { WorkspaceLimitError } from './workspace-limit-error';
export type { WorkspaceLimitName } from './workspace-limit-error';
export { PolicyError } from './policy-error';
export { Sandbox } from './sandbox/sandbox';
export type { SandboxOptions, SandboxProfile } from './sandbox/sandbox';
export { SandboxScope, SandboxView } from './sandbox/sandbox-view';
export type { SandboxCallOptions, SandboxScopeOptions } from './sandbox/sandbox-view';
export type { GlobOptions, GrepMatch, GrepOptions, GrepResult } from './sandbox/sandbox-search';
export type { AccessMode, SandboxGrant, SandboxPolicy } from './sandbox/sandbox-policy';
export { DEFAULT_SANDBOX_LIMITS } from './sandbox/sandbox-limits';
export type { SandboxLimits } from './sandbox/sandbox-limits';
export { SANDBOX_FEATURES } from './sandbox/sandbox-capabilities';
export type { SandboxFeature } from './sandbox/sandbox-capabilities';
export { SandboxLimitError } from './sandbox/sandbox-limit-error';
export { filesystemTools } from './tools/filesystem-tools';
export type { FilesystemToolName, FilesystemToolsOptions } from './tools/filesystem-tools';
export { shellTool } from './shell/shell-tool';
export type { ShellToolOptions } from './shell/shell-tool';
export { runShellCommand, SHELL_COMMANDS, SHELL_TIMEOUT_MS } from './shell/virtual-shell';
export type { ShellResult, ShellRunOptions } from './shell/virtual-shell';
export type { AgentSandboxOptions, AgentWorkspaceOptions, SandboxFactory, WorkspaceFactory } from './workspace-capability';
