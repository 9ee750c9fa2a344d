import { bundledSkillSource, MemorySkillSource, WorkspaceSkillSource } from 'ghostlight/skills';
import { MemoryWorkspaceStore, Workspace } from 'ghostlight/workspace';
import { skillSourceContract } from './skill-source';

skillSourceContract('MemorySkillSource', async (files) => new MemorySkillSource(files));
skillSourceContract('bundledSkillSource (import.meta.glob keys)', async (files) =>
  bundledSkillSource(Object.fromEntries(Object.entries(files).map(([path, content]) => [`../skills/${path}`, typeof content === 'string' ? { default: content } : content])), { root: '../skills' }),
);
skillSourceContract('WorkspaceSkillSource (a store-mounted workspace path)', async (files) => {
  const workspace = await Workspace.open({ paths: { skills: { store: new MemoryWorkspaceStore({ files }) } } });
  return new WorkspaceSkillSource(workspace, 'workspace://skills');
});
