import type { CodeCatalogEntry } from './code-catalog.ts';
import { renderDeclarations } from './typescript-declarations.ts';

/** "one minute", "30 seconds": how the observation window is described to the model. */
export function describeWindow(ms: number): string {
  if (ms === 60_000) return 'one minute';
  const seconds = Math.max(1, Math.round(ms / 1000));
  return seconds % 60 === 0 ? `${seconds / 60} minutes` : `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/**
 * The instructions appended to the agent's: how programs live, how they call
 * tools and report results, what the sandbox lacks, and the catalog as
 * TypeScript declarations.
 */
export function codeModeInstructions(entries: readonly CodeCatalogEntry[], observeMs: number): string {
  const window = describeWindow(observeMs);
  return `Use JavaScript to call the available tools and compose their results.

Program lifecycle:
- Every exec call starts a fresh program in a new QuickJS context.
- Exec and wait observe it for up to ${window}. They return sooner when it finishes.
- If exec or wait returns \`still_working\`, call wait to observe the same running program again.
- Wait does not pause, resume, or restart the program.
- Use stop when the result is no longer needed.
- Do not call wait or stop after \`completed\`, \`error\`, or \`terminated\`.
- Variables and globals do not persist between exec calls.

Tool calls:
- Tool functions return Promises. Use await, or Promise.all for independent calls.
- Use \`tools.call(name, args)\` when the name is dynamic.
- Results arrive as the tool's JSON value (objects, arrays, strings, numbers).
- A failed call rejects with an Error whose message explains the failure. Catch it only when the program can recover.
- Unawaited tool calls finish before the program exits.
- \`ALL_TOOLS\` contains the complete runtime catalog.

Output and completion:
- Use \`text(value)\` for user-visible output.
- The program's return value becomes the completed value.
- Use \`exit(value)\` to complete early.
- TypeScript syntax is accepted; types are removed before the program runs.

The QuickJS context has no Node.js APIs, filesystem, network, console, timers, WebAssembly, or process API.

Available tool methods:

${renderDeclarations(entries)}`;
}
