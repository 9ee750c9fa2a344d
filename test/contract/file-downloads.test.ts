import { describe, expect, it } from 'vitest';
import { allowDownloads, ConfigurationError, defineAgent } from 'ghostlight';
import type { DownloadPolicy } from 'ghostlight';
import { scriptedModel } from '../support/scripted-model';

/** A fetch that records what it was asked and answers with `answer`. */
function recordingFetch(answer: () => Response) {
  const urls: string[] = [];
  const inits: Array<RequestInit | undefined> = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    urls.push(String(input));
    inits.push(init);
    return answer();
  }) as typeof globalThis.fetch;
  return { fetch, urls, inits };
}

const imageAt = (url: string) => [{ type: 'text' as const, text: 'What is in this picture?' }, { type: 'file' as const, data: new URL(url), mediaType: 'image/png' }];
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);

async function ask(url: string, downloads?: DownloadPolicy) {
  const model = scriptedModel([{ text: 'A cat.' }]);
  const agent = defineAgent({ name: 'viewer', model, modelCapabilities: { inputModalities: ['text', 'image'] }, ...(downloads ? { downloads: allowDownloads(downloads) } : {}) });
  const run = await agent.ask(imageAt(url));
  return { run, model };
}

describe('file URLs the model cannot read by URL', () => {
  it('are never downloaded by default: the run fails with UnsupportedInputError and nothing is fetched', async () => {
    const original = globalThis.fetch;
    const recorded = recordingFetch(() => new Response(PNG));
    globalThis.fetch = recorded.fetch;
    try {
      const { run, model } = await ask('https://files.example.com/cat.png');
      expect(run.outcome).toBe('failed');
      expect(run.errorInfo).toMatchObject({ name: 'UnsupportedInputError' });
      expect(run.response).toBe('The model cannot read a file at https://files.example.com by URL, and this agent does not download files from that host');
      expect(recorded.urls).toEqual([]);
      expect(model.calls).toHaveLength(0);
    } finally {
      globalThis.fetch = original;
    }
  });

  it('are downloaded from an allowed host, without following redirects, and reach the model as bytes', async () => {
    const recorded = recordingFetch(() => new Response(PNG, { headers: { 'content-type': 'image/png' } }));
    const { run, model } = await ask('https://files.example.com/cat.png', { allowHosts: ['files.example.com'], fetch: recorded.fetch });
    expect(run.outcome).toBe('completed');
    expect(recorded.urls).toEqual(['https://files.example.com/cat.png']);
    expect(recorded.inits[0]).toMatchObject({ redirect: 'manual' });
    expect(recorded.inits[0]?.signal).toBeInstanceOf(AbortSignal);
    const user = model.calls[0]!.prompt.find((message) => message.role === 'user')!;
    const file = (user.content as Array<{ type: string; data?: { type: string } }>).find((part) => part.type === 'file');
    expect(file?.data?.type).toBe('data');
  });

  it('refuses hosts outside the allow-list, plain http, IP literals under a wildcard, redirects and oversized files', async () => {
    const ok = () => new Response(PNG);
    const cases: Array<[string, DownloadPolicy, () => Response, string]> = [
      ['https://evil.example.net/cat.png', { allowHosts: ['files.example.com'] }, ok, 'does not download files from that host'],
      ['http://files.example.com/cat.png', { allowHosts: ['files.example.com'] }, ok, 'does not download files from that host'],
      ['https://127.0.0.1/cat.png', { allowHosts: ['*.0.0.1'] }, ok, 'does not download files from that host'],
      ['https://files.example.com/cat.png', { allowHosts: ['files.example.com'] }, () => new Response(null, { status: 302, headers: { location: 'http://127.0.0.1/' } }), 'failed (HTTP 302)'],
      ['https://files.example.com/big.png', { allowHosts: ['files.example.com'], maxBytes: 8 }, ok, 'larger than the 8-byte download limit'],
      ['https://files.example.com/big.png', { allowHosts: ['files.example.com'], maxBytes: 8 }, () => new Response(PNG, { headers: { 'content-length': '999999' } }), 'larger than the 8-byte download limit'],
    ];
    for (const [url, policy, answer, message] of cases) {
      const recorded = recordingFetch(answer);
      const { run, model } = await ask(url, { ...policy, fetch: recorded.fetch });
      expect({ url, outcome: run.outcome, name: run.errorInfo?.name }).toEqual({ url, outcome: 'failed', name: 'UnsupportedInputError' });
      expect(run.response).toContain(message);
      expect(model.calls).toHaveLength(0);
    }
  });

  it('checks the policy when it is made, and the downloader when the agent is defined', () => {
    expect(() => allowDownloads({ allowHosts: ['https://x.example.com/'] })).toThrow(ConfigurationError);
    expect(() => allowDownloads({ allowHosts: ['x.example.com'], maxBytes: 0 })).toThrow(ConfigurationError);
    expect(() => defineAgent({ name: 'a', model: scriptedModel([]), downloads: { allowHosts: ['x.example.com'] } as never })).toThrow(ConfigurationError);
  });
});
