import type { AgentDefinition } from '../agent/agent-definition';
import type { AskOptions } from '../agent/invocation';
import type { RunCapability } from '../agent/run-capability';
import { ConfigurationError } from '../error/configuration-error';
import type { RunHandle } from '../tool/tool-binding';
import { Sandbox } from './sandbox/sandbox';
import type { SandboxOptions } from './sandbox/sandbox';
import { SandboxView } from './sandbox/sandbox-view';
import { Workspace } from './workspace';
import type { WorkspaceOptions } from './workspace-options';

/** Builds a run's workspace: the run opens it and closes it. */
export type WorkspaceFactory = (context: { readonly run: RunHandle }) => Workspace | Promise<Workspace>;

/** Builds a run's sandbox over its (already open) workspace: the run opens it and closes it first. */
export type SandboxFactory = (context: { readonly workspace: Workspace; readonly run: RunHandle }) => SandboxView | Promise<SandboxView>;

/** The sandbox an agent declares: options over the run's workspace, or a factory. */
export type AgentSandboxOptions = Omit<SandboxOptions, 'workspace'> | SandboxFactory;

/** The workspace an agent declares: options for a fresh workspace per run, or a factory. */
export type AgentWorkspaceOptions = WorkspaceOptions | WorkspaceFactory;

/**
 * The built-in capability behind an agent's `workspace` and `sandbox` fields
 * and the `workspace`/`sandbox` ask options. It opens the workspace, then the
 * sandbox (default policy: the root read-only), binds both to every tool,
 * and registers the ones it created on the run's scope so they close in
 * reverse order on every outcome. Instances the application passes in are
 * opened if needed but never closed by the run. Inactive when none of the
 * four is given.
 */
export function workspaceCapabilities(definition: Readonly<AgentDefinition>, options: Readonly<AskOptions>): RunCapability[] {
  if (!definition.workspace && !definition.sandbox && !options.workspace && !options.sandbox) return [];
  return [
    {
      name: 'workspace',
      async setup({ binding, scope }) {
        const run = binding.run;
        const suppliedSandbox = options.sandbox;
        if (suppliedSandbox !== undefined && !(suppliedSandbox instanceof SandboxView)) {
          throw new ConfigurationError('The sandbox option must be a Sandbox or a scope of one');
        }
        if (options.workspace !== undefined && !(options.workspace instanceof Workspace)) {
          throw new ConfigurationError('The workspace option must be a Workspace');
        }
        const supplied = options.workspace ?? suppliedSandbox?.workspace;
        let workspace: Workspace;
        if (supplied) {
          workspace = await supplied.open({ run });
        } else {
          workspace = await createWorkspace(definition.workspace, run);
          scope.own(workspace);
          await workspace.open({ run });
        }
        if (suppliedSandbox) {
          if (suppliedSandbox.workspace !== workspace) throw new ConfigurationError("The sandbox must govern the run's workspace");
          return { bind: { workspace, sandbox: suppliedSandbox } };
        }
        const sandbox = await createSandbox(definition.sandbox, workspace, run, !supplied);
        scope.own(sandbox);
        await sandbox.open({ run });
        return { bind: { workspace, sandbox } };
      },
    },
  ];
}

async function createWorkspace(declared: AgentWorkspaceOptions | undefined, run: RunHandle): Promise<Workspace> {
  if (typeof declared === 'function') {
    const workspace = await declared({ run });
    if (!(workspace instanceof Workspace)) throw new ConfigurationError('The workspace factory must return a Workspace');
    return workspace;
  }
  return new Workspace(declared ?? {});
}

async function createSandbox(declared: AgentSandboxOptions | undefined, workspace: Workspace, run: RunHandle, owned: boolean): Promise<SandboxView> {
  if (typeof declared === 'function') {
    const sandbox = await declared({ workspace, run });
    if (!(sandbox instanceof SandboxView) || sandbox.workspace !== workspace) {
      throw new ConfigurationError("The sandbox factory must return a Sandbox over the run's workspace");
    }
    return sandbox;
  }
  const policy = declared?.policy;
  // The conventional artifacts path (LittleGhost adds it when artifacts are on): granting it declares it.
  const grantsArtifacts = policy?.files?.artifacts !== undefined || policy?.runtimePaths?.artifacts !== undefined;
  if (owned && grantsArtifacts && !workspace.paths.has('artifacts')) await workspace.definePath('artifacts', 'artifacts');
  return new Sandbox({ ...declared, workspace });
}
