import { describe, expect, it } from 'vitest';
import { EventLog } from './event-log.ts';

describe('EventLog', () => {
  it('numbers events and lets late readers replay from any sequence', async () => {
    const log = new EventLog('run-1', () => 42);
    log.append({ type: 'model-start', turn: 1 });
    const reader = (async () => {
      const seen: number[] = [];
      for await (const event of log.read(1)) seen.push(event.sequence);
      return seen;
    })();
    log.append({ type: 'model-start', turn: 2 });
    log.append({ type: 'run-stop', outcome: 'completed', response: '', output: '' });
    expect(await reader).toEqual([1, 2]);
    expect(log.events.map((event) => [event.runId, event.sequence, event.time])).toEqual([['run-1', 0, 42], ['run-1', 1, 42], ['run-1', 2, 42]]);
    expect(() => log.append({ type: 'model-start', turn: 3 })).toThrow('after the run ended');
  });

  it('hands a start failure to readers, and stops readers whose signal aborts', async () => {
    const failing = new EventLog('run-2');
    const pending = (async () => {
      for await (const _ of failing.read()) { /* none */ }
    })();
    failing.fail(new Error('misconfigured'));
    await expect(pending).rejects.toThrow('misconfigured');

    const open = new EventLog('run-3');
    const controller = new AbortController();
    const stopped = (async () => {
      let count = 0;
      for await (const _ of open.read(0, controller.signal)) count++;
      return count;
    })();
    controller.abort();
    expect(await stopped).toBe(0);
  });
});
