import { describe, expect, it } from 'vitest';
import { extensionOf, normalizedName } from './artifact-store.ts';

describe('artifact file names', () => {
  it('keeps the last segment, replaces unsafe characters, bounds the length and names unnamed files', () => {
    expect(normalizedName('../../etc/passwd', 'text/plain')).toBe('passwd');
    expect(normalizedName('C:\\reports\\Q1 report (final).csv', 'text/csv')).toBe('Q1_report__final_.csv');
    expect(normalizedName('..', 'text/plain')).toBe('artifact');
    expect(normalizedName(undefined, 'image/png')).toBe('artifact.png');
    expect(normalizedName('', 'application/octet-stream')).toBe('artifact');
    expect(normalizedName('a'.repeat(300), 'text/plain')).toHaveLength(120);
    expect(extensionOf('APPLICATION/PDF')).toBe('.pdf');
  });
});
