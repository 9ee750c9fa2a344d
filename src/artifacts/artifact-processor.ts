import type { FilePart, TextPart } from 'ai';
import type { ToolResultProcessor } from '../agent/tool-executor.ts';
import { isControlError } from '../error/control-errors.ts';
import type { RunHandle } from '../tool/tool-binding.ts';
import { ToolError } from '../tool/tool-error.ts';
import type { ToolCallResult } from '../tool/tool-result.ts';
import { throwIfAborted } from '../util/abort.ts';
import { isPlainObject } from '../util/json.ts';
import { approxTokenCount, truncateMiddle } from '../util/truncate.ts';
import type { Artifact, InlineArtifact } from '../content/artifact.ts';
import type { ArtifactLimits } from './artifact-limits.ts';
import type { ArtifactEntry, ArtifactStore } from './artifact-store.ts';
import type { PresentationBudget } from './presentation-budget.ts';
import { resolveArtifacts } from './resolve-artifacts.ts';
import type { ArtifactResolver } from './resolve-artifacts.ts';
import type { StoredArtifact } from '../content/stored-artifact.ts';

/** What the artifact processor needs from its run. */
export interface ArtifactProcessorOptions {
  readonly store: ArtifactStore;
  readonly limits: ArtifactLimits;
  readonly budget: PresentationBudget;
  readonly resolver: ArtifactResolver | undefined;
  readonly run: RunHandle;
  readonly signal: AbortSignal;
}

/**
 * The tool-result processor of the artifacts capability (after `afterTool`,
 * before truncation), for successful results of model and application calls
 * (a code-mode program's calls are handled with the surrounding `exec`):
 *
 * - deferred artifacts go through the resolver; inline ones are stored in one
 *   atomic batch and shown to the model (`image/*` as images, the rest as
 *   documents) within the turn's presentation budget; the content lists the
 *   stored references ("Workspace artifacts:"). Unresolved references are
 *   never shown. Any failure makes the call an error result
 *   "Tool artifacts could not be prepared (NAME)".
 * - a value over the spool threshold is stored whole (`<tool>-<call>.json` or
 *   `.txt`) and the model gets "Full result: REF (MEDIA, N bytes)" and a
 *   preview; when it cannot be stored, "Full result exceeded artifact storage
 *   limits." and the preview. The application's value never changes.
 */
export function createArtifactProcessor(options: ArtifactProcessorOptions): ToolResultProcessor {
  return async (result) => {
    // A program's calls keep their artifacts inline: they come back (stored and shown once) with the exec result.
    if (result.status !== 'success' || result.caller === 'code') return result;
    throwIfAborted(options.signal);
    const oversized = approxTokenCount(result.content) > options.limits.spoolThresholdTokens;
    if (result.artifacts.length === 0 && !oversized) return result;
    try {
      const explicit = await storeExplicit(result.artifacts, options);
      const spooled = oversized ? await spool(result, options) : undefined;
      let content = oversized ? spoolContent(result.content, spooled, options.limits.previewTokens) : result.content;
      const stored = [...explicit.artifacts.filter((artifact): artifact is StoredArtifact => artifact.kind === 'stored'), ...(spooled ? [spooled] : [])];
      if (stored.length > 0) content += `\n\nWorkspace artifacts:\n${stored.map((artifact) => `- ${artifact.reference}`).join('\n')}`;
      let presentation: Array<TextPart | FilePart> = [...(result.presentation ?? []), ...explicit.presentation];
      const withheld = presentation.length > 0 && !options.budget.accept(presentation);
      if (withheld) presentation = [];
      if (withheld || explicit.unpresentable.length > 0) {
        const listed = stored.filter(
          (artifact) => artifact.metadata?.completeResult !== true && (withheld || explicit.unpresentable.includes(artifact)),
        );
        if (listed.length > 0) {
          content += `\n\nArtifacts:\n${listed.map((artifact) => `- ${artifact.reference} (${artifact.mediaType}, ${artifact.bytes} bytes)`).join('\n')}`;
        }
      }
      return {
        ...result,
        content,
        artifacts: spooled ? [...explicit.artifacts, spooled] : explicit.artifacts,
        ...(presentation.length > 0 ? { presentation } : {}),
      };
    } catch (error) {
      if (isControlError(error)) throw error;
      const name = (error as { name?: string } | undefined)?.name ?? 'Error';
      const message = `Tool artifacts could not be prepared (${name})`;
      return { ...result, status: 'error', value: undefined, content: message, error: new ToolError(message, { cause: error }), artifacts: [] };
    }
  };
}

interface ExplicitArtifacts {
  artifacts: Artifact[];
  presentation: Array<TextPart | FilePart>;
  /** Stored artifacts no provider takes as a message part (binary other than images and PDFs): shown by reference. */
  unpresentable: StoredArtifact[];
}

async function storeExplicit(artifacts: readonly Artifact[], options: ArtifactProcessorOptions): Promise<ExplicitArtifacts> {
  if (artifacts.length === 0) return { artifacts: [], presentation: [], unpresentable: [] };
  const resolved = await resolveArtifacts(artifacts, options.resolver, options.run, options.signal);
  const inline = resolved.filter((artifact): artifact is InlineArtifact => artifact.kind === 'inline');
  assertBatch(inline, options.limits);
  const stored = await options.store.writeBatch(inline.map(toEntry));
  let next = 0;
  const merged = resolved.map((artifact) => (artifact.kind === 'inline' ? stored[next++]! : artifact));
  const presentation: Array<TextPart | FilePart> = [];
  const unpresentable: StoredArtifact[] = [];
  inline.forEach((artifact, index) => {
    const part = presentationPart(artifact, stored[index]!.name);
    if (part) presentation.push(part);
    else unpresentable.push(stored[index]!);
  });
  return { artifacts: merged, presentation, unpresentable };
}

/** The image types the providers take as image input (an SVG is XML text). */
const MODEL_IMAGES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/gif', 'image/webp']);

/**
 * How the model sees an artifact: PNG, JPEG, GIF and WebP images as images,
 * PDFs as documents, text (CSV, JSON, Markdown, XML, SVG…) as a text block
 * headed by its name and media type, which every provider accepts; other
 * binaries have no part (providers refuse them) and are shown by reference.
 */
export function presentationPart(artifact: InlineArtifact, name: string): TextPart | FilePart | undefined {
  const mediaType = artifact.mediaType.toLowerCase();
  if (MODEL_IMAGES.has(mediaType) || mediaType === 'application/pdf') {
    return { type: 'file', data: artifact.data, mediaType: artifact.mediaType, filename: name };
  }
  if (!isTextual(mediaType)) return undefined;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(artifact.data);
  return { type: 'text', text: `Artifact ${name} (${artifact.mediaType}):\n${text}` };
}

function isTextual(mediaType: string): boolean {
  const essence = mediaType.split(';')[0]!.trim();
  return (
    essence.startsWith('text/') ||
    /^application\/(?:json|xml|yaml|x-yaml|csv|javascript|x-ndjson|sql|graphql|toml)$/.test(essence) ||
    /\+(?:json|xml|yaml)$/.test(essence)
  );
}

/** The batch limits: item count, bytes of each artifact, bytes of the batch. */
export function assertBatch(artifacts: ReadonlyArray<{ data: Uint8Array }>, limits: ArtifactLimits): void {
  if (artifacts.length > limits.maxBatchArtifacts) throw new ToolError(`Artifact batch exceeds the ${limits.maxBatchArtifacts}-item limit`);
  if (artifacts.some((artifact) => artifact.data.byteLength > limits.maxArtifactBytes)) {
    throw new ToolError(`Artifact exceeds the ${limits.maxArtifactBytes}-byte limit`);
  }
  if (artifacts.reduce((sum, artifact) => sum + artifact.data.byteLength, 0) > limits.maxBatchBytes) {
    throw new ToolError(`Artifact batch exceeds the ${limits.maxBatchBytes}-byte limit`);
  }
}

async function spool(result: ToolCallResult, options: ArtifactProcessorOptions): Promise<StoredArtifact | undefined> {
  try {
    const json = isPlainObject(result.value) || Array.isArray(result.value);
    const text = json ? JSON.stringify(result.value) : String(result.value);
    const entry: ArtifactEntry = {
      data: new TextEncoder().encode(text),
      mediaType: json ? 'application/json' : 'text/plain',
      name: `${result.toolName}-${result.toolCallId}.${json ? 'json' : 'txt'}`,
      metadata: { toolName: result.toolName, toolCallId: result.toolCallId, completeResult: true },
    };
    assertBatch([entry], options.limits);
    return await options.store.write(entry);
  } catch (error) {
    if (isControlError(error)) throw error;
    return undefined;
  }
}

function spoolContent(content: string, spooled: StoredArtifact | undefined, previewTokens: number): string {
  const preview = truncateMiddle(content, previewTokens).text;
  if (!spooled) return `Full result exceeded artifact storage limits.\n\nPreview:\n${preview}`;
  return `Full result: ${spooled.reference} (${spooled.mediaType}, ${spooled.bytes} bytes)\n\nPreview:\n${preview}`;
}

function toEntry(artifact: InlineArtifact): ArtifactEntry {
  return { data: artifact.data, mediaType: artifact.mediaType, name: artifact.name, metadata: artifact.metadata };
}
