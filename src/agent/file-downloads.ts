import { UnsupportedInputError } from '../content/unsupported-input-error.ts';
import { ConfigurationError } from '../error/configuration-error.ts';

/** Which file URLs {@link allowDownloads} lets the server fetch. */
export interface DownloadPolicy {
  /**
   * Host names whose `https:` URLs may be downloaded: exact names
   * (`files.example.com`) or one leading wildcard label (`*.example.com`,
   * which does not match `example.com` itself). IP literals and `localhost`
   * are never matched by a wildcard.
   */
  readonly allowHosts: readonly string[];
  /** The largest download in bytes (default 2 MiB), checked from `Content-Length` and while reading. */
  readonly maxBytes?: number | undefined;
  /** Also allow `http:` URLs of those hosts (default false). */
  readonly allowHttp?: boolean | undefined;
  /** The fetch to use (default `globalThis.fetch`). Redirects are never followed. */
  readonly fetch?: typeof globalThis.fetch | undefined;
}

/**
 * Fetches a file the model cannot read by URL, or throws
 * `UnsupportedInputError` (`AgentDefinition.downloads`; build one with
 * {@link allowDownloads}).
 */
export type FileDownloader = (url: URL, signal: AbortSignal) => Promise<{ data: Uint8Array; mediaType: string | undefined }>;

/** One download AI SDK's prompt conversion asks for. */
interface RequestedDownload {
  readonly url: URL;
  readonly isUrlSupportedByModel: boolean;
}

/** The default byte cap of an allowed download. */
export const DEFAULT_DOWNLOAD_MAX_BYTES = 2 * 1024 * 1024;

/** A URL as errors show it: scheme and host only (never a path, query or credentials). */
function shown(url: URL): string {
  return url.protocol === 'data:' ? 'a data URL' : `a file at ${url.protocol}//${url.host}`;
}

/**
 * The download function handed to AI SDK's `convertToLanguageModelPrompt`,
 * which would otherwise fetch any URL the model does not read natively (up to
 * 2 GiB, following redirects): URLs the model supports are left to the
 * provider, others go to the agent's `downloads`, and without one they fail
 * the run with `UnsupportedInputError`.
 */
export function createDownloader(downloader: FileDownloader | undefined, signal: () => AbortSignal) {
  return (requests: readonly RequestedDownload[]) =>
    Promise.all(
      requests.map((request) => {
        if (request.isUrlSupportedByModel) return null;
        if (downloader) return downloader(request.url, signal());
        throw new UnsupportedInputError(`The model cannot read ${shown(request.url)} by URL, and this agent does not download files from that host`);
      }),
    );
}

/**
 * A {@link FileDownloader} for `AgentDefinition.downloads` that fetches files
 * only from `allowHosts` (https unless `allowHttp`), without following
 * redirects and at most `maxBytes` each. Client-named URLs are untrusted:
 * allow only hosts you serve files from. Checked now (`ConfigurationError`).
 *
 * @example
 * const agent = defineAgent({ name: 'reader', model, downloads: allowDownloads({ allowHosts: ['files.example.com'] }) });
 */
export function allowDownloads(policy: DownloadPolicy): FileDownloader {
  const hosts = policy?.allowHosts;
  const maxBytes = policy?.maxBytes ?? DEFAULT_DOWNLOAD_MAX_BYTES;
  if (!Array.isArray(hosts) || !hosts.every((host) => typeof host === 'string' && /^(\*\.)?[\w-]+(\.[\w-]+)*$/.test(host)) || !(Number.isInteger(maxBytes) && maxBytes > 0)) {
    throw new ConfigurationError('allowDownloads needs allowHosts (host names, or *.domain) and an optional positive integer maxBytes');
  }
  const fetcher = policy.fetch ?? ((input: URL, init: RequestInit) => globalThis.fetch(input, init));
  return async (url, signal) => {
    const what = shown(url);
    if (!isAllowed(url, policy)) throw new UnsupportedInputError(`The model cannot read ${what} by URL, and this agent does not download files from that host`);
    const tooLarge = () => new UnsupportedInputError(`${what} is larger than the ${maxBytes}-byte download limit`);
    let response: Response;
    try {
      response = await fetcher(url, { redirect: 'manual', signal });
    } catch {
      throw new UnsupportedInputError(`Downloading ${what} failed`);
    }
    const reader = response.body?.getReader();
    try {
      if (response.status < 200 || response.status > 299) throw new UnsupportedInputError(`Downloading ${what} failed (HTTP ${response.status || 'redirect'})`);
      if (Number(response.headers.get('content-length')) > maxBytes) throw tooLarge();
      const chunks: Uint8Array[] = [];
      let size = 0;
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) break;
        if ((size += chunk.value.byteLength) > maxBytes) throw tooLarge();
        chunks.push(chunk.value);
      }
      const data = new Uint8Array(size);
      chunks.reduce((offset, chunk) => (data.set(chunk, offset), offset + chunk.byteLength), 0);
      return { data, mediaType: response.headers.get('content-type') ?? undefined };
    } catch (error) {
      await reader?.cancel().catch(() => undefined);
      throw error;
    }
  };
}

function isAllowed(url: URL, policy: DownloadPolicy): boolean {
  if (url.protocol !== 'https:' && !(policy.allowHttp === true && url.protocol === 'http:')) return false;
  if (url.username !== '' || url.password !== '') return false;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const literal = host.startsWith('[') || /^\d+(\.\d+){3}$/.test(host) || host === 'localhost';
  return policy.allowHosts.some((pattern) => {
    const wanted = pattern.toLowerCase();
    if (!wanted.startsWith('*.')) return host === wanted;
    return !literal && host.endsWith(wanted.slice(1)) && host.length > wanted.length - 1;
  });
}
