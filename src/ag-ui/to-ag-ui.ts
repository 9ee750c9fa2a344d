import type { GhostlightEvent } from '../events/events.ts';
import type { AgUiEvent } from './ag-ui-event.ts';
import { AgUiEncoder } from './ag-ui-encoder.ts';
import type { AgUiRunIds } from './ag-ui-encoder.ts';

/**
 * Lazily translates a run's events into AG-UI events. If the source ends
 * without a terminal event or throws (a run that could not start), the
 * translation closes what is open and ends with `RUN_ERROR` carrying
 * `safeMessage`, never the original error text.
 *
 * @example
 * for await (const event of toAgUi(agent.stream('Hello'), { threadId: 't1', runId: 'r1' })) send(event);
 */
export async function* toAgUi(
  events: AsyncIterable<GhostlightEvent> | Iterable<GhostlightEvent>,
  ids: AgUiRunIds,
  safeMessage = 'The run could not start.',
): AsyncGenerator<AgUiEvent, void, undefined> {
  const encoder = new AgUiEncoder(ids);
  try {
    for await (const event of events) yield* encoder.encode(event);
  } catch {
    yield* encoder.fail(safeMessage);
    return;
  }
  yield* encoder.fail(safeMessage);
}
