import { describe, expect, it } from 'vitest';
import { ConfigurationError, defineAgent } from 'ghostlight';
import {
  definePrompts,
  InvalidPromptTemplateError,
  MAX_PROMPT_DEPTH,
  MissingPromptLocalError,
  MissingPromptTemplateError,
  PromptTemplateError,
} from 'ghostlight/prompts';
import type { PromptTemplate } from 'ghostlight/prompts';
import { bundledSkillSource, skills } from 'ghostlight/skills';
import { scriptedModel } from '../support/scripted-model';

const systemOf = (model: ReturnType<typeof scriptedModel>) => String(model.calls[0]?.prompt[0]?.content);

describe('prompt views (A19): templates, locals and partials', () => {
  const prompts = definePrompts({
    'support/system': ({ product }, partial) => `You support ${product}.\n${partial('voice', { tone: 'warm' })}\n${partial('shared/rules', { product })}`,
    'support/_voice': ({ tone }) => `Keep a ${tone} tone.`,
    'shared/_rules': ({ product }) => `Only discuss ${product}.`,
    'shared/_leaky': ({ product }) => `Leaks ${product}`,
    'support/leaky': (_locals, partial) => partial('shared/leaky'),
  });

  it('renders a template with its locals and partials (relative to the calling template, or by path)', () => {
    expect(prompts.render('support/system', { product: 'Acme' })).toBe('You support Acme.\nKeep a warm tone.\nOnly discuss Acme.');
    expect(prompts.names).toEqual(['support/system', 'support/_voice', 'shared/_rules', 'shared/_leaky', 'support/leaky']);
  });

  it('gives a partial only the locals passed to it', () => {
    expect(() => prompts.render('support/leaky', { product: 'Acme' })).toThrow(new MissingPromptLocalError('product'));
  });

  it('a missing local is MissingPromptLocalError naming it; `in` checks never throw', () => {
    const error = (() => {
      try {
        prompts.render('support/system', {});
      } catch (caught) {
        return caught;
      }
    })();
    expect(MissingPromptLocalError.isInstance(error)).toBe(true);
    expect(PromptTemplateError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('Missing prompt template local: product');
    const optional = definePrompts({ greet: (locals) => ('name' in locals ? `Hi ${locals.name}` : 'Hi') });
    expect(optional.render('greet')).toBe('Hi');
    expect(optional.render('greet', { name: 'Ada' })).toBe('Hi Ada');
  });

  it('a missing template is MissingPromptTemplateError; unsafe names are InvalidPromptTemplateError', () => {
    expect(() => prompts.render('support/missing')).toThrow(new MissingPromptTemplateError('Prompt template not found: support/missing'));
    for (const name of ['', '../secrets', '/etc/system', 'a\\b', 'a\u0000b', 'a//b']) {
      expect(() => prompts.render(name), JSON.stringify(name)).toThrow(InvalidPromptTemplateError);
    }
    expect(prompts.render('./support/_voice', { tone: 'calm' })).toBe('Keep a calm tone.');
    expect(() => prompts.render('support/_voice', { 'not-a-name': 1 })).toThrow('Invalid prompt local name: "not-a-name"');
    expect(() => definePrompts({ bad: 'text' as unknown as PromptTemplate })).toThrow(ConfigurationError);
  });

  it('detects cycles of partials and names the path', () => {
    const cyclic = definePrompts({ a: (_l, partial) => partial('b'), _b: (_l, partial) => partial('c'), _c: (_l, partial) => partial('b') });
    expect(() => cyclic.render('a')).toThrow(new InvalidPromptTemplateError('Prompt template cycle detected: a -> _b -> _c -> _b'));
  });

  it(`allows ${MAX_PROMPT_DEPTH} nested templates and refuses the ${MAX_PROMPT_DEPTH + 1}st`, () => {
    const chain = (length: number) =>
      definePrompts(Object.fromEntries(Array.from({ length }, (_, index) => [index === 0 ? 'level0' : `_level${index}`, ((_l, partial) => (index === length - 1 ? 'bottom' : partial(`level${index + 1}`))) as PromptTemplate])));
    expect(MAX_PROMPT_DEPTH).toBe(20);
    expect(chain(20).render('level0')).toBe('bottom');
    expect(() => chain(21).render('level0')).toThrow(new InvalidPromptTemplateError('Prompt template recursion exceeds 20 levels'));
  });

  it('a template that returns something other than text is InvalidPromptTemplateError', () => {
    const odd = definePrompts({ odd: () => 42 as unknown as string });
    expect(() => odd.render('odd')).toThrow('Prompt template odd did not return text');
  });
});

describe('prompt views as agent instructions', () => {
  it('render each run with the standard locals (invocation, run, agent) and the view’s own', async () => {
    const prompts = definePrompts({
      'support/system': ({ agent, run, invocation, product, tier }) =>
        `${agent.name} for ${product} (${tier}); run ${run.runId === invocation.runId ? 'matches' : 'differs'}; account ${invocation.context.accountId}.`,
    });
    const model = scriptedModel([{ text: 'ok' }]);
    await defineAgent({
      name: 'support',
      model,
      instructions: prompts.view('support/system', { locals: (binding) => ({ product: 'Acme', tier: binding.run.invocation.context.tier }) }),
    }).ask('hi', { context: { accountId: 'a-1', tier: 'pro' } });
    expect(systemOf(model)).toBe('support for Acme (pro); run matches; account a-1.');
  });

  it('without a name, the view is the agent’s conventional template <name>/system', async () => {
    const prompts = definePrompts({ 'triage/system': ({ agent }) => `I am ${agent.name}.` });
    const model = scriptedModel([{ text: 'ok' }]);
    await defineAgent({ name: 'triage', model, instructions: prompts.view() }).ask('hi');
    expect(systemOf(model)).toBe('I am triage.');
    await expect(defineAgent({ name: 'unnamed', model: scriptedModel([]), instructions: prompts.view() }).ask('hi')).rejects.toThrow(
      new MissingPromptTemplateError('Prompt template not found: unnamed/system'),
    );
  });

  it('a missing local fails before the run starts (ask throws MissingPromptLocalError)', async () => {
    const prompts = definePrompts({ 'a/system': ({ product }) => `For ${product}` });
    await expect(defineAgent({ name: 'a', model: scriptedModel([]), instructions: prompts.view('a/system') }).ask('hi')).rejects.toSatisfy(MissingPromptLocalError.isInstance);
  });

  it('skillsPrompt: a view that places the skill catalog gets it once, where it put it; without skills it is empty', async () => {
    const files = { 'refunds/SKILL.md': '---\nname: refunds\ndescription: Refund rules.\n---\nQuote the window.\n' };
    const prompts = definePrompts({
      'placed/system': ({ skillsPrompt }) => `Rules first.\n\n${skillsPrompt}\n\nThen answer.`,
      'ignored/system': () => 'No catalog here.',
    });
    const placedModel = scriptedModel([{ text: 'ok' }]);
    await defineAgent({ name: 'placed', model: placedModel, instructions: prompts.view('placed/system'), capabilities: [skills({ paths: [bundledSkillSource(files)] })] }).ask('hi');
    const placed = systemOf(placedModel);
    expect(placed.match(/<available_skills>/g)).toHaveLength(1);
    expect(placed.startsWith('Rules first.')).toBe(true);
    expect(placed.trimEnd().endsWith('Then answer.')).toBe(true);

    const ignoredModel = scriptedModel([{ text: 'ok' }]);
    await defineAgent({ name: 'ignored', model: ignoredModel, instructions: prompts.view('ignored/system'), capabilities: [skills({ paths: [bundledSkillSource(files)] })] }).ask('hi');
    expect(systemOf(ignoredModel)).toMatch(/^No catalog here\.\n\n[\s\S]*<available_skills>/);

    const bareModel = scriptedModel([{ text: 'ok' }]);
    await defineAgent({ name: 'placed', model: bareModel, instructions: prompts.view('placed/system') }).ask('hi');
    expect(systemOf(bareModel)).toBe('Rules first.\n\n\n\nThen answer.');
  });
});
