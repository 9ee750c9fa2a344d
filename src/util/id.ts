/** A random UUID from Web Crypto (available in Node, workerd and browsers). */
export function randomId(): string {
  return crypto.randomUUID();
}
