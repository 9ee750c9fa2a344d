import type { ModelMessage } from 'ai';
import { CAPABILITY_ORDER } from '../agent/run-capability.ts';
import type { ApprovalStore, RunCapability } from '../agent/run-capability.ts';
import { PARKED_RUN_KEY, readParkedRun } from '../agent/approvals.ts';
import { GhostlightError } from '../error/ghostlight-error.ts';
import type { Operation } from '../instrumentation/operation.ts';
import { ProtocolError } from '../error/protocol-error.ts';
import { canonicalJson, isPlainObject } from '../util/json.ts';
import type { JsonObject } from '../util/json.ts';
import { persistableMessages } from './persistable-messages.ts';
import { SessionBusyError, SessionStoreError } from './session-errors.ts';
import { checkSessionDepth, sessionJson } from './session-json.ts';
import { CancelledError, DeadlineExceededError } from '../error/control-errors.ts';
import type { SessionSnapshot, SessionStore } from './session-store.ts';

/**
 * The run capability behind `AskOptions.sessions`: serialises runs of one
 * session, restores its conversation (stored history takes precedence over
 * the invocation's `history`) and state (the invocation's `state` wins key by
 * key), and checkpoints after every completed turn so a run that fails later
 * keeps the turns it finished. A store failure fails the run.
 */
export function sessionCapability(store: SessionStore): RunCapability {
  let persisted: ModelMessage[] = [];
  let persistedKeys: string[] = [];
  let stateKey = '';
  let metadata: JsonObject = {};
  let sessionId = '';
  let actorId: string | undefined;
  return {
    version: 'run-capability-v1',
    name: 'session',
    order: CAPABILITY_ORDER.session,
    optionKeys: ['sessions'],
    async setup({ binding, scope }) {
      sessionId = binding.run.invocation.sessionId;
      actorId = binding.run.invocation.actorId;
      // The run's own signal: the caller's cancellation and the run's deadline both end the wait.
      const signal = binding.signal;
      let release: Awaited<ReturnType<SessionStore['lock']>>;
      try {
        release = await store.lock(sessionId, { actorId, signal });
      } catch (error) {
        if (signal.aborted && DeadlineExceededError.isInstance(signal.reason)) throw new SessionBusyError({ cause: error });
        if (signal.aborted && !CancelledError.isInstance(error)) throw new CancelledError({ cause: signal.reason });
        throw error;
      }
      scope.defer(release);
      const snapshot = validate(await guard('loading', () => store.load(sessionId, { actorId }), binding.operation));
      const approvals = approvalStore(store, sessionId, actorId, readParkedRun(snapshot?.metadata), binding.run.runId);
      if (!snapshot) return { approvals };
      persisted = [...snapshot.messages];
      persistedKeys = persisted.map((message) => canonicalJson(message));
      metadata = snapshot.metadata;
      for (const [key, value] of Object.entries(snapshot.state)) {
        if (!(key in binding.state)) binding.state[key] = value;
      }
      stateKey = canonicalJson(binding.state);
      return persisted.length > 0 ? { history: persisted, approvals } : { approvals };
    },
    async checkpoint({ messages, state, operation, parked }) {
      let metadataChanged = false;
      if (parked !== undefined) {
        const { [PARKED_RUN_KEY]: _previous, ...rest } = metadata;
        metadata = parked === null ? rest : { ...rest, [PARKED_RUN_KEY]: sessionJson(parked as unknown as JsonObject) };
        metadataChanged = true;
      }
      checkSessionDepth(messages);
      checkSessionDepth(state);
      const candidate = persistableMessages(sessionJson([...messages]));
      const candidateKeys = candidate.map((message) => canonicalJson(message));
      const nextState = sessionJson(state);
      const nextStateKey = canonicalJson(nextState);
      const isPrefix = persistedKeys.length <= candidateKeys.length && persistedKeys.every((key, index) => key === candidateKeys[index]);
      if (isPrefix) {
        const added = candidate.slice(persisted.length);
        if (added.length === 0 && nextStateKey === stateKey && !metadataChanged) return;
        await guard('saving', () =>
          store.append(sessionId, { actorId, messages: added, state: nextState, metadata, expectedCount: persisted.length }),
        operation);
      } else {
        await guard('saving', () => store.replace(sessionId, { actorId, messages: candidate, state: nextState, metadata }), operation);
      }
      persisted = candidate;
      persistedKeys = candidateKeys;
      stateKey = nextStateKey;
    },
  };
}

/** Claims in the same store: one entry per parked stop (`<session>#approval:<parkId>`), created by the first claim only. */
function approvalStore(store: SessionStore, sessionId: string, actorId: string | undefined, parked: ApprovalStore['parked'], runId: string): ApprovalStore {
  return {
    parked,
    async claim(parkId, answers) {
      const id = `${sessionId}#approval:${parkId}`;
      try {
        await store.append(id, { actorId, messages: [{ role: 'user', content: `claimed by ${runId}` }], state: answers, metadata: {}, expectedCount: 0 });
        return { won: true };
      } catch (error) {
        if (!ProtocolError.isInstance(error)) throw new SessionStoreError('The session store failed while claiming an approval', { cause: error });
        const claimed = await store.load(id, { actorId });
        return { won: false, answers: (claimed?.state ?? {}) as JsonObject };
      }
    },
  };
}

/** Runs one store call as a `session_store` operation (when the run is instrumented); store failures become `SessionStoreError`. */
async function guard<T>(doing: 'loading' | 'saving', call: () => Promise<T>, parent: Operation | undefined): Promise<T> {
  const operation = parent?.start('session_store', { action: doing === 'loading' ? 'load' : 'save' });
  try {
    const result = await call();
    operation?.finish();
    return result;
  } catch (error) {
    const failure = GhostlightError.isInstance(error) ? error : new SessionStoreError(`The session store failed while ${doing} the session`, { cause: error });
    operation?.finish({}, failure);
    throw failure;
  }
}

function validate(value: SessionSnapshot | undefined): SessionSnapshot | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value) || !Array.isArray(value.messages) || !isPlainObject(value.state ?? {}) || !isPlainObject(value.metadata ?? {})) {
    throw new ProtocolError('Session store returned an invalid value');
  }
  return { messages: persistableMessages(value.messages), state: (value.state ?? {}) as JsonObject, metadata: (value.metadata ?? {}) as JsonObject };
}
