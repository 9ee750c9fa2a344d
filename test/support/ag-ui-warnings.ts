import { afterEach, beforeEach, expect, vi } from 'vitest';

/**
 * Fails each test of the enclosing suite that makes `@ag-ui/client` warn: it
 * only warns (`[ag-ui]` on console.warn) about fields its schemas do not know,
 * so a silent pass would hide an encoding mistake. Other warnings still print.
 */
export function failOnAgUiWarnings(): void {
  let warnings: string[] = [];
  beforeEach(() => {
    warnings = [];
    const original = console.warn;
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
      warnings.push(args.map(String).join(' '));
      if (!args.map(String).join(' ').includes('[ag-ui]')) original(...args);
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    expect(warnings.filter((warning) => warning.includes('[ag-ui]'))).toEqual([]);
  });
}
