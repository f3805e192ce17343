import { useSyncExternalStore } from "react";
import { readStored, writeStored } from "./browser-storage";

export type StoredValue<T> = {
  get(): T;
  set(value: T | ((current: T) => T)): void;
  subscribe(listener: () => void): () => void;
};

/**
 * A value kept in local storage under `key`: saved on every change, shared by every component and every tab.
 * A stored value that fails to parse or to pass `isValid` is logged and replaced by `fallback` (see readStored).
 */
export function storedValue<T>(
  key: string,
  fallback: T,
  isValid?: (value: unknown) => value is T,
  invalidMessage?: string,
): StoredValue<T> {
  const listeners = new Set<() => void>();
  let cachedRaw: string | null | undefined;
  let cached: T = fallback;

  const storedText = (): string | null => {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  };
  const get = (): T => {
    if (typeof window === "undefined") return fallback;
    // Parse (and log and replace a bad value) once per stored text, and keep the snapshot stable for React.
    if (storedText() !== cachedRaw) {
      cached = readStored(key, fallback, isValid, invalidMessage);
      // A damaged value was just replaced by the default: remember the text now stored.
      cachedRaw = storedText();
    }
    return cached;
  };
  const notify = () => listeners.forEach((listener) => listener());
  const onStorage = (event: StorageEvent) => {
    if (event.key === key || event.key === null) notify();
  };

  return {
    get,
    set(value) {
      const next = typeof value === "function" ? (value as (current: T) => T)(get()) : value;
      writeStored(key, next);
      notify();
    },
    subscribe(listener) {
      if (listeners.size === 0) window.addEventListener("storage", onStorage);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) window.removeEventListener("storage", onStorage);
      };
    },
  };
}

/** The stored value in a component; the server (and the first render after it) sees the fallback. */
export function useStoredValue<T>(store: StoredValue<T>, serverValue: T): T {
  return useSyncExternalStore(store.subscribe, store.get, () => serverValue);
}
