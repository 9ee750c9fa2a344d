export { createOfflineDemoModel } from './offline-demo-model';
export type { OfflineDemoModelOptions } from './offline-demo-model';
export type { DemoRequest, DemoTurn } from './demo-policy';
