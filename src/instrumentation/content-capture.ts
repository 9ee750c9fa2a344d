import { utf8Length } from '../util/truncate.ts';

/**
 * How an agent's operations may carry content (model messages, tool
 * arguments and results, error messages and stacks) to instrumentation.
 * Capture is off unless an agent enables it; captured values are redacted
 * (secret-looking keys, bearer tokens, `redact` values), passed through the
 * `scrubber`, redacted again and bounded.
 */
export interface ContentCaptureOptions {
  /** Receives each value after redaction and returns what may be kept (its output is redacted again). */
  readonly scrubber?: ((value: unknown, context: { readonly operation: string; readonly kind: 'input' | 'output' | 'error' }) => unknown) | undefined;
  /** The largest captured value, in bytes of JSON (default 16,384, at least 64). Longer ones become `{"truncated":true,"preview":…}`. */
  readonly maxBytes?: number | undefined;
  /** Exact strings (keys the application knows) removed wherever they appear. */
  readonly redact?: readonly string[] | undefined;
}

/** `true` captures with the defaults; an object configures it; `false` or nothing captures nothing. */
export type ContentCapture = boolean | ContentCaptureOptions;

/** A resolved capture policy (undefined: capture off). */
export type CapturePolicy = ContentCaptureOptions & { readonly maxBytes: number };

const SENSITIVE_KEY = /authorization|api[_-]?key|credential|password|secret|(?:^|[_-])token(?:$|[_-])|cookie|private[_-]?key/i;
const SECRET_TEXT = /\b(bearer|basic)\s+[\w\-.~+/=]{8,}|\b(sk|pk|rk|ghp|xox[abp])[-_][\w-]{12,}/gi;
const REDACTED = '[REDACTED]';

/** Resolves an agent's `captureContent` setting. */
export function capturePolicy(setting: ContentCapture | undefined): CapturePolicy | undefined {
  if (!setting) return undefined;
  const options = setting === true ? {} : setting;
  const maxBytes = Math.max(64, options.maxBytes ?? 16_384);
  return { ...options, maxBytes };
}

/** Redacts secret-looking keys and text anywhere in a JSON-like value. */
export function redactSecrets(value: unknown, extra: readonly string[] = [], key = '', depth = 0): unknown {
  if (key && SENSITIVE_KEY.test(key.replace(/([a-z\d])([A-Z])/g, '$1_$2'))) return REDACTED;
  if (typeof value === 'string') {
    let text = value.replace(SECRET_TEXT, REDACTED);
    for (const secret of extra) if (secret) text = text.split(secret).join(REDACTED);
    return text;
  }
  if (typeof value !== 'object' || value === null) return typeof value === 'bigint' ? String(value) : value;
  if (depth >= 64) return '[Truncated]';
  if (value instanceof Uint8Array) return `[${value.byteLength} bytes]`;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, extra, '', depth + 1));
  if (value instanceof URL) return redactSecrets(value.href, extra);
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) out[name] = redactSecrets(item, extra, name, depth + 1);
  return out;
}

/** The captured form of one value: redacted, scrubbed, JSON, bounded. Undefined when capture fails. */
export function captureValue(policy: CapturePolicy, value: unknown, operation: string, kind: 'input' | 'output' | 'error'): string | undefined {
  try {
    const extra = policy.redact ?? [];
    let kept = redactSecrets(value, extra);
    if (policy.scrubber) kept = redactSecrets(policy.scrubber(kept, { operation, kind }), extra);
    const json = typeof kept === 'string' ? kept : JSON.stringify(kept) ?? 'null';
    if (utf8Length(json) <= policy.maxBytes) return json;
    let preview = json.slice(0, policy.maxBytes - 40);
    while (utf8Length(preview) > policy.maxBytes - 40) preview = preview.slice(0, Math.floor(preview.length * 0.8));
    return JSON.stringify({ truncated: true, preview });
  } catch {
    return undefined;
  }
}
