import type { SubagentView } from './view-event';

/** The view of a subagent lifecycle event (shared with the Worker runner, which gets the same fields over AG-UI). */
export function subagentView(value: Record<string, unknown>): SubagentView {
  const text = (key: string) => (typeof value[key] === 'string' ? { [key]: value[key] as string } : {});
  return {
    type: 'subagent',
    event: String(value.event),
    subagentId: String(value.subagentId),
    kind: String(value.kind),
    status: String(value.status),
    ...(typeof value.turn === 'number' ? { turn: value.turn } : {}),
    ...text('parentToolCallId'),
    ...text('toolCallId'),
    ...text('toolName'),
    ...text('toolStatus'),
  };
}
