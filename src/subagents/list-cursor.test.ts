import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './list-cursor.ts';

describe('list cursors', () => {
  it('round-trips and is URL-safe', () => {
    const cursor = encodeCursor('2026-01-01T00:00:00.000Z', '/root/ünïcode_free');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(['2026-01-01T00:00:00.000Z', '/root/ünïcode_free']);
  });

  it('refuses anything else with a model-facing error', () => {
    for (const bad of ['not a cursor', btoa('{"a":1}'), btoa('[1,2]').replace(/=+$/, ''), 'A'.repeat(600)]) {
      expect(() => decodeCursor(bad)).toThrow('Invalid subagent list cursor');
    }
  });
});
