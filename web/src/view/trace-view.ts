import type { RecordedOperation } from 'ghostlight';
import { duration, h, replaceChildren } from '../dom';

/** What a row says about an operation: its name and the attribute that tells it apart. */
function label(operation: RecordedOperation): string {
  const attributes = operation.attributes;
  const detail = attributes.toolName ?? attributes.model ?? attributes.agent ?? (attributes.turn !== undefined ? `turn ${String(attributes.turn)}` : undefined) ?? attributes.action ?? attributes.server;
  return detail === undefined ? operation.name : `${operation.name} ${String(detail)}`;
}

/**
 * The Trace tab: the last run's operations (from the instrumentation bus) as
 * a waterfall, one row per operation, indented by nesting, the bar placed on
 * the run's time axis.
 */
export class TraceView {
  readonly element = h('div', { class: 'trace', 'aria-label': 'Run trace' }, h('p', { class: 'hint' }, 'Send a message to see its trace.'));

  /** Shows one run's operations (`where`: the tab or the Worker). */
  show(operations: readonly RecordedOperation[], where: string): void {
    if (operations.length === 0) {
      replaceChildren(this.element, h('p', { class: 'hint' }, `No trace was recorded for this run (${where}).`));
      return;
    }
    const start = Math.min(...operations.map((operation) => operation.startTime));
    const end = Math.max(...operations.map((operation) => operation.endTime ?? operation.startTime));
    const total = Math.max(end - start, 0.001);
    const depth = new Map<string, number>();
    const rows = operations.map((operation) => {
      const level = operation.parentId === undefined ? 0 : (depth.get(operation.parentId) ?? 0) + 1;
      depth.set(operation.id, level);
      const took = (operation.endTime ?? end) - operation.startTime;
      const left = ((operation.startTime - start) / total) * 100;
      const width = Math.max((took / total) * 100, 0.5);
      const failed = operation.error !== undefined || operation.attributes.status === 'error';
      return h(
        'li',
        { class: `trace-row${failed ? ' error' : ''}`, 'data-operation': operation.name, 'data-depth': level, title: `${label(operation)}: ${duration(took)}` },
        h('span', { class: 'trace-label', style: `padding-left: ${level * 12}px` }, label(operation)),
        h('span', { class: 'trace-track' }, h('span', { class: 'trace-bar', style: `left: ${left.toFixed(2)}%; width: ${width.toFixed(2)}%` })),
        h('time', {}, duration(took)),
      );
    });
    const traceId = operations.find((operation) => operation.traceId)?.traceId;
    replaceChildren(
      this.element,
      h('p', { class: 'hint' }, `${operations.length} operations · ${duration(total)} · ${where}${traceId ? ` · trace ${traceId}` : ''}`),
      h('ol', { class: 'trace-rows' }, ...rows),
    );
  }
}
