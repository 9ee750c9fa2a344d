export { createOfflineDemoModel } from './offline-demo-model';
export type { OfflineDemoModelOptions } from './offline-demo-model';
export type { DemoRequest, DemoTurn } from './demo-policy';
export { modelCapabilities, modelIdentity, UNKNOWN_CAPABILITIES } from './model-capabilities';
export type { InputModality, ModelCapabilities, ModelCapabilityOverrides } from './model-capabilities';
