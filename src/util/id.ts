/** A random UUID from Web Crypto (available in Node, workerd and browsers). */
export function randomId(): string {
  return crypto.randomUUID();
}

/** `bytes` random bytes from Web Crypto as lowercase hex (call it per request, never at module scope in a Worker). */
export function randomHex(bytes: number): string {
  const values = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (value) => value.toString(16).padStart(2, '0')).join('');
}
