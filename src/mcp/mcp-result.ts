import { createArtifact } from '../content/artifact.ts';
import type { InlineArtifact } from '../content/artifact.ts';
import { ProtocolError } from '../error/protocol-error.ts';
import { validateJsonSchema } from '../schema/validate-json-schema.ts';
import { isPlainObject } from '../util/json.ts';
import type { McpDefinition } from './mcp-definition.ts';
import { deepFreeze } from '../util/deep-freeze.ts';
import { objectField } from './mcp-definition.ts';
import type { McpLimits } from './mcp-limits.ts';

/** One MCP tool result as the server sent it, checked and deeply frozen. */
export interface McpResult {
  /** The content blocks (`text`, `image`, `audio`, `resource`, `resource_link`…). */
  readonly content: readonly Readonly<Record<string, unknown>>[];
  /** The structured result, when the server sent one. */
  readonly structuredContent: Readonly<Record<string, unknown>> | undefined;
  /** Whether the server marked the result with `isError`. */
  readonly isError: boolean;
  /** The result's `_meta`. */
  readonly meta: Readonly<Record<string, unknown>>;
  /** The complete result object. */
  readonly raw: Readonly<Record<string, unknown>>;
}

/**
 * Checks a `tools/call` result: content blocks are objects with a `type`
 * (text blocks with text), `isError` is boolean, and — unless the result is
 * an error — `structuredContent` is present and matches the tool's
 * `outputSchema` when it declares one (full draft 2020-12, interpreted).
 */
export function buildResult(raw: Record<string, unknown>, definition: McpDefinition | undefined): McpResult {
  const content = raw.content ?? [];
  if (!Array.isArray(content)) throw new ProtocolError('MCP tool result content must be an array');
  for (const block of content) {
    if (!isPlainObject(block)) throw new ProtocolError('MCP tool result content blocks must be objects');
    if (typeof block.type !== 'string') throw new ProtocolError('MCP tool result content blocks must include a type');
    if (block.type === 'text' && typeof block.text !== 'string') throw new ProtocolError('MCP text content must include text');
  }
  if (raw.isError !== undefined && raw.isError !== null && typeof raw.isError !== 'boolean') {
    throw new ProtocolError('MCP tool result isError must be boolean');
  }
  objectField(raw, 'structuredContent', 'structuredContent');
  objectField(raw, '_meta', 'tool result _meta');
  const copy = deepFreeze(structuredClone(raw));
  const result: McpResult = Object.freeze({
    content: (copy.content ?? Object.freeze([])) as McpResult['content'],
    structuredContent: (copy.structuredContent ?? undefined) as McpResult['structuredContent'],
    isError: copy.isError === true,
    meta: (copy._meta ?? Object.freeze({})) as McpResult['meta'],
    raw: copy,
  });
  const schema = definition?.outputSchema;
  if (schema && !result.isError) {
    if (result.structuredContent === undefined) throw new ProtocolError('MCP tool result omitted structuredContent required by outputSchema');
    const issues = validateJsonSchema(schema, result.structuredContent).slice(0, 10);
    if (issues.length > 0) throw new ProtocolError(`MCP structuredContent did not match outputSchema: ${issues.join('; ')}`);
  }
  return result;
}

/**
 * The value a result gives the application and the model by default:
 * `structuredContent`; else the text blocks joined with newlines; else the
 * non-image blocks; else a summary of the images (`{ images: [{ mediaType,
 * name, bytes }] }`), whose bytes travel as artifacts instead.
 */
export function defaultValue(result: McpResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const text = result.content.filter((block) => block.type === 'text').map((block) => block.text as string).join('\n');
  if (text.length > 0) return text;
  const visible = result.content.filter((block) => block.type !== 'image');
  if (visible.length > 0) return visible;
  return {
    images: result.content.map((block) => ({
      mediaType: block.mimeType,
      ...(typeof block.name === 'string' ? { name: block.name } : {}),
      bytes: base64Length(block.data),
    })),
  };
}

/** The image blocks of a result as inline artifacts, within the image limits (checked before decoding). */
export function imageArtifacts(result: McpResult, limits: McpLimits): InlineArtifact[] {
  const images = result.content.filter((block) => block.type === 'image');
  if (images.length > limits.maxImages) throw new ProtocolError(`MCP image content exceeds the ${limits.maxImages}-image limit`);
  let total = 0;
  return images.map((block) => {
    const { data, mimeType } = block;
    if (typeof data !== 'string' || typeof mimeType !== 'string' || !mimeType.startsWith('image/')) {
      throw new ProtocolError('MCP image content is invalid');
    }
    const size = base64Length(data);
    if (size > limits.maxImageBytes) throw new ProtocolError(`MCP image content exceeds the ${limits.maxImageBytes}-byte per-image limit`);
    total += size;
    if (total > limits.maxTotalImageBytes) throw new ProtocolError(`MCP image content exceeds the ${limits.maxTotalImageBytes}-byte total limit`);
    return createArtifact({
      data: decodeBase64(data),
      mediaType: mimeType,
      ...(typeof block.name === 'string' ? { name: block.name } : {}),
    });
  });
}

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Decoded length of strict (padded, no whitespace) base64; anything else is a `ProtocolError`. */
function base64Length(data: unknown): number {
  if (typeof data !== 'string' || data.length % 4 !== 0 || !STRICT_BASE64.test(data)) {
    throw new ProtocolError('MCP image content data must use strict base64');
  }
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}

function decodeBase64(data: string): Uint8Array {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
