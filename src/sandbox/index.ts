/**
 * The file-policy view over a workspace: grants per named path, scopes,
 * per-operation limits, search (`glob`, `grep`), and the `sandbox()`
 * capability that binds one to every run.
 *
 * @module ghostlight/sandbox
 */
export { sandbox } from './sandbox-capability.ts';
export type { SandboxDeclaration, SandboxFactory } from './sandbox-capability.ts';
export { Sandbox } from './sandbox.ts';
export type { SandboxOptions, SandboxProfile } from './sandbox.ts';
export { SandboxScope, SandboxView } from './sandbox-view.ts';
export type { SandboxCallOptions, SandboxScopeOptions } from './sandbox-view.ts';
export type { GlobOptions, GrepMatch, GrepOptions, GrepResult } from './sandbox-search.ts';
export type { AccessMode, SandboxGrant, SandboxPolicy } from './sandbox-policy.ts';
export { DEFAULT_SANDBOX_LIMITS } from './sandbox-limits.ts';
export type { SandboxLimits } from './sandbox-limits.ts';
export { SANDBOX_FEATURES } from './sandbox-features.ts';
export type { SandboxFeature } from './sandbox-features.ts';
export { SandboxLimitError } from './sandbox-limit-error.ts';
