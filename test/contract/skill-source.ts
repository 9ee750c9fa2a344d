import { describe, expect, it } from 'vitest';
import { SkillCatalog } from 'ghostlight/skills';
import type { SkillSource } from 'ghostlight/skills';

/** Builds a source holding `files` (paths relative to the skills root). */
export type SkillSourceFactory = (files: Record<string, string | Uint8Array>) => Promise<SkillSource>;

const text = (content: Uint8Array | string) => (typeof content === 'string' ? content : new TextDecoder().decode(content));

/**
 * What every SkillSource must do (skill-source-v1): list directories (or say
 * there is none), read files, report its location; a catalog over it loads.
 */
export function skillSourceContract(name: string, make: SkillSourceFactory): void {
  describe(`SkillSource contract: ${name}`, () => {
    const files = {
      'review/SKILL.md': '---\nname: review\ndescription: Review code\n---\nRead every file.',
      'review/references/nested/guide.md': 'Guide',
      'review/assets/logo.txt': 'logo',
      'notes.txt': 'not a skill',
    };

    it('has the version, a location and a readable flag', async () => {
      const source = await make(files);
      expect(source.version).toBe('skill-source-v1');
      expect(typeof source.location).toBe('string');
      expect(typeof source.readable).toBe('boolean');
    });

    it('lists the root, folders and nested folders by name and kind', async () => {
      const source = await make(files);
      const root = await source.list('');
      expect(root?.map((entry) => [entry.name, entry.kind]).sort()).toEqual([['notes.txt', 'file'], ['review', 'directory']]);
      const review = await source.list('review');
      expect(review?.map((entry) => entry.name).sort()).toEqual(['SKILL.md', 'assets', 'references']);
      const skill = review?.find((entry) => entry.name === 'SKILL.md');
      if (skill?.size !== undefined) expect(skill.size).toBe(new TextEncoder().encode(files['review/SKILL.md']).byteLength);
      expect((await source.list('review/references/nested'))?.map((entry) => entry.name)).toEqual(['guide.md']);
    });

    it('says there is no directory for missing paths and for files', async () => {
      const source = await make(files);
      expect(await source.list('missing')).toBeUndefined();
      expect(await source.list('review/SKILL.md')).toBeUndefined();
    });

    it('reads files and rejects missing ones', async () => {
      const source = await make(files);
      expect(text(await source.read('review/references/nested/guide.md'))).toBe('Guide');
      await expect(source.read('review/missing.md')).rejects.toThrow();
    });

    it('keeps bytes as written', async () => {
      const bytes = new Uint8Array([0xff, 0x00, 0x41]);
      const source = await make({ 'bin/assets/blob.bin': bytes });
      const read = await source.read('bin/assets/blob.bin');
      expect(typeof read === 'string' ? new TextEncoder().encode(read) : [...read]).toEqual([0xff, 0x00, 0x41]);
    });

    it('backs a catalog', async () => {
      const catalog = await SkillCatalog.load({ sources: [await make(files)] });
      expect(catalog.names).toEqual(['review']);
      expect(catalog.get('review')?.location).toMatch(/\/review\/SKILL\.md$/);
      const resources = await catalog.resources('review');
      expect(resources.map((path) => path.replace(/^.*\/review\//, ''))).toEqual(['assets/logo.txt', 'references/nested/guide.md']);
    });
  });
}
