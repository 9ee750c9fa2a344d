/** The parts of workerd's `cloudflare:workers` module the tests use (the vitest plugin provides it at run time). */
declare module 'cloudflare:workers' {
  export const env: Record<string, unknown>;
  export const exports: { default: { fetch(input: Request | string, init?: RequestInit): Promise<Response> } };
}
