/**
 * Reading and writing the browser's local storage (or, when asked, this tab's session storage). A stored value that
 * fails to parse (or fails its check) is logged and replaced by the default at once, so a damaged entry never breaks
 * the page and is gone for good.
 */

export type StorageArea = "local" | "session";

const storageOf = (area: StorageArea) => (area === "session" ? window.sessionStorage : window.localStorage);

export function readStored<T>(
  key: string,
  fallback: T,
  isValid?: (value: unknown) => value is T,
  invalidMessage?: string,
  area: StorageArea = "local",
): T {
  if (typeof window === "undefined") return fallback;
  let raw: string | null;
  try {
    raw = storageOf(area).getItem(key);
  } catch (error) {
    console.error(`Could not read ${key} from ${area} storage`, error);
    return fallback;
  }
  if (raw === null) return fallback;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    console.error(`Failed to parse stored ${key}; using the default`, error);
    writeStored(key, fallback, area);
    return fallback;
  }
  if (isValid && !isValid(value)) {
    console.error(invalidMessage ?? `Stored ${key} is not valid; using the default`);
    writeStored(key, fallback, area);
    return fallback;
  }
  return value as T;
}

export function writeStored(key: string, value: unknown, area: StorageArea = "local"): void {
  if (typeof window === "undefined") return;
  try {
    if (value === undefined || value === null) storageOf(area).removeItem(key);
    else storageOf(area).setItem(key, JSON.stringify(value));
  } catch (error) {
    console.error(`Could not save ${key} to ${area} storage`, error);
  }
}
