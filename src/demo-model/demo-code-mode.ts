import type { DemoRequest, DemoTurn } from './demo-policy.ts';

/** One catalog method read back from the code-mode declarations in the instructions. */
interface DeclaredTool {
  name: string;
  description: string;
  /** Arguments built from the user's words, or undefined when a required argument has a type the demo cannot fill. */
  args: Record<string, unknown> | undefined;
}

const MAX_PROGRAM_CALLS = 10;
const STOP_WORDS = new Set(['the', 'and', 'for', 'with', 'what', 'which', 'this', 'that', 'from', 'your', 'have', 'about', 'please', 'tool', 'tools', 'last', 'over', 'how', 'much', 'many']);

/**
 * The offline demo model in code mode (when `exec` is offered): it reads the
 * catalog from the TypeScript declarations in its instructions, writes one
 * program that calls every tool matching the user's words with `Promise.all`
 * and summarises their results (counts and numeric totals), calls `wait`
 * while the program is still working, and answers from the observation.
 * Returns undefined when the request is not a code-mode one.
 */
export function planCodeModeTurn(request: DemoRequest): DemoTurn | undefined {
  if (!request.tools.some((tool) => tool.name === 'exec')) return undefined;
  const last = request.toolResults.at(-1);
  if (last && (last.toolName === 'exec' || last.toolName === 'wait' || last.toolName === 'stop')) {
    const observation = parseObservation(last.content);
    if (!last.isError && observation?.status === 'still_working') return { toolCalls: [{ toolName: 'wait', input: {} }] };
    return { text: answerFromObservation(last.content, last.isError, observation) };
  }
  if (request.toolResults.length > 0) return undefined;
  const catalog = readDeclarations(request.instructions, request.userText);
  const words = significantWords(request.userText);
  const chosen = catalog
    .filter((tool) => tool.args !== undefined)
    .map((tool) => ({ tool, score: overlap(words, significantWords(`${tool.name.replaceAll(/[_$]/g, ' ')} ${tool.description}`)) }))
    .filter((entry) => entry.score > 0)
    .sort((left, right) => right.score - left.score)
    .slice(0, MAX_PROGRAM_CALLS)
    .map((entry) => entry.tool);
  if (chosen.length === 0) {
    const names = catalog.map((tool) => tool.name).join(', ');
    return { text: `I am Ghostlight's offline demo model in code mode. None of my tools matches "${request.userText}". My programs can call: ${names || 'nothing'}.` };
  }
  return { toolCalls: [{ toolName: 'exec', input: { source: programFor(chosen) } }] };
}

function programFor(tools: readonly DeclaredTool[]): string {
  const calls = tools.map((tool) => `  [${JSON.stringify(tool.name)}, ${JSON.stringify(tool.args)}],`).join('\n');
  return `// Written by Ghostlight's offline demo model: call the matching tools at once, then summarise.
const calls = [
${calls}
];
const results = await Promise.all(calls.map(async ([name, args]) => {
  try {
    return { name, value: await tools.call(name, args) };
  } catch (error) {
    return { name, error: error.message };
  }
}));
const summary = {};
for (const { name, value, error } of results) {
  if (error !== undefined) {
    summary[name] = { failed: error };
  } else if (Array.isArray(value)) {
    const totals = {};
    for (const row of value) {
      for (const [key, field] of Object.entries(row ?? {})) {
        if (typeof field === 'number' && !/(^|_)(id|day|index)$/i.test(key)) totals[key] = Math.round(((totals[key] ?? 0) + field) * 100) / 100;
      }
    }
    summary[name] = { items: value.length, totals };
  } else {
    summary[name] = value;
  }
}
text(\`Called \${results.length} tool\${results.length === 1 ? '' : 's'} in parallel.\`);
return summary;`;
}

interface Observation {
  status?: string;
  output?: string;
  value?: unknown;
  error?: string;
}

function parseObservation(content: string): Observation | undefined {
  try {
    const parsed = JSON.parse(content) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Observation) : undefined;
  } catch {
    return undefined;
  }
}

function answerFromObservation(content: string, isError: boolean, observation: Observation | undefined): string {
  if (isError || !observation) return `My program could not run (offline demo model): ${content}`;
  if (observation.status === 'error') return `My program failed (offline demo model): ${observation.error ?? 'unknown error'}`;
  if (observation.status === 'terminated') return 'I stopped my program before it finished (offline demo model).';
  const lines = [`Here is what my program found (offline demo model):`];
  if (observation.output) lines.push(observation.output.trim());
  const highlights = highestTotals(observation.value);
  lines.push(...highlights);
  const value = JSON.stringify(observation.value, null, 2) ?? '';
  lines.push(value.length > 1200 ? `${value.slice(0, 1200)}…` : value);
  return lines.filter((line) => line.length > 0).join('\n');
}

/** For every numeric total two or more tools share, the tool with the highest one. */
function highestTotals(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const best = new Map<string, { name: string; total: number; count: number }>();
  for (const [name, entry] of Object.entries(value as Record<string, unknown>)) {
    const totals = (entry as { totals?: Record<string, unknown> } | null)?.totals;
    if (typeof totals !== 'object' || totals === null) continue;
    for (const [key, total] of Object.entries(totals)) {
      if (typeof total !== 'number') continue;
      const current = best.get(key);
      if (!current) best.set(key, { name, total, count: 1 });
      else best.set(key, total > current.total ? { name, total, count: current.count + 1 } : { ...current, count: current.count + 1 });
    }
  }
  return [...best.entries()].filter(([, entry]) => entry.count > 1).map(([key, entry]) => `Highest ${key}: ${entry.name} (${entry.total}).`);
}

/**
 * Reads `tools.<name>(args: …)` methods back from the declarations (the format
 * of `renderDeclarations`): the description comment above each method and its
 * top-level argument properties, filled from the user's words.
 */
function readDeclarations(instructions: string, userText: string): DeclaredTool[] {
  const start = instructions.indexOf('declare const tools: {');
  if (start < 0) return [];
  const lines = instructions.slice(start).split('\n').slice(1);
  const tools: DeclaredTool[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (line.startsWith('};')) break;
    const method = /^ {2}([A-Za-z_$][\w$]*)\(args: (.*)$/.exec(line);
    if (!method) continue;
    const description = /^ {2}\/\*\* (.*) \*\/$/.exec(lines[index - 1] ?? '')?.[1] ?? '';
    const properties: string[] = [];
    if (method[2] === '{') {
      for (index++; index < lines.length && !lines[index]!.startsWith('  })'); index++) {
        if (/^ {4}[^ /]/.test(lines[index]!)) properties.push(lines[index]!.trim());
      }
    }
    tools.push({ name: method[1]!, description, args: argumentsFrom(properties, userText) });
  }
  return tools;
}

function argumentsFrom(properties: readonly string[], text: string): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  for (const property of properties) {
    const match = /^("?)([^"?:]+)\1(\??): (.+);$/.exec(property);
    if (!match) continue;
    const [, , key, optional, type] = match;
    const literals = type!.split(' | ').map((part) => /^"(.*)"$/.exec(part)?.[1]);
    if (literals.every((literal) => literal !== undefined)) {
      const lower = text.toLowerCase();
      args[key!] = literals.find((literal) => lower.includes(literal!.toLowerCase())) ?? literals[0];
      continue;
    }
    if (optional) continue;
    if (type === 'number' || type === 'number | null') args[key!] = Number(text.match(/-?\d+(\.\d+)?/)?.[0] ?? 1);
    else if (type === 'string' || type === 'string | null') args[key!] = text.match(/"([^"]+)"/)?.[1] ?? text;
    else if (type === 'boolean') args[key!] = false;
    else return undefined;
  }
  return args;
}

function significantWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  return new Set(words.filter((word) => word.length >= 3 && !STOP_WORDS.has(word)).map((word) => (word.length > 4 && word.endsWith('s') ? word.slice(0, -1) : word)));
}

function overlap(left: Set<string>, right: Set<string>): number {
  let count = 0;
  for (const word of left) if (right.has(word)) count++;
  return count;
}
