/**
 * Freezes a JSON-like value and everything in it. Iterative, so a deeply nested value from a client or a server
 * cannot overflow the stack.
 */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'object' && current !== null && !Object.isFrozen(current)) {
      Object.freeze(current);
      stack.push(...Object.values(current));
    }
  }
  return value;
}
