import { describe, expect, it } from 'vitest';
import { AsyncScope, UseAfterDisposeError } from './async-scope.ts';

describe('AsyncScope', () => {
  it('closes in reverse order, runs every cleanup and reports failures', async () => {
    const scope = new AsyncScope();
    const order: string[] = [];
    scope.own({ close: () => void order.push('first') });
    scope.defer(() => {
      order.push('second');
      throw new Error('second failed');
    });
    scope.own({ [Symbol.asyncDispose]: async () => void order.push('third') });
    const failures = await scope.close();
    expect(order).toEqual(['third', 'second', 'first']);
    expect(failures.map((error) => (error as Error).message)).toEqual(['second failed']);
    expect(await scope.close()).toEqual([]);
    expect(scope.alive).toBe(false);
    expect(() => scope.defer(() => undefined)).toThrow(UseAfterDisposeError);
  });

  it('works with await using', async () => {
    const order: string[] = [];
    {
      await using scope = new AsyncScope();
      scope.defer(() => void order.push('closed'));
    }
    expect(order).toEqual(['closed']);
  });
});
