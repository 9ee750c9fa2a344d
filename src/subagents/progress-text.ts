/** The longest progress text a snapshot shows. */
export const MAX_PROGRESS_CHARS = 160;

/** How much of the model's text progress is read from. */
export const MAX_PROGRESS_SOURCE_CHARS = 4_096;

const SEPARATOR = /[\p{Z}\p{Cc}\p{Cf}]/u;

/**
 * A one-line progress note from the text a model wrote before its tool calls:
 * runs of spaces, control and format characters become one space, at most
 * 160 characters, read from at most the first 4,096.
 */
export function progressText(text: string): string {
  let normalized = '';
  let pendingSpace = false;
  let read = 0;
  for (const character of text) {
    if (read >= MAX_PROGRESS_SOURCE_CHARS || normalized.length >= MAX_PROGRESS_CHARS) break;
    read++;
    if (SEPARATOR.test(character)) {
      pendingSpace = normalized.length > 0;
      continue;
    }
    if (pendingSpace) {
      normalized += ' ';
      pendingSpace = false;
      if (normalized.length >= MAX_PROGRESS_CHARS) break;
    }
    normalized += character;
  }
  return normalized.slice(0, MAX_PROGRESS_CHARS);
}
