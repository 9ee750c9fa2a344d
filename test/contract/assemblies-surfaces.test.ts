import { describe, expect, it } from 'vitest';
import { asTool, defineAgent } from 'ghostlight';
import type { GhostlightEvent } from 'ghostlight';
import { AgUiEncoder } from 'ghostlight/ag-ui';
import { defineGraph, defineSwarm, HANDOFF_TOOL_NAME } from 'ghostlight/assemblies';
import { createAgentApp } from 'ghostlight/http';
import { UiMessageEncoder } from 'ghostlight/ui-stream';
import { lastUserText, respondingModel, scriptedModel } from '../support/scripted-model';

const node = (name: string, text?: string) => defineAgent({ name, model: respondingModel((call) => ({ text: text ?? `${name}: ${lastUserText(call)}` })) });

function pipeline() {
  return defineGraph({ name: 'pipeline', nodes: { draft: node('draft', 'a draft'), edit: node('edit', 'Edited.') }, start: 'draft', edges: [{ from: 'draft', to: 'edit' }], finish: 'edit' });
}

describe('assemblies on the surfaces (SPEC A13 assembly events, A23)', () => {
  it('are served by createAgentApp like agents: JSON runs with their trajectory, and SSE events', async () => {
    const app = createAgentApp({ agents: [pipeline(), node('plain')], auth: () => ({ actorId: 'ada' }) });
    expect(await (await app.request('/agents')).json()).toEqual({ agents: ['pipeline', 'plain'] });
    const response = await app.request('/agents/pipeline/runs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: 'Write it' }) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { agent: string; outcome: string; response: string; trajectory: Array<{ participant: string; status: string; output: unknown }> };
    expect(body).toMatchObject({ agent: 'pipeline', outcome: 'completed', response: 'Edited.' });
    expect(body.trajectory.map((step) => [step.participant, step.status, step.output])).toEqual([
      ['draft', 'completed', 'a draft'],
      ['edit', 'completed', 'Edited.'],
    ]);
    const sse = await app.request('/agents/pipeline/runs', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify({ input: 'Write it' }) });
    const text = await sse.text();
    const types = [...text.matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
    expect(types.filter((type) => type!.startsWith('assembly-') || type!.startsWith('run-'))).toEqual([
      'run-start',
      'assembly-step-start',
      'assembly-step-stop',
      'assembly-transition',
      'assembly-step-start',
      'assembly-step-stop',
      'run-stop',
    ]);
  });

  it('map to AG-UI steps and custom events', async () => {
    const events: GhostlightEvent[] = [];
    for await (const event of pipeline().stream('x')) events.push(event);
    const encoder = new AgUiEncoder({ threadId: 't', runId: 'r' });
    const out = events.flatMap((event) => encoder.encode(event));
    const start = events.find((event) => event.type === 'assembly-step-start') as GhostlightEvent & { stepId: string };
    expect(out.filter((event) => event.type === 'STEP_STARTED' || event.type === 'STEP_FINISHED').map((event) => [event.type, (event as { stepName: string }).stepName])).toEqual([
      ['STEP_STARTED', 'draft'],
      ['STEP_FINISHED', 'draft'],
      ['STEP_STARTED', 'edit'],
      ['STEP_FINISHED', 'edit'],
    ]);
    expect(out.find((event) => event.type === 'STEP_STARTED')).toEqual({
      type: 'STEP_STARTED',
      stepName: 'draft',
      timestamp: start.time,
      metadata: { stepId: start.stepId, assembly: 'pipeline', assemblyKind: 'graph', step: 1 },
    });
    expect(out.find((event) => event.type === 'CUSTOM' && event.name === 'ghostlight.assembly')).toMatchObject({
      value: { event: 'transition', assembly: 'pipeline', assemblyKind: 'graph', from: 'draft', to: 'edit', step: 1 },
    });
    expect(out.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { response: 'Edited.' } });
  });

  it('map to UI message data parts: one per step, updated in place, and transient routing parts', async () => {
    const swarm = defineSwarm({
      name: 'desk',
      members: { a: defineAgent({ name: 'a', model: scriptedModel([{ text: 'hidden', toolCalls: [{ name: HANDOFF_TOOL_NAME, input: { agent_id: 'b', message: 'yours' } }] }]) }), b: node('b', 'Done.') },
      start: 'a',
    });
    const encoder = new UiMessageEncoder();
    const chunks: Array<{ type: string; id?: string; data?: Record<string, unknown>; transient?: boolean; delta?: string }> = [];
    for await (const event of swarm.stream('x')) chunks.push(...(encoder.encode(event) as never[]));
    const steps = chunks.filter((chunk) => chunk.type === 'data-ghostlight-assembly-step');
    expect(steps.map((chunk) => [chunk.data!.participant, chunk.data!.status])).toEqual([
      ['a', 'running'],
      ['a', 'completed'],
      ['b', 'running'],
      ['b', 'completed'],
    ]);
    expect(steps[0]!.id).toBe(steps[1]!.id);
    expect(chunks.find((chunk) => chunk.type === 'data-ghostlight-assembly')).toMatchObject({ transient: true, data: { event: 'transition', from: 'a', to: 'b', handoff: true } });
    expect(chunks.filter((chunk) => chunk.type === 'text-delta').map((chunk) => chunk.delta).join('')).toBe('Done.');
  });

  it('a graph is a tool like any assembly', async () => {
    const lead = defineAgent({ name: 'lead', model: scriptedModel([{ toolCalls: [{ name: 'write', input: { input: 'a note' } }] }, { text: 'ok' }]), tools: [asTool(pipeline(), { name: 'write' })] });
    const run = await lead.ask('x');
    expect(run.steps[0]!.toolResults[0]).toMatchObject({ status: 'success', value: 'Edited.' });
  });
});
