// How deep a parsed JSON value nests, checked without recursion, so a hostile document cannot
// overflow the stack of whoever checks it.

/** True when `value` nests objects or arrays more than `max` levels deep. */
export function jsonDepthExceeds(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: [node: object, depth: number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
