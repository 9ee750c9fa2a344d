export { AgUiEncoder, toTokenUsage } from './ag-ui-encoder';
export type { AgUiRunIds } from './ag-ui-encoder';
export type { AgUiCustom, AgUiEvent, AgUiRunError, AgUiRunFinished, AgUiRunStarted, AgUiTokenUsage } from './ag-ui-event';
export { toAgUi } from './to-ag-ui';
