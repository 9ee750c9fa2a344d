import { CAPABILITY_ORDER } from '../agent/run-capability.ts';
import type { RunCapability } from '../agent/run-capability.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import { resolveArtifactLimits } from './artifact-limits.ts';
import type { ArtifactLimits } from './artifact-limits.ts';
import { createArtifactProcessor } from './artifact-processor.ts';
import type { ArtifactStorage } from './artifact-storage.ts';
import { ArtifactStore } from './artifact-store.ts';
import { storeInputAttachments } from './input-attachments.ts';
import { MemoryArtifactStorage } from './memory-artifact-storage.ts';
import { PresentationBudget } from './presentation-budget.ts';
import type { ArtifactResolver } from './resolve-artifacts.ts';
import { isArtifactWorkspace, WorkspaceArtifactStorage } from './workspace-artifact-storage.ts';

declare module '../tool/tool-binding.ts' {
  interface ToolBinding {
    /** The run's artifact store (from `artifacts()`, `ghostlight/artifacts`). */
    readonly artifacts?: ArtifactStore;
  }
}

/** How a run handles artifacts (`artifacts(options)`). */
export interface ArtifactOptions {
  /** Loads deferred artifacts; may return nothing when the file is gone. */
  readonly resolve?: ArtifactResolver;
  /** Limits over the Worker-sized defaults ({@link DEFAULT_ARTIFACT_LIMITS}). */
  readonly limits?: Partial<ArtifactLimits>;
  /** Where files go (default: the run's workspace under `workspace://artifacts`, else memory). */
  readonly storage?: ArtifactStorage;
}

/**
 * The artifacts capability: input images and documents are stored when the
 * run starts, tool artifacts are stored and shown to the model, oversized
 * tool values are stored and previewed. The run's {@link ArtifactStore} is
 * bound to tools as `binding.artifacts`. Files go to the run's workspace under
 * `workspace://artifacts` when it has one (add `workspace()` before it), else
 * to memory, unless `storage` says otherwise.
 *
 * @example
 * import { artifacts } from 'ghostlight/artifacts';
 * defineAgent({ name: 'reports', model, tools: [chartTool], capabilities: [artifacts()] });
 */
export function artifacts(options: ArtifactOptions = {}): RunCapability {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('artifacts() takes artifact options');
  const limits = resolveArtifactLimits(options.limits, (message) => new ConfigurationError(message));
  return {
    version: 'run-capability-v1',
    name: 'artifacts',
    order: CAPABILITY_ORDER.content,
    setup({ binding }) {
      // The workspace capability is set up before this one (CAPABILITY_ORDER.resources).
      const workspace: unknown = (binding as { workspace?: unknown }).workspace;
      const storage = options.storage ?? (isArtifactWorkspace(workspace) ? new WorkspaceArtifactStorage(workspace) : new MemoryArtifactStorage());
      const store = new ArtifactStore(storage, limits, { signal: binding.signal });
      const budget = new PresentationBudget(limits.maxPresentedBlocks, limits.maxPresentedBytes);
      let inputStored = false;
      return {
        bind: { artifacts: store },
        processors: [createArtifactProcessor({ store, limits, budget, resolver: options.resolve, run: binding.run, signal: binding.signal })],
        hooks: {
          beforeModel: async ({ request }) => {
            budget.reset();
            if (inputStored) return;
            inputStored = true;
            await storeInputAttachments(request.messages.at(-1), store, limits);
          },
        },
      };
    },
  };
}

