/** Search input rules, shared by the search page and the search module. */

/** Longer queries are cut to this many characters. */
export const SEARCH_MAX_LENGTH = 100;
/** At most this many words of a query are matched. */
export const SEARCH_MAX_WORDS = 8;

export type SearchQuery = { query: string; truncated: boolean };

/** The query as searched and shown: spaces collapsed, cut to SEARCH_MAX_LENGTH characters. */
export function normalizeSearchQuery(raw: string | null | undefined): SearchQuery {
  const collapsed = (raw ?? "").replace(/\s+/g, " ").trim();
  return {
    query: [...collapsed].slice(0, SEARCH_MAX_LENGTH).join("").trim(),
    truncated: [...collapsed].length > SEARCH_MAX_LENGTH,
  };
}

/**
 * Lower-case words of letters and digits; punctuation and search syntax never reach the database.
 * Single letters are dropped (they match everything); single digits stay ("windows 7").
 */
export function searchWords(query: string): string[] {
  const words = (query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter(
    (word) => word.length > 1 || /\p{N}/u.test(word),
  );
  return [...new Set(words)].slice(0, SEARCH_MAX_WORDS);
}
