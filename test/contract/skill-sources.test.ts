import { bundledSkillSource, MemorySkillSource } from '../../src/index';
import { skillSourceContract } from './skill-source';

skillSourceContract('MemorySkillSource', async (files) => new MemorySkillSource(files));
skillSourceContract('bundledSkillSource (import.meta.glob keys)', async (files) =>
  bundledSkillSource(Object.fromEntries(Object.entries(files).map(([path, content]) => [`../skills/${path}`, typeof content === 'string' ? { default: content } : content])), { root: '../skills' }),
);
