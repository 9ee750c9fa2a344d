import { createDemoApp } from './demo-app';

/** The Cloudflare Worker entry: Workers requires a default export. */
export default {
  fetch(request: Request, env: Record<string, unknown>): Response | Promise<Response> {
    return createDemoApp(env).fetch(request);
  },
};
