import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, defineAgent, defineTool } from 'ghostlight';
import { MemorySkillSource, SkillCatalog, SkillLimitError, SKILLS_TOOL_DESCRIPTION, skills } from 'ghostlight/skills';
import type { SkillSource } from 'ghostlight/skills';
import { scriptedModel } from '../support/scripted-model';

const skill = (name: string, description: string, body = 'Instructions', extra = '') => `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}\n`;

const review = {
  'review/SKILL.md': skill('review', 'Review code carefully', 'Read every changed file.', 'allowed-tools: Read Grep\ncompatibility: Ruby 3.3+\n'),
  'review/references/nested/guide.md': 'Guide',
};

const lookup = defineTool({
  name: 'help_center_lookup',
  description: 'Look up a help center entry by topic.',
  input: v.strictObject({ topic: v.picklist(['refunds', 'shipping']) }),
  execute: ({ topic }) => (topic === 'refunds' ? 'Refunds are available within 30 days of purchase.' : 'Standard shipping takes 3-5 days.'),
});

const systemOf = (model: ReturnType<typeof scriptedModel>, call = 0) => {
  const system = model.calls[call]?.prompt.find((message) => message.role === 'system');
  return system ? (system.content as string) : undefined;
};
const toolNames = (model: ReturnType<typeof scriptedModel>, call = 0) => (model.calls[call]?.tools ?? []).map((tool) => tool.name);

describe('skills: discovery and the skills tool', () => {
  it('C.23: an empty catalog adds no prompt text and no tool', async () => {
    const model = scriptedModel([{ text: 'Done.' }]);
    const agent = defineAgent({ name: 'support', model, instructions: 'Be brief.', tools: [lookup], capabilities: [skills({ paths: [new MemorySkillSource({})] })] });
    const run = await agent.ask('Hi');
    expect(run.outcome).toBe('completed');
    expect(systemOf(model)).toBe('Be brief.');
    expect(toolNames(model)).toEqual(['help_center_lookup']);
  });

  it('C.23: a catalog of only invalid skills is empty too', async () => {
    const model = scriptedModel([{ text: 'Done.' }]);
    await defineAgent({ name: 'support', model, instructions: 'Be brief.', capabilities: [skills({ paths: [new MemorySkillSource({ 'bad/SKILL.md': 'no front matter' })] })] }).ask('Hi');
    expect(systemOf(model)).toBe('Be brief.');
    expect(toolNames(model)).toEqual([]);
  });

  it('appends the <available_skills> catalog, HTML-escaped, exactly as the seeds format it', async () => {
    const source = new MemorySkillSource({
      'refund_guide/SKILL.md': skill('refund_guide', 'Decide which refund rule applies.'),
      'escape/SKILL.md': skill('escape', 'Keep <tags> & "quotes" as text, don\'t render them'),
    }, { location: '/app/skills' });
    const model = scriptedModel([{ text: 'Done.' }]);
    await defineAgent({ name: 'support', model, instructions: 'Use an available skill when a request needs a documented procedure.', capabilities: [skills({ paths: [source] })] }).ask('Hi');
    expect(systemOf(model)).toBe([
      'Use an available skill when a request needs a documented procedure.',
      '',
      '<available_skills>',
      '<skill>',
      '<name>escape</name>',
      '<description>Keep &lt;tags&gt; &amp; &quot;quotes&quot; as text, don&#39;t render them</description>',
      '<location>/app/skills/escape/SKILL.md</location>',
      '</skill>',
      '<skill>',
      '<name>refund_guide</name>',
      '<description>Decide which refund rule applies.</description>',
      '<location>/app/skills/refund_guide/SKILL.md</location>',
      '</skill>',
      '</available_skills>',
    ].join('\n'));
    const tool = model.calls[0]?.tools?.find((entry) => entry.name === 'skills');
    expect(tool).toMatchObject({
      name: 'skills',
      description: SKILLS_TOOL_DESCRIPTION,
      inputSchema: {
        type: 'object',
        properties: { skill_name: { type: 'string', description: 'Name of the skill to activate.' } },
        required: ['skill_name'],
        additionalProperties: false,
      },
    });
  });

  it('C.24: skips malformed skills without hiding valid siblings, and says why', async () => {
    const catalog = await SkillCatalog.load({
      sources: [new MemorySkillSource({
        'valid/SKILL.md': '---\nname: valid\ndescription: Valid skill\n---\nUseful instructions',
        'missing-front-matter/SKILL.md': 'instructions',
        'malformed-yaml/SKILL.md': '---\nname: [\ndescription: Broken YAML\n---\nBroken',
        'invalid-name/SKILL.md': '---\nname: invalid/name\ndescription: Unsafe name\n---\nBroken',
        'multi-line/SKILL.md': '---\nname: multi-line\ndescription: |\n  First line\n  Second line\n---\nBroken',
        'no-name/SKILL.md': '---\ndescription: Nameless\n---\nBroken',
        'no-description/SKILL.md': '---\nname: no-description\n---\nBroken',
        'list/SKILL.md': '---\n- name\n- description\n---\nBroken',
        'latin1/SKILL.md': new Uint8Array([...new TextEncoder().encode('---\nname: latin1\ndescription: caf'), 0xe9, ...new TextEncoder().encode('\n---\nBroken')]),
      })],
    });
    expect(catalog.names).toEqual(['valid']);
    expect(catalog.get('valid')?.instructions).toBe('Useful instructions');
    const skips = Object.fromEntries(catalog.diagnostics.filter((item) => item.severity === 'skip').map((item) => [item.location, item.code]));
    expect(skips).toEqual({
      '/skills/invalid-name/SKILL.md': 'unsafe-name',
      '/skills/latin1/SKILL.md': 'invalid-utf8',
      '/skills/list/SKILL.md': 'front-matter-not-mapping',
      '/skills/malformed-yaml/SKILL.md': 'invalid-yaml',
      '/skills/missing-front-matter/SKILL.md': 'missing-front-matter',
      '/skills/multi-line/SKILL.md': 'multiline-description',
      '/skills/no-description/SKILL.md': 'description-required',
      '/skills/no-name/SKILL.md': 'name-required',
    });
    expect(catalog.diagnostics.find((item) => item.code === 'unsafe-name')?.message).toBe('Skill name contains unsafe characters: /skills/invalid-name/SKILL.md');
  });

  it('skips an unreadable SKILL.md without hiding valid siblings (an application source)', async () => {
    const files = new MemorySkillSource({ 'valid/SKILL.md': skill('valid', 'Valid'), 'unreadable/SKILL.md': skill('unreadable', 'Unreadable') });
    const remote: SkillSource = {
      version: 'skill-source-v1',
      location: 'kv://skills',
      readable: false,
      list: async (path) => files.list(path),
      read: async (path) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (path.startsWith('unreadable/')) throw new Error('KV read failed');
        return new TextDecoder().decode(await files.read(path));
      },
    };
    const catalog = await SkillCatalog.load({ sources: [remote] });
    expect(catalog.names).toEqual(['valid']);
    expect(catalog.diagnostics).toEqual([
      { severity: 'skip', code: 'unreadable', message: 'Skill could not be read (KV read failed): kv://skills/unreadable/SKILL.md', location: 'kv://skills/unreadable/SKILL.md' },
    ]);
    await expect(SkillCatalog.load({ sources: [{ ...remote, list: async () => undefined }] })).rejects.toThrow('Skill root does not exist: kv://skills');
    await expect(SkillCatalog.load({ sources: [{ location: 'x' } as unknown as SkillSource] })).rejects.toThrow('Skill sources must implement skill-source-v1');
  });

  it('C.25: only exposes only the named skills', async () => {
    const source = new MemorySkillSource({
      'refund_guide/SKILL.md': skill('refund_guide', 'Refunds'),
      'shipping_guide/SKILL.md': skill('shipping_guide', 'Shipping'),
    });
    const model = scriptedModel([{ text: 'Done.' }]);
    await defineAgent({ name: 'support', model, instructions: 'Help.', capabilities: [skills({ paths: [source], only: ['refund_guide'] })] }).ask('Hi');
    expect(systemOf(model)).toContain('<name>refund_guide</name>');
    expect(systemOf(model)).not.toContain('shipping_guide');
    const catalog = await SkillCatalog.load({ sources: [source], only: ['refund_guide', 'missing'] });
    expect(catalog.names).toEqual(['refund_guide']);
    expect(catalog.diagnostics.filter((item) => item.code === 'only-unknown')).toEqual([{ severity: 'warning', code: 'only-unknown', message: 'Skill missing is listed in only but was not loaded', skill: 'missing' }]);
  });

  it('C.26: the skills tool returns instructions, allowed tools, compatibility, location and resources; the tool list is unchanged', async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'skills', input: { skill_name: 'review' } }] },
      { text: 'Done.' },
    ]);
    const agent = defineAgent({ name: 'reviewer', model, instructions: 'Review carefully.', tools: [lookup], capabilities: [skills({ paths: [new MemorySkillSource(review)] })] });
    const run = await agent.ask('Review my change');
    const result = run.steps[0]!.toolResults[0]!;
    expect(result.status).toBe('success');
    expect(result.content).toBe([
      'Read every changed file.',
      '',
      '---',
      'Allowed tools: Read, Grep',
      'Compatibility: Ruby 3.3+',
      'Location: /skills/review/SKILL.md',
      '',
      'Available resources:',
      '  references/nested/guide.md',
    ].join('\n'));
    expect(toolNames(model, 0)).toEqual(['help_center_lookup', 'skills']);
    expect(toolNames(model, 1)).toEqual(['help_center_lookup', 'skills']);
  });

  it('C.26: allowed-tools as a YAML list (the seeds) or allowed_tools reads the same', async () => {
    const catalog = await SkillCatalog.load({
      sources: [new MemorySkillSource({
        'a/SKILL.md': skill('a', 'A', 'x', 'allowed-tools:\n  - help_center_lookup\n  - order_status\n'),
        'b/SKILL.md': skill('b', 'B', 'x', 'allowed_tools: one two\n'),
      })],
    });
    expect(catalog.get('a')?.allowedTools).toEqual(['help_center_lookup', 'order_status']);
    expect(catalog.get('b')?.allowedTools).toEqual(['one', 'two']);
    expect(await catalog.format('a')).toBe('x\n\n---\nAllowed tools: help_center_lookup, order_status\nLocation: /skills/a/SKILL.md');
  });

  it('C.27: the skill limit counts invalid files', async () => {
    const source = new MemorySkillSource({ 'invalid-0/SKILL.md': 'instructions', 'invalid-1/SKILL.md': 'instructions' });
    const error = await SkillCatalog.load({ sources: [source], maxSkills: 1 }).catch((caught: unknown) => caught);
    expect(SkillLimitError.isInstance(error)).toBe(true);
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('Skill catalog exceeds 1 skills');
    const agent = defineAgent({ name: 'support', model: scriptedModel([]), capabilities: [skills({ paths: [source], maxSkills: 1 })] });
    await expect(agent.ask('Hi')).rejects.toThrow('Skill catalog exceeds 1 skills');
  });

  it('C.27: later roots override earlier duplicate names, keeping their place, with a warning', async () => {
    const first = new MemorySkillSource({ 'review/SKILL.md': skill('review', 'Review code', 'First instructions'), 'deploy/SKILL.md': skill('deploy', 'Deploy') }, { location: '/first' });
    const second = new MemorySkillSource({ 'review/SKILL.md': skill('review', 'Review code', 'Second instructions') }, { location: '/second' });
    const catalog = await SkillCatalog.load({ sources: [first, second] });
    expect(catalog.names).toEqual(['deploy', 'review']);
    expect(catalog.get('review')).toMatchObject({ instructions: 'Second instructions', location: '/second/review/SKILL.md' });
    expect(catalog.diagnostics).toEqual([
      { severity: 'warning', code: 'shadowed', message: 'Skill review at /first/review/SKILL.md is overridden by /second/review/SKILL.md', location: '/first/review/SKILL.md', skill: 'review' },
    ]);
  });

  it('C.27: an unknown skill_name is an error result and the run goes on', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'skills', input: { skill_name: 'missing' } }] }, { text: 'Sorry.' }]);
    const run = await defineAgent({ name: 'support', model, capabilities: [skills({ paths: [new MemorySkillSource(review)] })] }).ask('Hi');
    expect(run.outcome).toBe('completed');
    expect(run.steps[0]!.toolResults[0]).toMatchObject({ status: 'error', content: 'Unknown skill: missing' });
  });

  it('rejects a SKILL.md over maxFileBytes with a named error', async () => {
    const source = new MemorySkillSource({ 'big/SKILL.md': skill('big', 'Big', 'x'.repeat(200)) });
    const error = await SkillCatalog.load({ sources: [source], maxFileBytes: 100 }).catch((caught: unknown) => caught);
    expect(SkillLimitError.isInstance(error) && error.limit).toBe('maxFileBytes');
    expect((error as Error).message).toBe('Skill exceeds 100 bytes: /skills/big/SKILL.md');
  });

  it('lists resources three folders deep and truncates past maxResourceFiles', async () => {
    const files: Record<string, string> = { 'deep/SKILL.md': skill('deep', 'Deep') };
    for (let index = 0; index < 5; index++) files[`deep/scripts/s${index}.sh`] = 'echo';
    files['deep/references/a/b/c.md'] = 'depth 2';
    files['deep/references/a/b/c/d.md'] = 'depth 3: not listed';
    files['deep/other/x.md'] = 'another folder: listed after the conventional ones';
    const catalog = await SkillCatalog.load({ sources: [new MemorySkillSource(files)], maxResourceFiles: 4 });
    expect(await catalog.resources('deep')).toEqual(['references/a/b/c.md', 'scripts/s0.sh', 'scripts/s1.sh', 'scripts/s2.sh', '... (truncated at 4 files)']);
  });

  it('lists every file of the skill folder (reference/, templates/, files beside SKILL.md), the conventional folders first', async () => {
    const files: Record<string, string> = {
      'pdf/SKILL.md': skill('pdf', 'Fill PDF forms', 'See [the forms guide](FORMS.md) and reference/api.md.'),
      'pdf/FORMS.md': 'forms',
      'pdf/reference/api.md': 'api',
      'pdf/templates/letter.txt': 'letter',
      'pdf/scripts/fill.py': 'print()',
      'pdf/assets/logo.png': 'png',
    };
    const catalog = await SkillCatalog.load({ sources: [new MemorySkillSource(files)] });
    expect(await catalog.resources('pdf')).toEqual(['assets/logo.png', 'scripts/fill.py', 'FORMS.md', 'reference/api.md', 'templates/letter.txt']);
    expect(await catalog.format('pdf')).toContain('  reference/api.md');
  });

  it('maps locations and resources to a resource root (absolute path)', async () => {
    const first = new MemorySkillSource({ 'review/SKILL.md': skill('review', 'Review code', 'Read the guide.'), 'review/references/guide.md': 'Guide' });
    const second = new MemorySkillSource({ 'deploy/SKILL.md': skill('deploy', 'Deploy code') });
    const catalog = await SkillCatalog.load({ sources: [first, second], resourceRoot: '/skills' });
    expect(catalog.get('review')?.location).toBe('/skills/review/SKILL.md');
    expect(catalog.discoveryPrompt()).toContain('<location>/skills/review/SKILL.md</location>');
    expect(await catalog.format('review')).toContain('Location: /skills/review/SKILL.md');
    expect(await catalog.format('review')).toContain('  /skills/review/references/guide.md');
    expect(catalog.get('deploy')?.location).toBe('/skills/deploy/SKILL.md');
  });

  it('rejects malformed resource roots with the seeds\' message', async () => {
    const source = new MemorySkillSource({});
    for (const resourceRoot of ['skills', 'workspace://', 'workspace:///skills', 'workspace://skills/', 'workspace://skills/../private', 'workspace://skills//private', 'workspace://skills\\private', 'workspace://skills\0/private', '/a/../b']) {
      await expect(SkillCatalog.load({ sources: [source], resourceRoot })).rejects.toThrow('resource_root must be an absolute path or workspace:// reference');
    }
  });

  it('takes skill paths and the resource root from the run options when the agent names none', async () => {
    const model = scriptedModel([{ text: 'Done.' }]);
    const agent = defineAgent({ name: 'support', model, instructions: 'Help.', capabilities: [skills()] });
    await agent.ask('Hi', { skillPaths: [new MemorySkillSource(review)], skillResourceRoot: '/mounted' });
    expect(systemOf(model)).toContain('<location>/mounted/review/SKILL.md</location>');
  });

  it('resolves paths per run from a function of the binding, and reports each catalog', async () => {
    const sources = { acme: new MemorySkillSource(review), other: new MemorySkillSource({}) };
    const loaded: string[][] = [];
    const model = scriptedModel([{ text: 'One.' }, { text: 'Two.' }]);
    const agent = defineAgent({
      name: 'support',
      model,
      instructions: 'Help.',
      capabilities: [skills({
        paths: (binding) => [sources[binding.run.invocation.context.tenant as 'acme' | 'other']],
        onLoad: (catalog) => void loaded.push(catalog.names),
      })],
    });
    await agent.ask('Hi', { context: { tenant: 'acme' } });
    await agent.ask('Hi', { context: { tenant: 'other' } });
    expect(loaded).toEqual([['review'], []]);
    expect(toolNames(model, 0)).toEqual(['skills']);
    expect(toolNames(model, 1)).toEqual([]);
  });

  it('accepts a catalog loaded once by the application', async () => {
    const catalog = await SkillCatalog.load({ sources: [new MemorySkillSource(review)] });
    expect(SkillCatalog.isInstance(catalog)).toBe(true);
    expect(SkillCatalog.isInstance({ names: [] })).toBe(false);
    const model = scriptedModel([{ toolCalls: [{ name: 'skills', input: { skill_name: 'review' } }] }, { text: 'Done.' }]);
    const run = await defineAgent({ name: 'support', model, capabilities: [skills(catalog)] }).ask('Hi');
    expect(run.steps[0]!.toolResults[0]!.content).toContain('Read every changed file.');
    expect(systemOf(model)).toContain('<available_skills>');
  });

  it('rejects skill paths that are neither sources nor workspace references', async () => {
    const agent = defineAgent({ name: 'support', model: scriptedModel([]), capabilities: [skills({ paths: ['/etc/skills'] })] });
    await expect(agent.ask('Hi')).rejects.toThrow(ConfigurationError);
  });
});
