import type { ModelRequest } from '../agent/hooks.ts';

/** Characters per token of the estimate (LittleGhost's rule). */
export const CHARACTERS_PER_TOKEN = 4;

/**
 * The estimated tokens of a request: the JSON length of its instructions,
 * messages and tools (name, description, input schema) over four characters
 * per token, rounded up. Binary content counts as its base64 length, without
 * being encoded.
 *
 * @example
 * estimateRequestTokens({ instructions: undefined, messages: [{ role: 'user', content: 'hello' }], tools: [], settings: {} }) // 20
 */
export function estimateRequestTokens(request: Pick<ModelRequest, 'instructions' | 'messages' | 'tools'>): number {
  let binary = 0;
  const tools = request.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.input.jsonSchema }));
  let characters: number;
  try {
    characters = JSON.stringify({ instructions: request.instructions ?? null, messages: request.messages, tools }, (_key, value: unknown) => {
      if (value instanceof Uint8Array || value instanceof ArrayBuffer) {
        binary += Math.ceil(value.byteLength / 3) * 4;
        return '';
      }
      return value;
    }).length;
  } catch {
    characters = request.messages.reduce((sum, message) => sum + textLength(message.content), 0);
  }
  return Math.ceil((characters + binary) / CHARACTERS_PER_TOKEN);
}

function textLength(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  return content.reduce((sum: number, part: { text?: unknown }) => sum + (typeof part.text === 'string' ? part.text.length : 0), 0);
}
