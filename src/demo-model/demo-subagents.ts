import type { DemoRequest, DemoTurn } from './demo-policy.ts';

const MAX_TOPICS = 4;
const FOLLOW_UP = /\b(follow[\s-]?up|continue|again|earlier|previous|list)\b/i;

interface Snapshot {
  subagent_id?: string;
  status?: string;
  response?: unknown;
  previous_response?: unknown;
  error?: string;
}

/**
 * The offline demo model as a lead agent (when `spawn_subagent` is offered):
 * it splits the request into topics ("prices and rivals" → two) and spawns
 * one async subagent per topic, waits for them (again while they are still
 * working), and answers from their responses. A request to follow up lists
 * the subagents and sends the first one the request. Deterministic.
 * Returns undefined when the request is not a subagent one.
 */
export function planSubagentTurn(request: DemoRequest): DemoTurn | undefined {
  const spawn = request.tools.find((tool) => tool.name === 'spawn_subagent');
  if (!spawn) return undefined;
  const last = request.toolResults.at(-1);
  if (last) return afterResult(request, last.toolName);
  if (FOLLOW_UP.test(request.userText) && request.tools.some((tool) => tool.name === 'list_subagents')) {
    return { text: 'Let me check on my subagents.', toolCalls: [{ toolName: 'list_subagents', input: {} }] };
  }
  const kind = kindFor(spawn.inputSchema);
  const topics = topicsOf(request.userText);
  const names = new Set<string>();
  return {
    text: `I will ask ${topics.length} ${kind} subagents to work on this at the same time.`,
    toolCalls: topics.map((topic) => ({
      toolName: 'spawn_subagent',
      input: { kind, task_name: taskName(topic, names), task: `Research ${topic}`, mode: 'async' },
    })),
  };
}

function afterResult(request: DemoRequest, toolName: string): DemoTurn | undefined {
  const results = request.toolResults.filter((result) => result.toolName === toolName).map((result) => parse(result.content));
  switch (toolName) {
    case 'spawn_subagent': {
      const finished = results.filter((result) => result.status === 'finished');
      if (finished.length === results.length) return { text: answer(finished) };
      return { toolCalls: [{ toolName: 'wait_for_subagents', input: {} }] };
    }
    case 'wait_for_subagents': {
      const waited = results.at(-1) ?? {};
      if (waited.status === 'still_working') return { toolCalls: [{ toolName: 'wait_for_subagents', input: {} }] };
      return { text: answer((waited.subagents as Snapshot[] | undefined) ?? []) };
    }
    case 'list_subagents': {
      const first = ((results.at(-1)?.subagents as Snapshot[] | undefined) ?? [])[0];
      if (!first?.subagent_id) return { text: 'I have no subagents to follow up with yet (offline demo model).' };
      return { toolCalls: [{ toolName: 'send_message_to_subagent', input: { subagent_id: first.subagent_id, message: request.userText, mode: 'sync' } }] };
    }
    case 'send_message_to_subagent':
      return { text: answer(results) };
    default:
      return undefined;
  }
}

function answer(snapshots: ReadonlyArray<Snapshot>): string {
  if (snapshots.length === 0) return 'My subagents had nothing to report (offline demo model).';
  const lines = snapshots.map((snapshot) => {
    const response = snapshot.response ?? snapshot.previous_response;
    const text = response === undefined ? (snapshot.error ?? snapshot.status ?? 'no answer') : typeof response === 'string' ? response : JSON.stringify(response);
    const short = text.length > 300 ? `${text.slice(0, 300)}…` : text;
    return `- ${snapshot.subagent_id}: ${short.replaceAll('\n', ' ')}`;
  });
  return `Here is what my ${snapshots.length === 1 ? 'subagent' : `${snapshots.length} subagents`} found (offline demo model):\n${lines.join('\n')}`;
}

/** The topics of a request: the parts joined by "and", "vs" or commas; two halves of it when it has only one. */
function topicsOf(text: string): string[] {
  const cleaned = text.replace(/^\s*(please\s+)?(research|compare|investigate|look into|find out about|study)\s+/i, '').replace(/[?.!]+\s*$/, '');
  const parts = cleaned
    .split(/\s*(?:,|;|\band\b|\bvs\.?|\bversus\b)\s*/i)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  if (parts.length >= 2) return parts.slice(0, MAX_TOPICS);
  const topic = parts[0] ?? (text.trim() || 'the question');
  return [`the background of ${topic}`, `recent developments in ${topic}`];
}

function taskName(topic: string, taken: Set<string>): string {
  const base = topic.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 32) || 'task';
  let name = base;
  for (let index = 2; taken.has(name) || name === 'root'; index++) name = `${base}_${index}`;
  taken.add(name);
  return name;
}

function kindFor(schema: Record<string, unknown>): string {
  const kinds = ((schema.properties as Record<string, { enum?: unknown[] }> | undefined)?.kind?.enum ?? []).filter((value): value is string => typeof value === 'string');
  return kinds.find((kind) => /research/i.test(kind)) ?? kinds[0] ?? 'researcher';
}

function parse(content: string): Snapshot & Record<string, unknown> {
  try {
    const value = JSON.parse(content) as unknown;
    return typeof value === 'object' && value !== null ? (value as Snapshot & Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
