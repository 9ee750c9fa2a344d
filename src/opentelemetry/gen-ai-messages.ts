/** One message part as the GenAI semantic conventions write it. */
type Part = Record<string, unknown> & { type: string };

/**
 * Captured messages (AI SDK model messages as JSON, or plain text) in the
 * shape of `gen_ai.input.messages` / `gen_ai.output.messages`:
 * `[{ role, parts: [{ type: 'text', content }, { type: 'tool_call', id, name, arguments }, …] }]`.
 * Anything else (a truncated capture) is returned as it was.
 */
export function genAiMessages(captured: string, role: 'user' | 'assistant'): string {
  let value: unknown = captured;
  if (captured.startsWith('[') || captured.startsWith('{')) {
    try {
      value = JSON.parse(captured);
    } catch {
      return captured;
    }
  }
  const messages = typeof value === 'string' ? [{ role, content: value }] : Array.isArray(value) ? value : [value];
  if (!messages.every((message) => typeof message === 'object' && message !== null && typeof (message as { role?: unknown }).role === 'string')) return captured;
  return JSON.stringify(messages.map((message: { role: string; content?: unknown }) => ({ role: message.role, parts: partsOf(message.content) })));
}

function partsOf(content: unknown): Part[] {
  if (typeof content === 'string') return [{ type: 'text', content }];
  if (!Array.isArray(content)) return [];
  return content.map((part: Record<string, unknown>): Part => {
    switch (part.type) {
      case 'text':
      case 'reasoning':
        return { type: part.type, content: part.text };
      case 'tool-call':
        return { type: 'tool_call', id: part.toolCallId, name: part.toolName, arguments: part.input };
      case 'tool-result':
        return { type: 'tool_call_response', id: part.toolCallId, response: (part.output as { value?: unknown } | undefined)?.value ?? part.output };
      case 'file':
      case 'image':
        return { type: 'blob', modality: String(part.mediaType ?? 'image').split('/')[0], mime_type: part.mediaType };
      default:
        return { type: String(part.type) };
    }
  });
}
