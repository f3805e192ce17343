/**
 * Reading and writing the browser's local storage. A stored value that fails to parse (or fails its check)
 * is logged and replaced by the default at once, so a damaged entry never breaks the page and is gone for good.
 */

export function readStored<T>(
  key: string,
  fallback: T,
  isValid?: (value: unknown) => value is T,
  invalidMessage?: string,
): T {
  if (typeof window === "undefined") return fallback;
  let raw: string | null;
  try {
    raw = window.localStorage.getItem(key);
  } catch (error) {
    console.error(`Could not read ${key} from local storage`, error);
    return fallback;
  }
  if (raw === null) return fallback;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    console.error(`Failed to parse stored ${key}; using the default`, error);
    writeStored(key, fallback);
    return fallback;
  }
  if (isValid && !isValid(value)) {
    console.error(invalidMessage ?? `Stored ${key} is not valid; using the default`);
    writeStored(key, fallback);
    return fallback;
  }
  return value as T;
}

export function writeStored(key: string, value: unknown): void {
  if (typeof window === "undefined") return;
  try {
    if (value === undefined || value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, JSON.stringify(value));
  } catch (error) {
    console.error(`Could not save ${key} to local storage`, error);
  }
}
