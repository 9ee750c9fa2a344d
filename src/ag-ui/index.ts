/**
 * The AG-UI encoder of a run's event log (for `@ag-ui/client` and CopilotKit).
 *
 * @module ghostlight/ag-ui
 */
export { AgUiEncoder, toTokenUsage } from './ag-ui-encoder.ts';
export type { AgUiRunIds } from './ag-ui-encoder.ts';
export type { AgUiCustom, AgUiEvent, AgUiInterrupt, AgUiRunError, AgUiRunFinished, AgUiRunStarted, AgUiTokenUsage } from './ag-ui-event.ts';
export { toAgUi } from './to-ag-ui.ts';
