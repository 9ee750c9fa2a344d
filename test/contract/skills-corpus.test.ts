import { describe, expect, it } from 'vitest';
import { bundledSkillSource, SkillCatalog } from 'ghostlight/skills';

/**
 * The real SKILL.md files of ../shared/realworld/skills-corpus (REALWORLD.md),
 * bundled through Vite exactly as an application bundles its skills, so the
 * same test runs in Node, workerd and Chromium.
 */
const corpus = import.meta.glob('../../../shared/realworld/skills-corpus/vercel-ai/**', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
const ROOT = '../../../shared/realworld/skills-corpus/vercel-ai';
const present = Object.keys(corpus).length > 0;
if (!present) console.warn(`[ghostlight tests] SKIPPED: ${ROOT} is missing; the skills corpus tests need ../shared/realworld (see REALWORLD.md).`);

/**
 * What the Agent Skills specification says of each file, read with its
 * lenient-loading guidance: every one loads (none lacks a description or has
 * unparseable YAML); `metadata: { internal: true }` is not a string map and
 * `use-ai-sdk` declares the name `ai-sdk`, so those load with warnings.
 */
const expected: Record<string, { name: string; warnings: string[] } | { skipped: string }> = {
  'add-function-examples': { name: 'add-function-examples', warnings: ['metadata-format'] },
  'add-harness-package': { name: 'add-harness-package', warnings: ['metadata-format'] },
  'add-provider-package': { name: 'add-provider-package', warnings: ['metadata-format'] },
  'adr-skill': { name: 'adr-skill', warnings: ['metadata-format'] },
  'capture-api-response-test-fixture': { name: 'capture-api-response-test-fixture', warnings: ['metadata-format'] },
  'develop-ai-functions-example': { name: 'develop-ai-functions-example', warnings: ['metadata-format'] },
  'list-npm-package-content': { name: 'list-npm-package-content', warnings: ['metadata-format'] },
  'major-version-mode': { name: 'major-version-mode', warnings: ['metadata-format'] },
  'migrate-ai-sdk-v6-to-v7': { name: 'migrate-ai-sdk-v6-to-v7', warnings: [] },
  'update-harness-dependencies': { name: 'update-harness-dependencies', warnings: ['metadata-format'] },
  'update-provider-models': { name: 'update-provider-models', warnings: ['metadata-format'] },
  'use-ai-sdk': { name: 'ai-sdk', warnings: ['name-mismatch'] },
};

describe.skipIf(!present)('the real skills corpus (vercel-ai)', () => {
  const load = () => SkillCatalog.load({ sources: [bundledSkillSource(corpus, { root: ROOT, location: '/corpus' })] });
  const folders = Object.keys(corpus)
    .filter((path) => path.endsWith('/SKILL.md'))
    .map((path) => path.slice(ROOT.length + 1, -'/SKILL.md'.length))
    .sort();

  it('holds exactly the files this test knows', () => {
    expect(folders).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.keys(expected))('%s loads (or is skipped) as the specification says', async (folder) => {
    const catalog = await load();
    const location = `/corpus/${folder}/SKILL.md`;
    const want = expected[folder]!;
    const found = catalog.diagnostics.filter((diagnostic) => diagnostic.location === location);
    if ('skipped' in want) {
      expect(found.map((diagnostic) => [diagnostic.severity, diagnostic.code])).toEqual([['skip', want.skipped]]);
      return;
    }
    const skill = catalog.get(want.name);
    expect(skill?.location).toBe(location);
    expect(found.map((diagnostic) => diagnostic.code)).toEqual(want.warnings);
    expect(found.every((diagnostic) => diagnostic.severity === 'warning' && diagnostic.message.endsWith(location))).toBe(true);
    const raw = corpus[`${ROOT}/${folder}/SKILL.md`]!;
    expect(skill!.instructions.length).toBeGreaterThan(0);
    expect(raw).toContain(skill!.instructions.slice(0, 200));
    expect(skill!.description).not.toMatch(/[\r\n]/);
    const formatted = await catalog.format(want.name);
    expect(formatted.startsWith(skill!.instructions)).toBe(true);
    expect(formatted.endsWith(`Location: ${location}`)).toBe(true);
  });

  it('lists every loaded skill in the discovery prompt, in folder order', async () => {
    const catalog = await load();
    expect(catalog.names).toEqual(Object.values(expected).flatMap((want) => ('name' in want ? [want.name] : [])));
    const prompt = catalog.discoveryPrompt();
    expect(prompt.match(/<skill>/g)).toHaveLength(catalog.names.length);
    expect(prompt).toContain('@ai-sdk/harness-&lt;name&gt;');
  });

  it('keeps the values of quoted descriptions', async () => {
    const catalog = await load();
    expect(catalog.get('major-version-mode')?.description).toMatch(/^Context for working on the next AI SDK major release\. .*autonomously based on task content\.$/);
    expect(catalog.get('ai-sdk')?.description).toContain('Triggers on: "AI SDK"');
  });
});
