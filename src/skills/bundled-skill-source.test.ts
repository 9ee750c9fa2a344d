import { describe, expect, it } from 'vitest';
import { bundledSkillFiles, bundledSkillSource } from './bundled-skill-source.ts';
import { MemorySkillSource } from './memory-skill-source.ts';

describe('bundledSkillSource', () => {
  it('strips the glob prefix given as root', () => {
    const source = bundledSkillSource({ '../skills/a/SKILL.md': 'x', '../skills/a/references/r.md': { default: 'y' } }, { root: '../skills' });
    expect(source.paths).toEqual(['a/SKILL.md', 'a/references/r.md']);
  });

  it('infers the root above the shallowest SKILL.md folder', () => {
    expect(bundledSkillSource({ '/src/skills/a/SKILL.md': 'x', '/src/skills/a/references/b/SKILL.md': 'nested', '/src/skills/b/x.md': 'y' }).paths).toEqual([
      'a/SKILL.md',
      'a/references/b/SKILL.md',
      'b/x.md',
    ]);
    expect(bundledSkillSource({ './a/SKILL.md': 'x' }).paths).toEqual(['a/SKILL.md']);
  });

  it('rejects files outside the root and unusable values', () => {
    expect(() => bundledSkillSource({ '../other/a/SKILL.md': 'x' }, { root: '../skills' })).toThrow('is not under the root');
    expect(() => bundledSkillSource({ 'a/SKILL.md': 42 as unknown as string })).toThrow("query: '?raw'");
  });

  it('keeps its location and readable options', () => {
    const source = bundledSkillSource({ 'a/SKILL.md': 'x' }, { location: 'workspace://skills', readable: true });
    expect(source).toMatchObject({ location: 'workspace://skills', readable: true });
  });
});

describe('MemorySkillSource', () => {
  it('rejects unsafe and conflicting paths', () => {
    for (const path of ['/abs/SKILL.md', 'a/../b', 'a//b', 'a\\b', './a', '']) {
      expect(() => new MemorySkillSource({ [path]: 'x' })).toThrow('Skill file paths must be relative');
    }
    expect(() => new MemorySkillSource({ 'a': 'x', 'a/b': 'y' })).toThrow('used twice');
  });
});

describe('bundledSkillFiles', () => {
  it('accepts the root written as in the glob pattern', () => {
    const files = { './skills/a/SKILL.md': 'x', './skills/a/assets/b.txt': 'y' };
    expect(bundledSkillFiles(files, { root: './skills' })).toEqual({ 'a/SKILL.md': 'x', 'a/assets/b.txt': 'y' });
    expect(bundledSkillFiles(files, { root: 'skills/' })).toEqual({ 'a/SKILL.md': 'x', 'a/assets/b.txt': 'y' });
  });
});
