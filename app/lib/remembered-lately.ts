/**
 * `compute`, remembered for the arguments asked lately: a bounded few, all forgotten at once when the bound is
 * reached. For work whose arguments repeat from one request to the next (a kept page's host and path, a page's
 * Markdown), so that each is done once, not at every request.
 */
export function rememberedLately<T>(compute: (key: string) => T, limit = 1024): (key: string) => T {
  const remembered = new Map<string, T>();
  return (key) => {
    if (remembered.has(key)) return remembered.get(key)!;
    if (remembered.size >= limit) remembered.clear();
    const value = compute(key);
    remembered.set(key, value);
    return value;
  };
}
