/**
 * Context management: long conversations compacted into a summary before
 * they outgrow the model's context window, and recovery when a provider
 * reports an overflow. Add `manageContext()` to an agent's capabilities.
 *
 * @module ghostlight/context
 */
export { manageContext } from './manage-context.ts';
export { CONTEXT_DEFAULTS } from './context-options.ts';
export type { ContextSettings, ManageContextOptions } from './context-options.ts';
export { estimateRequestTokens, CHARACTERS_PER_TOKEN } from './estimate-tokens.ts';
export { planCompaction, SUMMARIZATION_PROMPT } from './compaction.ts';
export type { CompactionPlan } from './compaction.ts';
