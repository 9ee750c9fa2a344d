import type { ModelMessage } from 'ai';
import { sanitizeArtifactReferences } from '../content/sanitize-artifact-references.ts';

/**
 * The messages a session may keep: system messages, transient messages
 * (`providerOptions.ghostlight.transient: true`) and reasoning parts are
 * dropped, a message emptied by that is dropped, and provider continuity
 * data (`providerOptions` on assistant parts: item ids, encrypted reasoning)
 * is removed so a restored conversation never replays it. Artifact
 * references become "[artifact unavailable after run]".
 */
export function persistableMessages(messages: readonly ModelMessage[]): ModelMessage[] {
  const kept: ModelMessage[] = [];
  for (const message of messages) {
    if (!message || typeof message !== 'object') continue;
    if (message.role === 'system') continue;
    if (isTransient(message)) continue;
    if (message.role !== 'assistant' || typeof message.content === 'string') {
      kept.push(message);
      continue;
    }
    const content = message.content
      .filter((part) => part.type !== 'reasoning' && part.type !== 'reasoning-file')
      .map((part) => {
        if (!('providerOptions' in part) || part.providerOptions === undefined) return part;
        const { providerOptions: _dropped, ...rest } = part;
        return rest as typeof part;
      });
    if (content.length === 0 && message.content.length > 0) continue;
    const { providerOptions: _dropped, ...rest } = message;
    kept.push({ ...rest, content });
  }
  return sanitizeArtifactReferences(kept);
}

function isTransient(message: ModelMessage): boolean {
  const options = message.providerOptions as Record<string, Record<string, unknown> | undefined> | undefined;
  return options?.ghostlight?.transient === true;
}
