/** The demo Worker's error answers: the same `{"error": {"code", "message"}}` JSON as `createAgentApp`, never a stack. */
export function jsonError(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status });
}
