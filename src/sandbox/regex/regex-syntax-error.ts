import { GhostlightError, errorMarker, markerGuard } from '../../error/ghostlight-error.ts';

const regexSyntaxMarker = errorMarker('RegexSyntaxError');

/**
 * A regular expression the linear-time engine cannot compile: malformed
 * syntax, or a feature it refuses (backreferences, lookaround, a repetition
 * count over 1,000). The message names the problem and quotes the fragment.
 */
export class RegexSyntaxError extends GhostlightError {
  readonly [regexSyntaxMarker] = true;
  override readonly name = 'RegexSyntaxError';

  constructor(message: string) {
    super({ message });
  }

  /** Whether `error` is a RegexSyntaxError. */
  static override isInstance = markerGuard<RegexSyntaxError>(regexSyntaxMarker);
}
