// Skills: what loading a catalog costs, what it adds to a run, and what progressive disclosure saves
// against the alternative of putting every skill's instructions in the system prompt.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MockLanguageModelV4 } from 'ai/test';
import { defineAgent } from 'ghostlight';
import { MemorySkillSource, SkillCatalog, skills } from 'ghostlight/skills';
import type { AgentDefinition } from 'ghostlight';
import { median, ms, sample } from './harness';
import type { BenchSection } from './harness';

const corpusRoot = resolve(fileURLToPath(import.meta.url), '../../../shared/realworld/skills-corpus/vercel-ai');
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

function readTree(root: string, prefix = ''): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(join(root, prefix))) {
    const path = prefix ? `${prefix}/${name}` : name;
    if (statSync(join(root, path)).isDirectory()) Object.assign(files, readTree(root, path));
    else files[path] = readFileSync(join(root, path), 'utf8');
  }
  return files;
}

function synthetic(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let index = 0; index < count; index++) {
    const name = `skill-${index}`;
    files[`${name}/SKILL.md`] = `---\nname: ${name}\ndescription: Handle request type ${index} with the documented procedure.\nmetadata:\n  owner: team-${index % 7}\n---\n# Procedure ${index}\n\n1. Gather the facts.\n2. Decide.\n3. Report.\n`;
    files[`${name}/references/guide.md`] = `Guide ${index}`;
  }
  return files;
}

const model = () =>
  new MockLanguageModelV4({
    doStream: async () => ({
      stream: new ReadableStream({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: 't' });
          controller.enqueue({ type: 'text-delta', id: 't', delta: 'ok' });
          controller.enqueue({ type: 'text-end', id: 't' });
          controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
          controller.close();
        },
      }),
    }),
  });

export async function bench(): Promise<BenchSection> {
  if (!existsSync(corpusRoot)) {
    console.warn(`[bench] SKIPPED: ${corpusRoot} is missing (see REALWORLD.md).`);
    return { key: 'skills', title: 'Skills (issue 6)', markdown: 'Skipped: ../shared/realworld/skills-corpus is missing.' };
  }
  const corpus = new MemorySkillSource(readTree(corpusRoot));
  const large = new MemorySkillSource(synthetic(1_000));

  // Cold: every front matter is new text (a unique comment line), so nothing comes from the parse cache.
  const corpusFiles = readTree(corpusRoot);
  let generation = 0;
  const fresh = (files: Record<string, string>) => {
    generation++;
    return new MemorySkillSource(Object.fromEntries(Object.entries(files).map(([path, text]) => [path, text.replace(/^---\n/, `---\n# ${generation}\n`)])));
  };
  const coldCorpus = median(await sample(() => SkillCatalog.load({ sources: [fresh(corpusFiles)] }), 50, 5));
  const largeFiles = synthetic(1_000);
  const coldLarge = median(await sample(() => SkillCatalog.load({ sources: [fresh(largeFiles)] }), 7, 2));
  const loadCorpus = median(await sample(() => SkillCatalog.load({ sources: [corpus] }), 50, 5));
  const loadLarge = median(await sample(() => SkillCatalog.load({ sources: [large] }), 7, 2));

  const catalog = await SkillCatalog.load({ sources: [corpus] });
  const prompt = catalog.discoveryPrompt();
  const everything = catalog.skills.map((skill) => `## ${skill.name}\n\n${skill.instructions}`).join('\n\n');
  const bytes = (text: string) => new TextEncoder().encode(text).byteLength;

  const base: Omit<AgentDefinition, 'model'> = { name: 'bench', instructions: 'Help the developer.' };
  const plain = defineAgent({ ...base, model: model() });
  const shared = defineAgent({ ...base, model: model(), capabilities: [skills(catalog)] });
  const perRun = defineAgent({ ...base, model: model(), capabilities: [skills({ paths: [corpus] })] });
  const rounds = 5;
  const results = { plain: [] as number[], shared: [] as number[], perRun: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    results.plain.push(median(await sample(() => plain.ask('hi'), 100, 10)));
    results.shared.push(median(await sample(() => shared.ask('hi'), 100, 10)));
    results.perRun.push(median(await sample(() => perRun.ask('hi'), 100, 10)));
  }
  const [runPlain, runShared, runPerRun] = [median(results.plain), median(results.shared), median(results.perRun)];

  const markdown = `
The real corpus (${catalog.names.length} skills from vercel/ai, ../shared/realworld/skills-corpus) in a \`MemorySkillSource\`,
and 1,000 synthetic skills (the \`maxSkills\` default), each with one reference.

| what | median |
|---|---|
| \`SkillCatalog.load\`, real corpus (${catalog.names.length} skills, ${(bytes(Object.values(corpusFiles).join('')) / 1024).toFixed(0)} KiB), cold | ${ms(coldCorpus)} |
| the same, files unchanged since an earlier load (front matter from the parse cache) | ${ms(loadCorpus)} |
| \`SkillCatalog.load\`, 1,000 skills, cold | ${ms(coldLarge)} |
| the same, unchanged files | ${ms(loadLarge)} |
| \`agent.ask\`, no skills (scripted one-turn model) | ${ms(runPlain)} |
| \`agent.ask\`, \`skills: catalog\` loaded once and shared | ${ms(runShared)} (**${(runShared / runPlain).toFixed(2)}×** the plain run) |
| \`agent.ask\`, \`skills: { paths }\` loaded every run (unchanged files) | ${ms(runPerRun)} (**${(runPerRun / runPlain).toFixed(2)}×** the plain run) |

Progressive disclosure against the alternative of putting every instruction in the system prompt: the
\`<available_skills>\` text is **${(bytes(prompt) / 1024).toFixed(1)} KiB** where all ${catalog.names.length} instruction
bodies are **${(bytes(everything) / 1024).toFixed(1)} KiB**: **${(bytes(prompt) / bytes(everything)).toFixed(3)}×** the bytes on every
model call, until the model loads the one skill it needs.

Cold loading is dominated by YAML parsing (\`yaml\` builds a full document per front matter); parsed front matter is kept in a bounded cache by its text (1,024 entries of at most 16 KiB, values
deep-frozen), so a catalog reloaded every run from unchanged files skips it. Load a catalog once (\`skills: await SkillCatalog.load(...)\`) when its files do not change between runs; per-run
loading is for sources that do (the run's workspace, per-tenant paths).
`;
  return { key: 'skills', title: 'Skills (issue 6)', markdown };
}
