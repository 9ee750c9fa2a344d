import { describe, expect, it } from 'vitest';
import { captureValue, capturePolicy, redactSecrets } from './content-capture.ts';
import { Instrumentation } from './instrumentation.ts';

describe('content capture', () => {
  it('is off unless enabled', () => {
    expect(capturePolicy(undefined)).toBeUndefined();
    expect(capturePolicy(false)).toBeUndefined();
    expect(capturePolicy(true)).toMatchObject({ maxBytes: 16_384 });
    expect(capturePolicy({ maxBytes: 10 })).toMatchObject({ maxBytes: 64 });
  });

  it('redacts secret-looking keys (camelCase too), bearer tokens, API keys and the values it is told', () => {
    const value = {
      authorization: 'Bearer abcdefghijklmnopqrstuvwxyz',
      callbackToken: 'secret-callback-value',
      privateKey: 'private-key-value',
      note: 'Use Bearer abcdefghijklmnopqrstuvwxyz123456 and sk-proj-abcdefghijklmnopqrst with internal-value',
      nested: [{ password: 'hunter2', city: 'Paris' }],
    };
    expect(redactSecrets(value, ['internal-value'])).toEqual({
      authorization: '[REDACTED]',
      callbackToken: '[REDACTED]',
      privateKey: '[REDACTED]',
      note: 'Use [REDACTED] and [REDACTED] with [REDACTED]',
      nested: [{ password: '[REDACTED]', city: 'Paris' }],
    });
  });

  it('runs the scrubber on redacted values, redacts its output again, and bounds the result as valid JSON', () => {
    const policy = capturePolicy({ maxBytes: 128, scrubber: () => ({ authorization: 'Bearer abcdefghijklmnopqrstuvwxyz', kept: 'é'.repeat(10) }) })!;
    expect(JSON.parse(captureValue(policy, { anything: 1 }, 'tool', 'output')!)).toEqual({ authorization: '[REDACTED]', kept: 'é'.repeat(10) });
    const long = captureValue(capturePolicy({ maxBytes: 128 })!, { message: 'é'.repeat(500) }, 'model', 'input')!;
    expect(new TextEncoder().encode(long).byteLength).toBeLessThanOrEqual(128);
    expect(JSON.parse(long)).toMatchObject({ truncated: true });
  });

  it('drops a value whose scrubber throws, and survives cycles', () => {
    const throwing = capturePolicy({ scrubber: () => {
      throw new Error('scrubber unavailable');
    } })!;
    expect(captureValue(throwing, 'private', 'tool', 'input')).toBeUndefined();
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    expect(captureValue(capturePolicy(true)!, cyclic, 'tool', 'input')).toContain('"name":"loop"');
  });

  it('puts content on operations only when the tree captures it, and errors carry their message only then', () => {
    const seen: Array<Record<string, unknown>> = [];
    const bus = new Instrumentation({ subscribers: [{ start: (_name, attributes) => seen.push({ ...attributes }) }] });
    bus.start('run', { agent: 'a' }, { content: { input: 'private question' } }).finish({}, new Error('private failure'));
    const captured = bus.start('run', { agent: 'a' }, { captureContent: true, content: { input: 'shared question' } });
    captured.finish({}, new Error('shared failure'));
    expect(seen).toEqual([{ agent: 'a' }, { agent: 'a', input: 'shared question' }]);
    expect(captured.error).toMatchObject({ type: 'Error', message: 'shared failure' });
    expect(captured.error?.stack).toContain('shared failure');
  });
});
