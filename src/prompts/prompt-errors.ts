import { GhostlightError, errorMarker, markerGuard } from '../error/ghostlight-error.ts';

const templateMarker = errorMarker('PromptTemplateError');
const missingTemplateMarker = errorMarker('MissingPromptTemplateError');
const invalidTemplateMarker = errorMarker('InvalidPromptTemplateError');
const missingLocalMarker = errorMarker('MissingPromptLocalError');

/** A prompt view could not be rendered (the family of the three errors below). */
export class PromptTemplateError extends GhostlightError {
  readonly [templateMarker] = true;
  override readonly name: string = 'PromptTemplateError';

  constructor(message: string, options: { cause?: unknown } = {}) {
    super({ message, cause: options.cause });
  }

  /** Whether `error` is a PromptTemplateError (or a subclass). */
  static override isInstance = markerGuard<PromptTemplateError>(templateMarker);
}

/** No template of that name is registered ("Prompt template not found: NAME"). */
export class MissingPromptTemplateError extends PromptTemplateError {
  readonly [missingTemplateMarker] = true;
  override readonly name = 'MissingPromptTemplateError';

  /** Whether `error` is a MissingPromptTemplateError. */
  static override isInstance = markerGuard<MissingPromptTemplateError>(missingTemplateMarker);
}

/** An unsafe template name, a cycle of partials, recursion past the depth limit, or a template that returned no text. */
export class InvalidPromptTemplateError extends PromptTemplateError {
  readonly [invalidTemplateMarker] = true;
  override readonly name = 'InvalidPromptTemplateError';

  /** Whether `error` is an InvalidPromptTemplateError. */
  static override isInstance = markerGuard<InvalidPromptTemplateError>(invalidTemplateMarker);
}

/** A template read a local nobody supplied ("Missing prompt template local: NAME"). */
export class MissingPromptLocalError extends PromptTemplateError {
  readonly [missingLocalMarker] = true;
  override readonly name = 'MissingPromptLocalError';
  /** The local's name. */
  readonly local: string;

  constructor(local: string) {
    super(`Missing prompt template local: ${local}`);
    this.local = local;
  }

  /** Whether `error` is a MissingPromptLocalError. */
  static override isInstance = markerGuard<MissingPromptLocalError>(missingLocalMarker);
}
