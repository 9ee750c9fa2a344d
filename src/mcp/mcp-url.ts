import { ConfigurationError } from '../error/configuration-error.ts';

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]']);

/**
 * Parses and checks an MCP server URL: HTTP(S) only, and HTTPS unless
 * `allowInsecureHttp` is set — which permits plain HTTP to a loopback host
 * (`127.0.0.0/8`, `::1`, `localhost`) and nothing else.
 */
export function mcpUrl(value: unknown, allowInsecureHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new ConfigurationError('MCP URL must be an HTTP(S) URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new ConfigurationError('MCP URL must be an HTTP(S) URL');
  }
  if (url.protocol === 'http:') {
    if (!allowInsecureHttp) throw new ConfigurationError('MCP URL must use HTTPS unless allowInsecureHttp is enabled');
    if (!isLoopback(url.hostname)) {
      throw new ConfigurationError('MCP URL may use plain HTTP only for a loopback host (127.0.0.1, ::1 or localhost)');
    }
  }
  return url;
}

function isLoopback(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase()) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
