import type { AuthResult } from 'ghostlight/http';

/**
 * The demo's authentication. With `GHOSTLIGHT_API_TOKEN` set, requests need
 * `Authorization: Bearer <token>`. The actor is taken from the
 * `x-ghostlight-actor` header (default `demo-user`) so the playground and
 * curl can show per-actor sessions: a real application derives `actorId`
 * from verified identity instead (a session cookie, a JWT), never from a
 * header the client chooses.
 */
export function demoAuth(env: Record<string, unknown>): (request: Request) => AuthResult | null {
  const token = typeof env.GHOSTLIGHT_API_TOKEN === 'string' && env.GHOSTLIGHT_API_TOKEN !== '' ? env.GHOSTLIGHT_API_TOKEN : undefined;
  return (request) => {
    if (token !== undefined && request.headers.get('authorization') !== `Bearer ${token}`) return null;
    const actor = request.headers.get('x-ghostlight-actor') ?? 'demo-user';
    if (!/^[\w.@:-]{1,64}$/.test(actor)) return null;
    return { actorId: actor, context: { accountId: 'acct-1' } };
  };
}
