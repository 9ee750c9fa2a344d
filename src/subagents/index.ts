/**
 * Subagents: an agent spawns named child agents of declared kinds, runs them
 * concurrently, messages them, interjects and waits for them, and (with a
 * session store) continues their conversations in later runs. Import the
 * factory and list it in `capabilities`.
 *
 * @module ghostlight/subagents
 */
export { subagents } from './subagents-capability.ts';
export type { SubagentsOptions } from './subagents-capability.ts';
export type { SubagentDeclaration, SubagentResolver } from './subagent-declaration.ts';
export { DEFAULT_SUBAGENT_LIMITS } from './subagent-limits.ts';
export type { SubagentLimits } from './subagent-limits.ts';
export { SUBAGENT_TOOL_NAMES } from './subagent-tools.ts';
export { MAX_AGENT_PATH_LENGTH, MAX_TASK_NAME_LENGTH, ROOT_AGENT_PATH } from './agent-path.ts';
export { conversationSessionId, parentLink, registrySessionId } from './subagent-persistence.ts';
