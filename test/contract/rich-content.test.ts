import { describe, expect, it } from 'vitest';
import { UnsupportedInputError, defineAgent, documentBlock, imageBlock, messagesFromJson, messagesToJson, textBlock, userMessage } from 'ghostlight';
import type { ModelMessage } from 'ai';
import { scriptedModel } from '../support/scripted-model';

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 128]);
const pdf = new TextEncoder().encode('%PDF-1.7 refund guide');
const csv = new TextEncoder().encode('heading,value\nalpha,1\n');

function agentFor(inputModalities: Array<'text' | 'image' | 'pdf' | 'file'>) {
  const model = scriptedModel([{ text: 'Seen.' }]);
  const agent = defineAgent({ name: 'reviewer', model, modelCapabilities: { inputModalities } });
  return { model, agent };
}

describe('rich content and capability checks (C.37)', () => {
  it('sends text, image and document blocks to the provider as they are', async () => {
    const { model, agent } = agentFor(['text', 'image', 'pdf']);
    const run = await agent.ask(
      userMessage([
        textBlock('Describe the visible damage without guessing its cause.'),
        imageBlock({ data: png, mediaType: 'image/png' }),
        documentBlock({ data: pdf, mediaType: 'application/pdf', name: 'refund-guide.pdf' }),
      ]),
    );
    expect(run.outcome).toBe('completed');
    const content = model.calls[0]!.prompt.at(-1)!.content as unknown as Array<Record<string, unknown>>;
    expect(content.map((part) => part.type)).toEqual(['text', 'file', 'file']);
    expect(content[1]).toMatchObject({ mediaType: 'image/png' });
    expect(content[2]).toMatchObject({ mediaType: 'application/pdf', filename: 'refund-guide.pdf' });
  });

  it('rejects an image for a text-only model before the provider call', async () => {
    const { model, agent } = agentFor(['text']);
    const run = await agent.ask([textBlock('What is this?'), imageBlock({ data: png, mediaType: 'image/png' })]);
    expect(run.outcome).toBe('failed');
    expect(UnsupportedInputError.isInstance(run.error)).toBe(true);
    expect((run.error as Error).name).toBe('UnsupportedInputError');
    expect(run.response).toBe(
      'The selected model does not support image attachments. Choose a compatible model or remove those attachments.',
    );
    expect(model.calls).toHaveLength(0);
  });

  it('accepts a PDF on a file model and rejects other documents on a pdf-only model', async () => {
    const fileModel = agentFor(['text', 'file']);
    const accepted = await fileModel.agent.ask([textBlock('Summarise.'), documentBlock({ data: pdf, mediaType: 'application/pdf', name: 'guide.pdf' })]);
    expect(accepted.outcome).toBe('completed');

    const pdfOnly = agentFor(['text', 'pdf']);
    const rejected = await pdfOnly.agent.ask([textBlock('Summarise.'), documentBlock({ data: csv, mediaType: 'text/csv', name: 'report.csv' })]);
    expect(rejected.outcome).toBe('failed');
    expect(rejected.response).toContain('does not support file attachments');
    expect(pdfOnly.model.calls).toHaveLength(0);
  });

  it('does not check models whose modalities are unknown', async () => {
    const model = scriptedModel([{ text: 'Seen.' }]);
    const run = await defineAgent({ name: 'unknown', model }).ask([imageBlock({ data: png, mediaType: 'image/png' })]);
    expect(run.outcome).toBe('completed');
  });

  it('rejects malformed blocks', () => {
    expect(() => imageBlock({ data: png, mediaType: 'application/pdf' })).toThrow('image media type');
    expect(() => documentBlock({ data: pdf, mediaType: 'application/pdf', name: '' })).toThrow('needs a name');
    expect(() => imageBlock({ data: 'not bytes' as never, mediaType: 'image/png' })).toThrow('needs its bytes');
  });
});

describe('JSON round trip (C.38)', () => {
  it('encodes bytes as base64 with "encoding":"base64" and decodes them back', () => {
    const messages: ModelMessage[] = [
      userMessage([textBlock('Review'), imageBlock({ data: png, mediaType: 'image/png', name: 'chart.png' }), documentBlock({ data: pdf, mediaType: 'application/pdf', name: 'guide.pdf' })]),
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ];
    const text = JSON.stringify(messagesToJson(messages));
    expect(text).toContain('"encoding":"base64"');
    expect(text).toContain(`"data":"${btoa(String.fromCharCode(...png))}"`);
    const restored = messagesFromJson(JSON.parse(text) as unknown[]);
    const parts = restored[0]!.content as Array<{ type: string; data?: Uint8Array; filename?: string }>;
    expect(Array.from(parts[1]!.data!)).toEqual(Array.from(png));
    expect(Array.from(parts[2]!.data!)).toEqual(Array.from(pdf));
    expect(parts[1]!.filename).toBe('chart.png');
    expect(restored[1]).toEqual(messages[1]);
    expect(JSON.stringify(messagesToJson(restored))).toBe(text);
  });
});
