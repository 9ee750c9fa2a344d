/**
 * Ghostlight's offline demo model: a small deterministic `LanguageModelV4`
 * that calls an agent's tools and answers from their results, for keyless
 * demos, examples and tests. It says so in every answer.
 *
 * @module ghostlight/demo-model
 */
export { createOfflineDemoModel } from './offline-demo-model.ts';
export type { OfflineDemoModelOptions } from './offline-demo-model.ts';
export type { DemoRequest, DemoTurn } from './demo-policy.ts';
