import { describe, expect, it } from 'vitest';
import { sha256Hex, sha256HexSync } from './sha256.ts';

describe('sha256HexSync', () => {
  it('matches Web Crypto across block boundaries and multi-byte text', async () => {
    const inputs = ['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), 'a'.repeat(119), 'héllo ✓ 𝄞'.repeat(40)];
    for (const input of inputs) expect(sha256HexSync(input)).toBe(await sha256Hex(input));
    expect(sha256HexSync('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
