/**
 * Prompt views: agent instructions as templates (plain TypeScript functions)
 * with locals and partials from an explicit registry, LittleGhost's ERB
 * prompt views without files or evaluation.
 *
 * @module ghostlight/prompts
 */
export { definePrompts, MAX_PROMPT_DEPTH } from './prompt-registry.ts';
export type { PromptRegistry, PromptRegistryOptions, PromptTemplate, PromptViewOptions, RenderPartial, ViewLocals } from './prompt-registry.ts';
export { InvalidPromptTemplateError, MissingPromptLocalError, MissingPromptTemplateError, PromptTemplateError } from './prompt-errors.ts';
