import type { UserModelMessage } from 'ai';

/** The text of a user message (its text parts joined with blank lines). */
export function inputText(message: UserModelMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n\n');
}
