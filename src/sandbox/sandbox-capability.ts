import { CAPABILITY_ORDER } from '../agent/run-capability.ts';
import type { RunCapability } from '../agent/run-capability.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import type { RunHandle } from '../tool/tool-binding.ts';
import { Workspace } from '../workspace/workspace.ts';
import { Sandbox } from './sandbox.ts';
import type { SandboxOptions } from './sandbox.ts';
import { SandboxView } from './sandbox-view.ts';

declare module '../tool/tool-binding.ts' {
  interface ToolBinding {
    /** The run's sandbox or a scope of it (from `sandbox()`, `ghostlight/sandbox`): send model-selected paths through it. */
    readonly sandbox?: SandboxView;
  }
}

declare module '../agent/invocation.ts' {
  interface AskOptions {
    /** A sandbox (or scope) the application owns, over the run's workspace; never closed by the run. */
    sandbox?: SandboxView | undefined;
  }
}

/** Builds a run's sandbox over its (already open) workspace: the run opens it and closes it first. */
export type SandboxFactory = (context: { readonly workspace: Workspace; readonly run: RunHandle }) => SandboxView | Promise<SandboxView>;

/** What `sandbox()` accepts: options over the run's workspace, or a factory. */
export type SandboxDeclaration = Omit<SandboxOptions, 'workspace'> | SandboxFactory;

/**
 * The sandbox capability: every run gets a policy view over its workspace,
 * bound to tools as `binding.sandbox` (the filesystem tools, the shell and
 * code mode send model-selected paths through it). The default policy grants
 * the root read-only. Needs `workspace()` (set up before it); a sandbox the
 * application passes as `agent.ask(input, { sandbox })` is used as is and
 * never closed by the run.
 *
 * @example
 * capabilities: [workspace(), sandbox({ policy: { files: { root: 'read_write' } } })]
 */
export function sandbox(declaration: SandboxDeclaration = {}): RunCapability {
  if (typeof declaration !== 'function' && (typeof declaration !== 'object' || declaration === null)) {
    throw new ConfigurationError('sandbox() takes sandbox options or a factory');
  }
  return {
    version: 'run-capability-v1',
    name: 'sandbox',
    order: CAPABILITY_ORDER.resources + 10,
    requires: ['workspace'],
    optionKeys: ['sandbox'],
    async setup({ binding, scope, options }) {
      const run = binding.run;
      const workspace = binding.workspace;
      if (!(workspace instanceof Workspace)) throw new ConfigurationError('The sandbox capability needs the run to have a workspace');
      const supplied = options.sandbox;
      if (supplied !== undefined) {
        if (!(supplied instanceof SandboxView)) throw new ConfigurationError('The sandbox option must be a Sandbox or a scope of one');
        if (supplied.workspace !== workspace) throw new ConfigurationError("The sandbox must govern the run's workspace");
        return { bind: { sandbox: supplied } };
      }
      const ownsWorkspace = options.workspace === undefined;
      const created = await createSandbox(declaration, workspace, run, ownsWorkspace);
      scope.own(created);
      await created.open({ run });
      return { bind: { sandbox: created } };
    },
  };
}

async function createSandbox(declared: SandboxDeclaration, workspace: Workspace, run: RunHandle, ownsWorkspace: boolean): Promise<SandboxView> {
  if (typeof declared === 'function') {
    const created = await declared({ workspace, run });
    if (!(created instanceof SandboxView) || created.workspace !== workspace) {
      throw new ConfigurationError("The sandbox factory must return a Sandbox over the run's workspace");
    }
    return created;
  }
  const policy = declared.policy;
  // The conventional artifacts path (LittleGhost adds it when artifacts are on): granting it declares it.
  const grantsArtifacts = policy?.files?.artifacts !== undefined || policy?.runtimePaths?.artifacts !== undefined;
  if (ownsWorkspace && grantsArtifacts && !workspace.paths.has('artifacts')) await workspace.definePath('artifacts', 'artifacts');
  return new Sandbox({ ...declared, workspace });
}
