import { InvocationError } from './control-errors.ts';
import { errorMarker, markerGuard } from './ghostlight-error.ts';

const interjectionMarker = errorMarker('AgentInterjectionError');

/**
 * An interjection could not be delivered: the run is not running any more
 * ("Agent is not currently running"), it finished before the next model
 * boundary ("Agent finished before the interjection was delivered"), or it
 * already took 1,000 interjections ("Agent interjection capacity reached").
 */
export class AgentInterjectionError extends InvocationError {
  readonly [interjectionMarker] = true;
  override readonly name = 'AgentInterjectionError';

  /** Whether `error` is an AgentInterjectionError. */
  static override isInstance = markerGuard<AgentInterjectionError>(interjectionMarker);
}
