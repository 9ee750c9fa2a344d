import { IndexedDbWorkspaceStore } from 'ghostlight/browser';
import { Sandbox } from 'ghostlight/sandbox';
import { Workspace } from 'ghostlight/workspace';

/** The sample files a fresh playground workspace starts with. */
export const SAMPLE_FILES: Readonly<Record<string, string>> = {
  'inbox/groceries.txt': 'oat milk\ncoffee beans\nlemons\n',
  'inbox/meeting-2026-11-20.md': '# Weekly sync\n\n- ship the playground\n- review code mode limits\n',
  'inbox/meeting-2026-11-27.md': '# Weekly sync\n\n- sessions survive restarts\n- write the docs\n',
  'inbox/invoice-481.csv': 'item,amount\nkettle,39.90\nshipping,4.50\n',
  'inbox/trip-ideas.md': '# Trip ideas\n\n- Lyon in spring\n- the Alps in winter\n',
  'notes/welcome.md': '# Welcome\n\nThis workspace lives in your browser (IndexedDB) and survives a reload.\n',
};

let shared: Promise<{ workspace: Workspace; sandbox: Sandbox }> | undefined;

/**
 * The playground's workspace: one per browser profile, kept in IndexedDB, so
 * files survive a reload. The application owns it (runs never close it); the
 * sandbox grants the model read and write access to its root.
 */
export function playgroundWorkspace(): Promise<{ workspace: Workspace; sandbox: Sandbox }> {
  shared ??= (async () => {
    const workspace = await Workspace.open({
      store: new IndexedDbWorkspaceStore({ name: 'playground' }),
      setup: async ({ workspace: opened }) => {
        if ((await opened.list('.')).length === 0) await seed(opened);
      },
    });
    return { workspace, sandbox: new Sandbox({ workspace, policy: { files: { root: 'read_write' } } }) };
  })();
  shared.catch(() => (shared = undefined));
  return shared;
}

/** Puts the sample files back (after removing everything). */
export async function resetWorkspace(workspace: Workspace): Promise<void> {
  for (const entry of await workspace.list('.')) await workspace.delete(entry.name, { recursive: true });
  await seed(workspace);
}

async function seed(workspace: Workspace): Promise<void> {
  for (const [path, content] of Object.entries(SAMPLE_FILES)) await workspace.writeFile(path, content, { parents: true });
}
