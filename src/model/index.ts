export { modelCapabilities, modelIdentity, UNKNOWN_CAPABILITIES } from './model-capabilities.ts';
export type { InputModality, ModelCapabilities, ModelCapabilityOverrides } from './model-capabilities.ts';
