import type { GhostlightEvent } from 'ghostlight';
import type { AssemblyView } from './view-event';

/** The view of an assembly event: a step lighting up on the diagram, or a move for the timeline. */
export function assemblyView(event: GhostlightEvent): AssemblyView | undefined {
  switch (event.type) {
    case 'assembly-step-start':
      return { type: 'assembly', label: `${event.assemblyKind} step ${event.participant}`, participant: event.participant, state: 'running', stepId: event.stepId };
    case 'assembly-step-stop':
      return { type: 'assembly', label: `${event.participant} finished`, participant: event.participant, state: 'completed', stepId: event.stepId };
    case 'assembly-step-error':
      return { type: 'assembly', label: `${event.participant} failed (${event.errorType})`, participant: event.participant, state: event.terminal ? 'failed' : 'retrying', stepId: event.stepId };
    case 'assembly-step-retry':
      return { type: 'assembly', label: `${event.participant} retried`, participant: event.participant, state: 'retrying', stepId: event.stepId };
    case 'assembly-transition':
      return { type: 'assembly', label: `${event.handoff ? 'handoff' : event.error ? 'error route' : 'route'} ${event.from} → ${event.to}` };
    case 'assembly-fork':
      return { type: 'assembly', label: `fan-out ${event.from} → ${event.branches.join(', ')}` };
    case 'assembly-join':
      return { type: 'assembly', label: `fan-in ${event.from.join(', ')} → ${event.to}` };
    case 'assembly-handoff-loop':
      return { type: 'assembly', label: `handoff loop ${event.from} → ${event.to} (${event.count})` };
    default:
      return undefined;
  }
}
