import { nestsDeeper } from '../util/json.ts';
import { HttpError } from './http-error.ts';

/** The bounds every client JSON value is checked against. */
export interface ClientJsonLimits {
  /** Deepest nesting of arrays and objects. */
  readonly maxJsonDepth: number;
  /** Most characters of text and data, all strings together. */
  readonly maxInputChars: number;
}

/**
 * The one check every JSON value from a client passes before anything reads,
 * runs or stores it (request bodies, and tool arguments sent as JSON text):
 * nesting at most `maxJsonDepth` levels, and at most `maxInputChars`
 * characters in all its strings together (text, tool arguments, file data,
 * ids), so neither a deep value nor text hidden in another field can reach a
 * model or a session store. Iterative: a hostile value cannot overflow the
 * stack here.
 */
export function checkClientJson(value: unknown, field: string, limits: ClientJsonLimits): void {
  let chars = 0;
  const deep = nestsDeeper(value, limits.maxJsonDepth, (text) => {
    if ((chars += text.length) > limits.maxInputChars) {
      throw new HttpError(413, 'input_too_long', `${field} has more than ${limits.maxInputChars} characters of text and data; at most ${limits.maxInputChars} are allowed`);
    }
  });
  if (deep) throw new HttpError(400, 'too_deep', `${field} nests values more than ${limits.maxJsonDepth} levels deep`);
}
