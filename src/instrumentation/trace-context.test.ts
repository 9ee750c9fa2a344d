import { describe, expect, it } from 'vitest';
import { traceContextFrom, traceIdOf } from './trace-context.ts';

describe('W3C trace context', () => {
  it('reads a valid traceparent and its tracestate', () => {
    const headers = new Headers({ traceparent: '00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01', tracestate: 'rojo=00f067aa0ba902b7' });
    expect(traceContextFrom(headers)).toEqual({ traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01', tracestate: 'rojo=00f067aa0ba902b7' });
    expect(traceIdOf('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it.each([
    ['no header', undefined],
    ['garbage', 'hello'],
    ['all-zero trace id', '00-00000000000000000000000000000000-00f067aa0ba902b7-01'],
    ['all-zero parent id', '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01'],
    ['the invalid version ff', 'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'],
    ['version 00 with extra fields', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra'],
    ['a short trace id', '00-4bf92f3577b34da6a3ce929d0e0e47-00f067aa0ba902b7-01'],
  ])('ignores %s', (_case, traceparent) => {
    expect(traceContextFrom(new Headers(traceparent === undefined ? {} : { traceparent }))).toBeUndefined();
  });

  it('accepts a future version with extra fields, and drops an oversized tracestate', () => {
    const future = '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-what-comes-next';
    expect(traceIdOf(future)).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    const context = traceContextFrom(new Headers({ traceparent: future, tracestate: `a=${'x'.repeat(600)}` }));
    expect(context).toEqual({ traceparent: future });
  });
});
