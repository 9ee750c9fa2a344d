import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { assertKnownKeys } from '../agent/option-keys.ts';
import { ConfigurationError } from '../error/configuration-error.ts';
import type { AgentAppCors } from './agent-app-options.ts';

const CORS_KEYS = ['origin', 'allowHeaders', 'exposeHeaders', 'credentials', 'maxAge'];
const EXPOSED_HEADERS = ['x-ghostlight-run-id', 'x-ghostlight-session-id'];
const PROBE = 'https://ghostlight-cors-probe.invalid';
const policies = new WeakSet<object>();

/** Which origins may call an agent app from a browser: made by {@link corsPolicy}, given to `createAgentApp({ cors })`. */
export interface CorsPolicy {
  readonly middleware: MiddlewareHandler;
}

/** Whether `value` was made by {@link corsPolicy}. */
export function isCorsPolicy(value: unknown): value is CorsPolicy {
  return typeof value === 'object' && value !== null && policies.has(value);
}

/**
 * A CORS policy for `createAgentApp` (hono's CORS middleware, bundled only by
 * apps that import this). Refused with a `ConfigurationError`: unknown keys,
 * and `credentials: true` with `origin: '*'` or with an origin function that
 * accepts any origin. `x-ghostlight-run-id` and `x-ghostlight-session-id` are
 * always exposed to scripts.
 *
 * @example
 * const app = createAgentApp({ agents, auth, cors: corsPolicy({ origin: 'https://app.example.com' }) });
 */
export function corsPolicy(settings: AgentAppCors): CorsPolicy {
  assertKnownKeys(settings, CORS_KEYS, 'corsPolicy');
  const { origin, credentials, exposeHeaders, allowHeaders, ...rest } = settings;
  if (typeof origin !== 'string' && typeof origin !== 'function' && !(Array.isArray(origin) && origin.every((item) => typeof item === 'string'))) {
    throw new ConfigurationError('corsPolicy origin must be an origin, a list of origins or a function');
  }
  if (credentials === true && (origin === '*' || (Array.isArray(origin) && origin.includes('*')) || (typeof origin === 'function' && origin(PROBE) === PROBE))) {
    throw new ConfigurationError("corsPolicy: credentials with origin '*', or with an origin function that accepts any origin, lets any site send the user's credentials; list the origins");
  }
  const policy = {
    middleware: cors({
      origin: typeof origin === 'function' ? (value) => origin(value) : origin,
      allowHeaders: allowHeaders ?? ['content-type', 'authorization', 'last-event-id', 'traceparent', 'tracestate'],
      exposeHeaders: [...new Set([...EXPOSED_HEADERS, ...(exposeHeaders ?? [])])],
      ...(credentials !== undefined ? { credentials } : {}),
      ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)),
    }),
  };
  policies.add(policy);
  return policy;
}
