/**
 * A `fetch` for the real provider packages (`createOpenAI({ fetch })`, …) that
 * answers each request with the next fixture and records the request bodies:
 * the whole path from response bytes to Ghostlight's events, in any runtime
 * (no server, no Node APIs).
 */

/** An HTTP error fixture (test/fixtures/provider-errors/*.json). */
export interface ErrorFixture {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** One answer of the fixture fetch. */
export type FetchAnswer =
  | { kind: 'json'; status?: number; headers?: Readonly<Record<string, string>>; body: unknown }
  | { kind: 'sse'; events: readonly string[] }
  /** Streams `events`, then fails the body read as a dropped connection does. */
  | { kind: 'sse-dropped'; events: readonly string[] };

/** An HTTP error fixture as an answer. */
export function errorAnswer(fixture: ErrorFixture): FetchAnswer {
  return { kind: 'json', status: fixture.status, ...(fixture.headers ? { headers: fixture.headers } : {}), body: fixture.body };
}

export function fixtureFetch(answers: FetchAnswer[]): typeof fetch & { bodies: unknown[]; urls: string[] } {
  const bodies: unknown[] = [];
  const urls: string[] = [];
  let next = 0;
  const handler = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    urls.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const text = typeof init?.body === 'string' ? init.body : '';
    bodies.push(text ? JSON.parse(text) : undefined);
    const answer = answers[next++];
    if (!answer) return new Response(JSON.stringify({ error: { message: `no fixture for request ${next}` } }), { status: 500 });
    if (answer.kind === 'json') {
      return new Response(JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: { 'content-type': 'application/json', ...answer.headers },
      });
    }
    const encoder = new TextEncoder();
    const dropped = answer.kind === 'sse-dropped';
    let sent = 0;
    // One event per read: erroring a stream discards what is still queued.
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const event = answer.events[sent++];
        if (event !== undefined) controller.enqueue(encoder.encode(`data: ${event}\n\n`));
        else if (dropped) controller.error(new TypeError('terminated'));
        else {
          controller.enqueue(encoder.encode('data: [DONE]\n\n'));
          controller.close();
        }
      },
    });
    return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
  return Object.assign(handler as typeof fetch, { bodies, urls });
}

/** A minimal Chat Completions stream answering `text` (OpenAI's chunk shape). */
export function chatText(text: string, inputTokens = 20): FetchAnswer {
  const chunk = (delta: object, finish: string | null, usage?: object) =>
    JSON.stringify({ id: 'chatcmpl-fixture', object: 'chat.completion.chunk', created: 1_764_000_000, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) });
  return {
    kind: 'sse',
    events: [
      chunk({ role: 'assistant', content: '' }, null),
      ...words(text).map((word) => chunk({ content: word }, null)),
      chunk({}, 'stop', { prompt_tokens: inputTokens, completion_tokens: words(text).length, total_tokens: inputTokens + words(text).length }),
    ],
  };
}

/** A minimal Anthropic Messages stream answering `text` (the documented event shapes). */
export function anthropicText(text: string, inputTokens = 20): FetchAnswer {
  return {
    kind: 'sse',
    events: [
      JSON.stringify({ type: 'message_start', message: { id: 'msg_fixture', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: inputTokens, output_tokens: 1 } } }),
      JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      ...words(text).map((word) => JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: word } })),
      JSON.stringify({ type: 'content_block_stop', index: 0 }),
      JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: words(text).length } }),
      JSON.stringify({ type: 'message_stop' }),
    ],
  };
}

function words(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [text];
}
