import { CAPABILITY_ORDER } from '../agent/run-capability.ts';
import type { RunCapability } from '../agent/run-capability.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import type { RunHandle } from '../tool/tool-binding.ts';
import { Workspace } from './workspace.ts';
import type { WorkspaceOptions } from './workspace-options.ts';

declare module '../tool/tool-binding.ts' {
  interface ToolBinding {
    /** The run's workspace (from `workspace()`, `ghostlight/workspace`): names files, does not restrict them. */
    readonly workspace?: Workspace;
  }
}

declare module '../agent/invocation.ts' {
  interface AskOptions {
    /** A workspace the application owns (e.g. a conversation's): the run opens it if needed and never closes it. */
    workspace?: Workspace | undefined;
  }
}

/** Builds a run's workspace: the run opens it and closes it. */
export type WorkspaceFactory = (context: { readonly run: RunHandle }) => Workspace | Promise<Workspace>;

/** What `workspace()` accepts: options for a fresh workspace per run, or a factory. */
export type WorkspaceDeclaration = WorkspaceOptions | WorkspaceFactory;

/**
 * The workspace capability: every run gets a virtual filesystem, bound to
 * tools as `binding.workspace`. The run creates it (from `options`, or the
 * factory), opens it and closes it on every outcome; a workspace the
 * application passes as `agent.ask(input, { workspace })` (or the workspace of
 * a `sandbox` it passes) is opened if needed and never closed by the run.
 * Model-selected paths belong in a sandbox: add `sandbox()` from
 * `ghostlight/sandbox`.
 *
 * @example
 * import { workspace } from 'ghostlight/workspace';
 * import { sandbox } from 'ghostlight/sandbox';
 * defineAgent({ name: 'notes', model, capabilities: [workspace(), sandbox({ policy: { files: { root: 'read_write' } } })] });
 */
export function workspace(declaration: WorkspaceDeclaration = {}): RunCapability {
  if (typeof declaration !== 'function' && (typeof declaration !== 'object' || declaration === null)) {
    throw new ConfigurationError('workspace() takes workspace options or a factory');
  }
  return {
    version: 'run-capability-v1',
    name: 'workspace',
    order: CAPABILITY_ORDER.resources,
    optionKeys: ['workspace'],
    async setup({ binding, scope, options }) {
      const run = binding.run;
      const suppliedWorkspace = options.workspace;
      if (suppliedWorkspace !== undefined && !(suppliedWorkspace instanceof Workspace)) {
        throw new ConfigurationError('The workspace option must be a Workspace');
      }
      // A sandbox the application passes (ghostlight/sandbox) brings its workspace.
      const sandboxWorkspace = (options as { sandbox?: { workspace?: unknown } }).sandbox?.workspace;
      const supplied = suppliedWorkspace ?? (sandboxWorkspace instanceof Workspace ? sandboxWorkspace : undefined);
      if (supplied) return { bind: { workspace: await supplied.open({ run }) } };
      const created = await createWorkspace(declaration, run);
      scope.own(created);
      await created.open({ run });
      return { bind: { workspace: created } };
    },
  };
}

async function createWorkspace(declared: WorkspaceDeclaration, run: RunHandle): Promise<Workspace> {
  if (typeof declared === 'function') {
    const created = await declared({ run });
    if (!(created instanceof Workspace)) throw new ConfigurationError('The workspace factory must return a Workspace');
    return created;
  }
  return new Workspace(declared);
}

