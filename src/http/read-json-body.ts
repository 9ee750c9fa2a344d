import { isPlainObject } from '../util/json.ts';
import { checkClientJson } from './client-json.ts';
import type { ClientJsonLimits } from './client-json.ts';
import { HttpError } from './http-error.ts';

/**
 * Reads a JSON object body: the content type must be JSON, the body at most
 * `maxBodyBytes` (checked against `Content-Length` and while reading), the
 * text must parse to an object, and the object passes `checkClientJson`
 * (depth and characters) before anything else looks at it.
 */
export async function readJsonBody(request: Request, limits: ClientJsonLimits & { readonly maxBodyBytes: number }): Promise<Record<string, unknown>> {
  const maxBytes = limits.maxBodyBytes;
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw new HttpError(415, 'unsupported_media_type', `Content-Type must be application/json (got ${type ? JSON.stringify(type.slice(0, 100)) : 'none'})`);
  }
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const text = await readText(request, maxBytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON');
  }
  if (!isPlainObject(body)) throw new HttpError(400, 'invalid_body', 'The request body must be a JSON object');
  checkClientJson(body, 'The request body', limits);
  return body;
}

async function readText(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, 'body_too_large', `The request body is larger than ${maxBytes} bytes`);
}
