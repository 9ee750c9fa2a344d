import { WorkspaceError } from './workspace-error.ts';
import { checkRecord } from './workspace-snapshot.ts';
import type { WorkspaceSnapshot } from './workspace-snapshot.ts';
import type { WorkspaceRecord } from './workspace-store.ts';
import { WorkspaceVolume } from './workspace-volume.ts';

/** One volume of an import: the live volume and the tree it will hold. */
export interface StagedVolume {
  readonly volume: WorkspaceVolume;
  readonly trial: WorkspaceVolume;
  readonly largestFile: number;
}

/**
 * Builds, beside each live volume the snapshot names, the tree it will hold
 * after the import (`replace`: exactly the snapshot's records; otherwise
 * the snapshot's records over the current ones). Nothing live changes; a
 * volume the workspace does not have or a malformed record is a `WorkspaceError`.
 */
export function stageImport(volumes: ReadonlyMap<string, WorkspaceVolume>, snapshot: WorkspaceSnapshot, replace: boolean, now: number): StagedVolume[] {
  return Object.entries(snapshot.volumes).map(([name, records]) => {
    const volume = volumes.get(name);
    if (!volume) throw new WorkspaceError('unknown-path', `workspace path must name a configured path: ${name}`);
    records.forEach(checkRecord);
    const trial = new WorkspaceVolume(volume.name, undefined, now);
    const copies = records.map((record): WorkspaceRecord => (record.data ? { ...record, data: record.data.slice() } : record));
    trial.load([...(replace ? [] : volume.records('', volume.root)), ...copies], now);
    return { volume, trial, largestFile: Math.max(0, ...records.map((record) => record.data?.length ?? 0)) };
  });
}
