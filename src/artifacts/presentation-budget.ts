import type { FilePart, TextPart } from 'ai';

/**
 * Bounds the media shown to the model in one turn. A result's blocks are
 * accepted whole or not at all, in the order results finish; the run resets
 * the budget before each model turn.
 */
export class PresentationBudget {
  readonly #maxBlocks: number;
  readonly #maxBytes: number;
  #blocks = 0;
  #bytes = 0;

  constructor(maxBlocks: number, maxBytes: number) {
    this.#maxBlocks = maxBlocks;
    this.#maxBytes = maxBytes;
  }

  /** Takes `blocks` if they fit, and says whether they did. */
  accept(blocks: ReadonlyArray<TextPart | FilePart>): boolean {
    const bytes = blocks.reduce((sum, block) => sum + blockBytes(block), 0);
    if (this.#blocks + blocks.length > this.#maxBlocks || this.#bytes + bytes > this.#maxBytes) return false;
    this.#blocks += blocks.length;
    this.#bytes += bytes;
    return true;
  }

  /** Starts a new turn. */
  reset(): void {
    this.#blocks = 0;
    this.#bytes = 0;
  }
}

function blockBytes(block: TextPart | FilePart): number {
  if (block.type === 'text') return new TextEncoder().encode(block.text).byteLength;
  return block.data instanceof Uint8Array ? block.data.byteLength : 0;
}
