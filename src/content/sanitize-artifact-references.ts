import type { ModelMessage } from 'ai';

/** What replaces an artifact reference in persisted messages. */
export const UNAVAILABLE_ARTIFACT = '[artifact unavailable after run]';

const STORED_REFERENCE = /workspace:\/\/artifacts\/[A-Za-z0-9._-]+/g;

/**
 * Messages fit to persist in a session after the run: every artifact
 * reference (`workspace://artifacts/…`, and any in `references`) in text and
 * tool results becomes "[artifact unavailable after run]", because the run's
 * files do not outlive it.
 */
export function sanitizeArtifactReferences(messages: readonly ModelMessage[], references: readonly string[] = []): ModelMessage[] {
  const replace = (text: string) => {
    let out = text.replace(STORED_REFERENCE, UNAVAILABLE_ARTIFACT);
    for (const reference of references) if (reference.length > 0) out = out.split(reference).join(UNAVAILABLE_ARTIFACT);
    return out;
  };
  return messages.map((message) => {
    if (typeof message.content === 'string') return { ...message, content: replace(message.content) } as ModelMessage;
    const content = message.content.map((part) => {
      if (part.type === 'text') return { ...part, text: replace(part.text) };
      if (part.type !== 'tool-result') return part;
      const output = part.output;
      if (output.type === 'text' || output.type === 'error-text') return { ...part, output: { ...output, value: replace(output.value) } };
      if (output.type === 'json' || output.type === 'error-json') return { ...part, output: { ...output, value: JSON.parse(replace(JSON.stringify(output.value))) } };
      if (output.type === 'content') {
        return { ...part, output: { ...output, value: output.value.map((item) => (item.type === 'text' ? { ...item, text: replace(item.text) } : item)) } };
      }
      return part;
    });
    return { ...message, content } as ModelMessage;
  });
}
