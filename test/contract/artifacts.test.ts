import { describe, expect, it } from 'vitest';
import { CancelledError, MemorySessionStore, ToolError, createArtifact, defineAgent, defineTool, deferredArtifact, imageBlock, textBlock, toolResult, CAPABILITY_ORDER } from 'ghostlight';
import { sanitizeArtifactReferences } from '../../src/content/sanitize-artifact-references';
import { ArtifactStore, DEFAULT_ARTIFACT_LIMITS, MemoryArtifactStorage, artifacts } from 'ghostlight/artifacts';
import { filesystemTools } from 'ghostlight/filesystem-tools';
import type { ArtifactOptions, ArtifactStorage } from 'ghostlight/artifacts';
import { scriptedModel } from '../support/scripted-model';
import { codeMode, defaultCodeEngine } from 'ghostlight/code-mode';
import { workspace } from 'ghostlight/workspace';
import { sandbox } from 'ghostlight/sandbox';

const csv = new TextEncoder().encode('heading,value\nalpha,1\n');
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);

type Prompt = Array<{ role: string; content: unknown }>;
const promptText = (prompt: Prompt) => JSON.stringify(prompt);
const toolResultText = (prompt: Prompt, index = 0) => {
  const tool = prompt.find((message) => message.role === 'tool')!;
  return ((tool.content as Array<{ output: { value: string } }>)[index]!.output.value);
};

function reportAgent(execute: () => unknown, options: { storage?: ArtifactStorage; resolve?: ArtifactOptions } = {}) {
  const storage = options.storage ?? new MemoryArtifactStorage();
  const tool = defineTool({ name: 'report', description: 'Build a report.', input: { type: 'object' }, execute });
  const model = scriptedModel([{ toolCalls: [{ id: 'call-1', name: 'report', input: {} }] }, { text: 'Done.' }]);
  const declared = typeof options.resolve === 'object' ? { storage, ...options.resolve } : { storage };
  const agent = defineAgent({ name: 'reports', model, tools: [tool], capabilities: [artifacts(declared)] });
  return { agent, model, storage };
}

describe('tool artifacts (C.39, C.42)', () => {
  it('stores an artifact under workspace://artifacts, shows it as a document, and keeps the value', async () => {
    const value = { rows: 1 };
    const { agent, model, storage } = reportAgent(() => toolResult({ value, artifacts: [createArtifact({ data: csv, mediaType: 'text/csv', name: 'report.csv' })] }));
    const run = await agent.ask('Export the report.');
    expect(run.outcome).toBe('completed');
    const result = run.steps[0]!.toolResults[0]!;
    expect(result.value).toBe(value);
    const stored = result.artifacts[0]!;
    expect(stored).toMatchObject({ kind: 'stored', name: 'report.csv', mediaType: 'text/csv', bytes: csv.byteLength });
    const reference = (stored as { reference: string }).reference;
    expect(reference).toMatch(/^workspace:\/\/artifacts\/[0-9a-f]{16}-[0-9a-f]{64}-report\.csv$/);
    expect(Array.from((storage as MemoryArtifactStorage).read(reference)!)).toEqual(Array.from(csv));

    const second = model.calls[1]!.prompt as Prompt;
    expect(toolResultText(second)).toBe(`{"rows":1}\n\nWorkspace artifacts:\n- ${reference}`);
    const presented = second.at(-1)!;
    expect(presented.role).toBe('user');
    expect(presented.content).toEqual([{ type: 'text', text: 'Artifact report.csv (text/csv):\nheading,value\nalpha,1\n' }]);
    expect(run.messages.filter((message) => message.role === 'user')).toHaveLength(1);
  });

  it('presents images and PDFs as files, and binaries no provider takes by reference only', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.7');
    const { agent, model } = reportAgent(() =>
      toolResult({
        value: 'ok',
        artifacts: [
          createArtifact({ data: png, mediaType: 'image/png' }),
          createArtifact({ data: pdf, mediaType: 'application/pdf', name: 'guide.pdf' }),
          createArtifact({ data: csv, mediaType: 'application/octet-stream' }),
        ],
      }),
    );
    await agent.ask('Chart it.');
    const prompt = model.calls[1]!.prompt as Prompt;
    const presented = prompt.at(-1)!.content as Array<{ type: string; mediaType: string; filename: string }>;
    expect(presented.map((part) => [part.type, part.mediaType, part.filename])).toEqual([
      ['file', 'image/png', 'artifact.png'],
      ['file', 'application/pdf', 'guide.pdf'],
    ]);
    expect(toolResultText(prompt)).toMatch(/\n\nArtifacts:\n- workspace:\/\/artifacts\/\S+-artifact \(application\/octet-stream, 22 bytes\)$/);
  });

  it('keeps an artifact deferred when the resolver returns nothing, and never shows its reference', async () => {
    const seen: string[] = [];
    const { agent, model } = reportAgent(() => toolResult({ value: 'complete', artifacts: [deferredArtifact({ reference: 'secret:record:1', mediaType: 'text/plain' })] }), {
      resolve: { resolve: (artifact) => void seen.push(artifact.reference) },
    });
    const run = await agent.ask('Export.');
    expect(seen).toEqual(['secret:record:1']);
    expect(run.steps[0]!.toolResults[0]!.artifacts[0]).toMatchObject({ kind: 'deferred', reference: 'secret:record:1' });
    expect(toolResultText(model.calls[1]!.prompt as Prompt)).toBe('complete');
    expect(promptText(model.calls[1]!.prompt as Prompt)).not.toContain('secret:record:1');
  });

  it('stores what the resolver loads, with the final media type it gives', async () => {
    const { agent, model } = reportAgent(() => toolResult({ value: { ok: true }, artifacts: [deferredArtifact({ reference: 'record:1', mediaType: 'application/octet-stream' })] }), {
      resolve: { resolve: (_artifact, { run }) => createArtifact({ data: png, mediaType: 'image/png', name: `${run.invocation.actorId}-chart.png` }) },
    });
    const run = await agent.ask('Chart.', { actorId: 'user-7' });
    expect(run.steps[0]!.toolResults[0]!.artifacts[0]).toMatchObject({ kind: 'stored', mediaType: 'image/png', name: 'user-7-chart.png' });
    expect(toolResultText(model.calls[1]!.prompt as Prompt)).toContain('Workspace artifacts:\n- workspace://artifacts/');
  });

  it('turns a failing artifact into an error result the model sees', async () => {
    const { agent, model } = reportAgent(() => toolResult({ value: 'x', artifacts: [deferredArtifact({ reference: 'r', mediaType: 'text/plain' })] }), {
      resolve: { resolve: () => 42 as never },
    });
    const run = await agent.ask('Export.');
    const result = run.steps[0]!.toolResults[0]!;
    expect(result.status).toBe('error');
    expect(result.content).toBe('Tool artifacts could not be prepared (ToolError)');
    expect(((result.error as Error).cause as Error).message).toBe('Artifact resolver must return bytes, an Artifact, or null');
    expect(toolResultText(model.calls[1]!.prompt as Prompt)).toBe('Tool artifacts could not be prepared (ToolError)');
  });
});

describe('oversized values (C.40, C.41)', () => {
  it('stores a value over 10,000 tokens as JSON and gives the model a reference and a preview', async () => {
    const value = { data: 'x'.repeat(50_000) };
    const { agent, model, storage } = reportAgent(() => value);
    const run = await agent.ask('Report.');
    const result = run.steps[0]!.toolResults[0]!;
    expect(result.value).toBe(value);
    const content = toolResultText(model.calls[1]!.prompt as Prompt);
    expect(content).toMatch(/^Full result: workspace:\/\/artifacts\/\S+-report-call-1\.json \(application\/json, 50011 bytes\)\n\nPreview:\n/);
    expect(content.length).toBeLessThan(2_000 * 4 + 400);
    const reference = content.slice('Full result: '.length, content.indexOf(' ('));
    expect(JSON.parse(new TextDecoder().decode((storage as MemoryArtifactStorage).read(reference)))).toEqual(value);
    expect(result.artifacts[0]).toMatchObject({ kind: 'stored', metadata: { completeResult: true } });
  });

  it('previews without a reference when the value cannot be stored', async () => {
    const broken: ArtifactStorage = {
      version: 'artifact-storage-v1',
      write: async () => {
        throw new Error('disk full');
      },
      remove: async () => undefined,
    };
    const value = 'y'.repeat(50_000);
    const { agent, model } = reportAgent(() => value, { storage: broken });
    const run = await agent.ask('Report.');
    expect(run.steps[0]!.toolResults[0]!.value).toBe(value);
    const content = toolResultText(model.calls[1]!.prompt as Prompt);
    expect(content.startsWith('Full result exceeded artifact storage limits.\n\nPreview:\n')).toBe(true);
    expect(content.length).toBeLessThan(2_000 * 4 + 200);
  });
});

describe('presentation budget (C.43)', () => {
  it('withholds media beyond 4 blocks in a turn and lists the references instead', async () => {
    const images = Array.from({ length: 5 }, (_, index) => createArtifact({ data: new Uint8Array([index]), mediaType: 'image/png', name: `p${index}.png` }));
    const { agent, model } = reportAgent(() => toolResult({ value: 'charts', artifacts: images }));
    await agent.ask('Chart.');
    const prompt = model.calls[1]!.prompt as Prompt;
    expect(prompt.at(-1)!.role).toBe('tool');
    const content = toolResultText(prompt);
    expect(content).toMatch(/\n\nArtifacts:\n- workspace:\/\/artifacts\/\S+-p0\.png \(image\/png, 1 bytes\)\n/);
    expect(content.match(/\(image\/png, 1 bytes\)/g)).toHaveLength(5);
  });

  it('withholds media beyond 8 MiB in a turn', async () => {
    const big = (name: string) => createArtifact({ data: new Uint8Array(5 * 1024 * 1024), mediaType: 'image/png', name });
    const first = defineTool({ name: 'first', description: 'One.', input: { type: 'object' }, execute: () => toolResult({ value: 1, artifacts: [big('a.png')] }) });
    const second = defineTool({ name: 'second', description: 'Two.', input: { type: 'object' }, execute: () => toolResult({ value: 2, artifacts: [big('b.png')] }) });
    const model = scriptedModel([{ toolCalls: [{ name: 'first', input: {} }] }, { toolCalls: [{ name: 'first', input: {} }, { name: 'second', input: {} }] }, { text: 'Done.' }]);
    const agent = defineAgent({ name: 'big', model, tools: [first, second], capabilities: [artifacts()] });
    const run = await agent.ask('Go.');
    expect(run.outcome).toBe('completed');
    const presented = (turn: number) => {
      const last = (model.calls[turn]!.prompt as Prompt).at(-1)!;
      return last.role === 'user' ? (last.content as unknown[]).length : 0;
    };
    expect(presented(1)).toBe(1);
    expect(presented(2)).toBe(1);
    const withheld = run.steps[1]!.toolResults.find((result) => result.content.includes('\n\nArtifacts:\n'));
    expect(withheld?.content).toMatch(/\(image\/png, 5242880 bytes\)$/);
  });
});

describe('storage limits, atomic batches and sessions (C.44)', () => {
  it('rejects an artifact over the per-artifact limit', async () => {
    const store = new ArtifactStore(new MemoryArtifactStorage(), { ...DEFAULT_ARTIFACT_LIMITS, maxArtifactBytes: 32 * 1024 * 1024 });
    const error = await store.write({ data: new Uint8Array(32 * 1024 * 1024 + 1), mediaType: 'application/octet-stream' }).catch((caught: unknown) => caught);
    expect(ToolError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('Artifact exceeds the 33554432-byte limit');
    const defaults = new ArtifactStore(new MemoryArtifactStorage(), DEFAULT_ARTIFACT_LIMITS);
    await expect(defaults.write({ data: new Uint8Array(8 * 1024 * 1024 + 1), mediaType: 'text/plain' })).rejects.toThrow('Artifact exceeds the 8388608-byte limit');
  });

  it('deduplicates identical artifacts and enforces the count and total limits', async () => {
    const store = new ArtifactStore(new MemoryArtifactStorage(), { ...DEFAULT_ARTIFACT_LIMITS, maxArtifactBytes: 4, maxTotalBytes: 6, maxArtifacts: 2 });
    const first = await store.write({ data: new TextEncoder().encode('one'), mediaType: 'text/plain', name: 'one.txt' });
    expect(await store.write({ data: new TextEncoder().encode('one'), mediaType: 'text/plain', name: 'one.txt' })).toBe(first);
    const other = await store.write({ data: new TextEncoder().encode('one'), mediaType: 'text/plain', name: 'one.txt', metadata: { source: 'second' } });
    expect(other.reference).not.toBe(first.reference);
    await expect(store.write({ data: new TextEncoder().encode('toolarge'), mediaType: 'text/plain' })).rejects.toThrow('Artifact exceeds the 4-byte limit');
    await expect(store.write({ data: new TextEncoder().encode('x'), mediaType: 'text/plain' })).rejects.toThrow('Artifact count exceeds the 2-item limit');
  });

  it('leaves no partial files when a batch fails, or is cancelled mid-way', async () => {
    const storage = new MemoryArtifactStorage();
    const store = new ArtifactStore(storage, { ...DEFAULT_ARTIFACT_LIMITS, maxTotalBytes: 4 });
    await expect(store.writeBatch([{ data: new TextEncoder().encode('one'), mediaType: 'text/plain' }, { data: new TextEncoder().encode('two'), mediaType: 'text/plain' }])).rejects.toThrow(
      'Artifacts exceed the 4-byte total limit',
    );
    expect(storage.references()).toEqual([]);
    expect(store.size).toBe(0);
    expect(store.totalBytes).toBe(0);
    await store.write({ data: new TextEncoder().encode('one'), mediaType: 'text/plain' });

    const controller = new AbortController();
    const cancelling: ArtifactStorage = {
      version: 'artifact-storage-v1',
      write: async (name, data) => {
        const reference = await storage.write(name, data);
        controller.abort(new CancelledError());
        return reference;
      },
      remove: (name) => storage.remove(name),
    };
    const cancelled = new ArtifactStore(cancelling, DEFAULT_ARTIFACT_LIMITS, { signal: controller.signal });
    await expect(cancelled.writeBatch([{ data: new TextEncoder().encode('a'), mediaType: 'text/plain' }, { data: new TextEncoder().encode('b'), mediaType: 'text/plain' }])).rejects.toThrow(
      CancelledError,
    );
    expect(storage.references()).toHaveLength(1);
  });

  it('reports an oversized tool artifact as an error result and stores nothing of its batch', async () => {
    const storage = new MemoryArtifactStorage();
    const { agent } = reportAgent(
      () =>
        toolResult({
          value: 'x',
          artifacts: [createArtifact({ data: csv, mediaType: 'text/csv', name: 'ok.csv' }), createArtifact({ data: new Uint8Array(8 * 1024 * 1024 + 1), mediaType: 'application/octet-stream' })],
        }),
      { storage },
    );
    const run = await agent.ask('Export.');
    const result = run.steps[0]!.toolResults[0]!;
    expect(result.content).toBe('Tool artifacts could not be prepared (ToolError)');
    expect(((result.error as Error).cause as Error).message).toBe('Artifact exceeds the 8388608-byte limit');
    expect(storage.references()).toEqual([]);
  });

  it('persists sessions with "[artifact unavailable after run]" in place of references', async () => {
    const sessions = new MemorySessionStore();
    const { agent } = reportAgent(() => toolResult({ value: 'saved', artifacts: [createArtifact({ data: csv, mediaType: 'text/csv', name: 'report.csv' })] }));
    await agent.ask('Export.', { sessions, sessionId: 'session-1' });
    const stored = await sessions.load('session-1', { actorId: undefined });
    const text = JSON.stringify(stored?.messages);
    expect(text).toContain('[artifact unavailable after run]');
    expect(text).not.toContain('workspace://artifacts/');
  });

  it('replaces artifact references in messages fit for a session', async () => {
    const { agent } = reportAgent(() => toolResult({ value: 'saved', artifacts: [createArtifact({ data: csv, mediaType: 'text/csv', name: 'report.csv' })] }));
    const run = await agent.ask('Export.');
    expect(JSON.stringify(run.messages)).toContain('workspace://artifacts/');
    const persisted = JSON.stringify(sanitizeArtifactReferences(run.messages));
    expect(persisted).not.toContain('workspace://artifacts/');
    expect(persisted).toContain('[artifact unavailable after run]');
  });
});

describe('input attachments', () => {
  it('stores the input images and documents; the model still gets the originals', async () => {
    const storage = new MemoryArtifactStorage();
    const model = scriptedModel([{ text: 'Seen.' }]);
    const agent = defineAgent({ name: 'review', model, capabilities: [artifacts({ storage })] });
    const run = await agent.ask([textBlock('Review'), imageBlock({ data: png, mediaType: 'image/png' })]);
    expect(run.outcome).toBe('completed');
    expect(storage.references()).toEqual([expect.stringMatching(/-attachment-2\.png$/)]);
    expect(Array.from(storage.read(storage.references()[0]!)!)).toEqual(Array.from(png));
    expect(promptText(model.calls[0]!.prompt as Prompt)).not.toContain('workspace://');
  });

  it('fails the run with InvocationError when the input cannot be stored', async () => {
    const model = scriptedModel([{ text: 'Seen.' }]);
    const agent = defineAgent({ name: 'review', model, capabilities: [artifacts({ limits: { maxArtifactBytes: 2 } })] });
    const run = await agent.ask([textBlock('Review'), imageBlock({ data: png, mediaType: 'image/png' })]);
    expect(run.outcome).toBe('failed');
    expect(run.error).toMatchObject({ name: 'InvocationError', message: 'Input artifacts could not be prepared (ToolError)' });
    expect(model.calls).toHaveLength(0);
  });
});

describe('workspace storage', () => {
  /** A stand-in with the workspace surface artifacts use (the real Workspace is checked in its own suite). */
  function fakeWorkspace() {
    const files = new Map<string, Uint8Array>();
    const paths = new Map<string, unknown>();
    return {
      files,
      paths,
      definePath: async (name: string) => void paths.set(name, { volume: 'root', path: name }),
      exists: async (target: string) => files.has(target),
      writeFile: async (target: string, content: Uint8Array) => {
        if (!paths.has(target.split('/')[2]!)) throw new Error('no such path');
        files.set(target, content);
      },
      delete: async (target: string) => void files.delete(target),
      reference: (target: string) => target,
    };
  }

  it('stores artifacts in the run’s workspace under workspace://artifacts, declaring the path when needed', async () => {
    const workspace = fakeWorkspace();
    const tool = defineTool({
      name: 'report',
      description: 'Build a report.',
      input: { type: 'object' },
      execute: () => toolResult({ value: 'ok', artifacts: [createArtifact({ data: csv, mediaType: 'text/csv', name: 'report.csv' })] }),
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'report', input: {} }] }, { text: 'Done.' }]);
    const agent = defineAgent({
      name: 'reports',
      model,
      tools: [tool],
      // A duck-typed stand-in for the Workspace class (ToolBinding types the real one), set up first by its order.
      capabilities: [
        artifacts(),
        { version: 'run-capability-v1', name: 'workspace', order: CAPABILITY_ORDER.resources, setup: () => ({ bind: { workspace: workspace as never } }) },
      ],
    });
    const run = await agent.ask('Export.');
    expect(run.outcome).toBe('completed');
    expect(workspace.paths.has('artifacts')).toBe(true);
    const [reference] = [...workspace.files.keys()];
    expect(reference).toMatch(/^workspace:\/\/artifacts\/[0-9a-f]{16}-[0-9a-f]{64}-report\.csv$/);
    expect(run.steps[0]!.toolResults[0]!.content).toContain(reference);
  });
});

describe('code mode', () => {
  it('brings a program’s artifacts back once, stored and shown, with the exec result', async () => {
    const engine = defaultCodeEngine();
    const chart = defineTool({
      name: 'chart',
      description: 'Draw a chart.',
      input: { type: 'object' },
      execute: () => toolResult({ value: { drawn: true }, artifacts: [createArtifact({ data: png, mediaType: 'image/png', name: 'chart.png' })] }),
    });
    const storage = new MemoryArtifactStorage();
    const source = 'const result = await tools.chart({});\nreturn result.drawn;';
    const model = scriptedModel([{ toolCalls: [{ id: 'x1', name: 'exec', input: { source } }] }, { text: 'Done.' }]);
    const agent = defineAgent({ name: 'coder', model, tools: [chart], capabilities: [artifacts({ storage }), codeMode({ engine })] });
    const run = await agent.ask('Chart it.');
    expect(run.outcome).toBe('completed');
    expect(storage.references()).toEqual([expect.stringMatching(/-chart\.png$/)]);
    const prompt = model.calls[1]!.prompt as Prompt;
    expect(toolResultText(prompt)).toContain(`Workspace artifacts:\n- ${storage.references()[0]}`);
    expect(prompt.at(-1)!.content).toEqual([expect.objectContaining({ type: 'file', mediaType: 'image/png', filename: 'chart.png' })]);
  });
});

describe('the real workspace', () => {
  it('stores tool artifacts in the run’s workspace, where a granted filesystem tool can list them', async () => {
    const report = defineTool({
      name: 'report',
      description: 'Build a report.',
      input: { type: 'object' },
      execute: () => toolResult({ value: 'ok', artifacts: [createArtifact({ data: csv, mediaType: 'text/csv', name: 'report.csv' })] }),
    });
    const model = scriptedModel([
      { toolCalls: [{ name: 'report', input: {} }] },
      { toolCalls: [{ name: 'list_files', input: { path: 'workspace://artifacts' } }] },
      { text: 'Done.' },
    ]);
    const agent = defineAgent({
      name: 'reports',
      model,
      tools: [report, filesystemTools()],
      capabilities: [workspace({ paths: { artifacts: 'artifacts' } }), sandbox({ policy: { files: { artifacts: 'read_only' } } }), artifacts()],
    });
    const run = await agent.ask('Export, then look.');
    expect(run.outcome).toBe('completed');
    const stored = run.steps[0]!.toolResults[0]!.artifacts[0] as { reference: string };
    expect(stored.reference).toMatch(/^workspace:\/\/artifacts\/[0-9a-f]{16}-[0-9a-f]{64}-report\.csv$/);
    const listing = run.steps[1]!.toolResults[0]!;
    expect(listing.status).toBe('success');
    expect(listing.content).toContain(stored.reference.split('/').pop());
  });

  it('declares workspace://artifacts in a workspace that lacks it', async () => {
    const report = defineTool({
      name: 'report',
      description: 'Build a report.',
      input: { type: 'object' },
      execute: () => toolResult({ value: 'ok', artifacts: [createArtifact({ data: csv, mediaType: 'text/csv', name: 'report.csv' })] }),
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'report', input: {} }] }, { text: 'Done.' }]);
    const run = await defineAgent({ name: 'reports', model, tools: [report], capabilities: [workspace(), artifacts()] }).ask('Export.');
    expect(run.outcome).toBe('completed');
    expect(run.steps[0]!.toolResults[0]!.artifacts[0]).toMatchObject({ kind: 'stored', reference: expect.stringMatching(/^workspace:\/\/artifacts\//) });
  });
});
