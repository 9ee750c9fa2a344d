/**
 * Output a program wrote with `text`, handed out in observations: each
 * observation returns what was written since the previous one, pieces joined
 * with newlines, and a later observation starts with the newline that joins
 * it to the earlier ones (so concatenating observations gives the whole).
 */
export class ProgramOutput {
  #pieces: string[] = [];
  #returnedAny = false;

  /** Adds one piece. */
  push(text: string): void {
    this.#pieces.push(text);
  }

  /** Takes everything written since the previous call. */
  drain(): string {
    if (this.#pieces.length === 0) return '';
    const text = this.#pieces.join('\n');
    this.#pieces = [];
    if (this.#returnedAny) return `\n${text}`;
    this.#returnedAny = true;
    return text;
  }
}
