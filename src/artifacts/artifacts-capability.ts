import type { RunCapability } from '../agent/run-capability';
import { ConfigurationError } from '../error/configuration-error';
import { resolveArtifactLimits } from './artifact-limits';
import type { ArtifactLimits } from './artifact-limits';
import { createArtifactProcessor } from './artifact-processor';
import type { ArtifactStorage } from './artifact-storage';
import { ArtifactStore } from './artifact-store';
import { storeInputAttachments } from './input-attachments';
import { MemoryArtifactStorage } from './memory-artifact-storage';
import { PresentationBudget } from './presentation-budget';
import type { ArtifactResolver } from './resolve-artifacts';
import { isArtifactWorkspace, WorkspaceArtifactStorage } from './workspace-artifact-storage';

/** How a run handles artifacts (`defineAgent({ artifacts: true | {...} })`). */
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
 * bound to tools as `binding.artifacts`. Dormant unless the agent enables it.
 */
export function artifactsCapability(config: boolean | ArtifactOptions | undefined): RunCapability | undefined {
  if (!config) return undefined;
  const options: ArtifactOptions = config === true ? {} : config;
  const limits = resolveArtifactLimits(options.limits, (message) => new ConfigurationError(message));
  // The workspace may be bound by a capability set up later: the storage is chosen on first use, from the final binding.
  let finalBinding: Readonly<Record<string, unknown>> = {};
  return {
    name: 'artifacts',
    setup({ binding }) {
      finalBinding = binding as never;
      const storage = options.storage ?? lazyStorage(() => {
        const workspace = finalBinding.workspace;
        return isArtifactWorkspace(workspace) ? new WorkspaceArtifactStorage(workspace) : new MemoryArtifactStorage();
      });
      const store = new ArtifactStore(storage, limits, { signal: binding.signal });
      const budget = new PresentationBudget(limits.maxPresentedBlocks, limits.maxPresentedBytes);
      let inputStored = false;
      return {
        bind: { artifacts: store },
        processors: [createArtifactProcessor({ store, limits, budget, resolver: options.resolve, run: binding.run, signal: binding.signal })],
        hooks: {
          beforeModel: async ({ messages }) => {
            budget.reset();
            if (inputStored) return;
            inputStored = true;
            await storeInputAttachments(messages.at(-1), store, limits);
          },
        },
      };
    },
    arrange({ binding }) {
      finalBinding = binding as never;
    },
  };
}

/** A storage chosen when it is first written to. */
function lazyStorage(choose: () => ArtifactStorage): ArtifactStorage {
  let chosen: ArtifactStorage | undefined;
  const storage = () => (chosen ??= choose());
  return {
    version: 'artifact-storage-v1',
    write: (name, data) => storage().write(name, data),
    remove: (name) => storage().remove(name),
  };
}
