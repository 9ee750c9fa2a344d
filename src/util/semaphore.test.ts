import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore.ts';

describe('Semaphore', () => {
  it('never runs more than its size at once and serves waiters in order', async () => {
    const semaphore = new Semaphore(2);
    let active = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      [0, 1, 2, 3, 4].map((index) =>
        semaphore.run(async () => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((resolve) => setTimeout(resolve, 5));
          order.push(index);
          active--;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(order.slice(2)).toEqual([2, 3, 4]);
  });

  it('releases the slot when a task throws', async () => {
    const semaphore = new Semaphore(1);
    await expect(semaphore.run(() => Promise.reject(new Error('x')))).rejects.toThrow('x');
    await expect(semaphore.run(() => 'ok')).resolves.toBe('ok');
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});
