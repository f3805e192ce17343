/**
 * The in-memory catalogue index: every visible product in catalogue order with its words, brand and tags, so that
 * the search ranking, the listings' pages and counts, and a section's highlights are worked out without scanning
 * the products table (docs/decisions/0024-search-at-scale.md). No database here: search.server.ts loads the rows,
 * keeps one index per database and catalogue version, and reads the cards of the products it ranks.
 */
import { SEARCH_MAX_WORDS } from "./search";

/** How alike a query word and a word of a product or brand name must be (share of the query word's trigrams). */
export const WORD_SIMILARITY_THRESHOLD = 0.4;
/** Results scoring below this share of the best result are left out (they matched one stray word). */
export const RELATIVE_SCORE_CUTOFF = 0.4;
/** A brand name matching a word counts this much more than a product name matching it (the strongest signal). */
const BRAND_WEIGHT = 1.25;
/** A word found, stemmed, in a product's name or description. */
const TEXT_SCORE = 0.8;
/** Added when every word is in the product's text. */
const ALL_WORDS_BONUS = 0.5;
/** Added times the share of the words found in the name (a description word counts DESCRIPTION_RANK of one). */
const RANK_WEIGHT = 0.1;
const DESCRIPTION_RANK = 0.4;

/** A visible product as the index reads it, in catalogue order (brand position, product position, id). */
export type IndexedProductRow = {
  id: number;
  name: string;
  description: string;
  groupKey: string;
  brandName: string;
  section: string;
  categories: string[];
  brandPosition: number;
  position: number;
};

/** Words too common to match on in a text (PostgreSQL's English stop words, the frequent ones). */
const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between " +
    "both but by can did do does doing down during each few for from further had has have having he her here " +
    "hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of " +
    "off on once only or other our ours ourselves out over own same she should so some such than that the their " +
    "theirs them themselves then there these they this those through to too under until up very was we were what " +
    "when where which while who whom why will with you your yours yourself yourselves"
  ).split(" "),
);

/** Lower case, accents dropped: "Señor" and "senor" are one word. */
export function fold(word: string): string {
  return word
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();
}

/** The folded words of a text (letters and digits; anything else separates words). */
export function wordsOf(text: string): string[] {
  return fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A light English stem, so that plurals meet their singular ("routers", "router"; "licences", "licence"). */
export function stem(word: string): string {
  if (word.length <= 3 || /\p{N}/u.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (word.endsWith("s") && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The trigrams of a word as pg_trgm makes them: the word padded with two spaces before and one after. */
export function trigrams(word: string): string[] {
  const padded = `  ${word} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return [...out];
}

/** Share of `word`'s trigrams found in `other` (pg_trgm's word similarity when `other` is one word). */
export function wordSimilarity(word: string, other: string): number {
  return shareFound(trigrams(word), new Set(trigrams(other)));
}

/** Share of the trigrams `mine` found in `theirs`. */
function shareFound(mine: string[], theirs: Set<string>): number {
  let found = 0;
  for (const trigram of mine) if (theirs.has(trigram)) found++;
  return found / mine.length;
}

const EMPTY = new Int32Array(0);

/**
 * Positions added in ascending order, while an index is made: a plain array while short, then a typed array that
 * doubles when full. A long list (a description's common word, at 100,000 products) then takes 4 bytes a position
 * instead of 8, and the copies left behind as it grows are freed at once instead of filling the heap: building the
 * index at 100,000 products left a store process about 25 MB larger.
 */
class Positions {
  private small: number[] | null = [];
  private big = EMPTY;
  length = 0;

  push(position: number) {
    if (this.small && this.small.length < LONG) this.small.push(position);
    else {
      if (this.small) {
        this.big = new Int32Array(LONG * 2);
        this.big.set(this.small);
        this.small = null;
      } else if (this.length === this.big.length) {
        const grown = new Int32Array(this.big.length * 2);
        grown.set(this.big);
        this.big = grown;
      }
      this.big[this.length] = position;
    }
    this.length++;
  }

  at(index: number): number {
    return this.small ? this.small[index]! : this.big[index]!;
  }

  toInt32Array(): Int32Array {
    return this.small ? Int32Array.from(this.small) : this.big.slice(0, this.length);
  }
}

/** How many positions a list holds in a plain array before it moves to a typed one. */
const LONG = 64;

/** Product positions (ascending) per word. */
function postingsOf(lists: Map<string, Positions>): Map<string, Int32Array> {
  const out = new Map<string, Int32Array>();
  for (const [word, list] of lists) out.set(word, list.toInt32Array());
  return out;
}

function add(lists: Map<string, Positions>, word: string, position: number) {
  let list = lists.get(word);
  if (!list) lists.set(word, (list = new Positions()));
  if (list.length === 0 || list.at(list.length - 1) !== position) list.push(position);
}

export type SearchIndex = {
  /** Product ids in catalogue order: a product's position here is its place in every list below. */
  ids: Int32Array;
  /** Each product's brand position and own position, which with its id make its catalogue order. */
  brandPositions: Int32Array;
  productPositions: Int32Array;
  /** Words of product names: where they are, and the vocabulary by trigram (for typos and prefixes). */
  nameWords: Map<string, Int32Array>;
  vocabulary: string[];
  vocabularyByTrigram: Map<string, Int32Array>;
  /** Stemmed words of names, and of descriptions (stop words left out). */
  nameStems: Map<string, Int32Array>;
  descriptionStems: Map<string, Int32Array>;
  /** Per brand group key: the trigrams of each word of its name, and its products (positions, in catalogue order). */
  brands: Map<string, { wordTrigrams: Array<Set<string>>; products: Int32Array }>;
  /** Brand group key per product position, and section per brand group key. */
  groupOf: string[];
  sectionOf: Map<string, string>;
  /** Category tags (best-seller, top-rated, ...): product positions, in catalogue order. */
  tags: Map<string, Int32Array>;
  /** rankProducts' buffers, made at its first search. */
  work?: {
    seen: Uint8Array;
    candidates: Int32Array;
    scores: Float32Array[];
    inText: Uint8Array[];
    totals: Float64Array;
  };
};

/** What the index lists a product under: the lists of words, stems and tags it is in. */
type ListedUnder = {
  nameWords: Map<string, Positions>;
  nameStems: Map<string, Positions>;
  descriptionStems: Map<string, Positions>;
  tags: Map<string, Positions>;
  brands: Map<string, Positions>;
};

const emptyLists = (): ListedUnder => ({
  nameWords: new Map(),
  nameStems: new Map(),
  descriptionStems: new Map(),
  tags: new Map(),
  brands: new Map(),
});

/**
 * Adds the product at `position` to the lists of its words, stems, tags and brand (positions must come in
 * ascending order). Products often share a description (editions of one product): `stemsOfDescription` keeps the
 * stems of each one worked out.
 */
function listProduct(
  lists: ListedUnder,
  row: IndexedProductRow,
  position: number,
  stemsOfDescription: Map<string, string[]>,
) {
  for (const word of new Set(wordsOf(row.name))) add(lists.nameWords, word, position);
  for (const word of new Set(
    wordsOf(row.name)
      .filter((w) => !STOP_WORDS.has(w))
      .map(stem),
  )) {
    add(lists.nameStems, word, position);
  }
  let stems = stemsOfDescription.get(row.description);
  if (!stems) {
    stems = [
      ...new Set(
        wordsOf(row.description)
          .filter((w) => !STOP_WORDS.has(w))
          .map(stem),
      ),
    ];
    stemsOfDescription.set(row.description, stems);
  }
  for (const word of stems) add(lists.descriptionStems, word, position);
  add(lists.brands, row.groupKey, position);
  for (const tag of new Set(row.categories)) add(lists.tags, tag, position);
}

const brandEntry = (brandName: string) => ({
  wordTrigrams: [...new Set(wordsOf(brandName))].map((word) => new Set(trigrams(word))),
});

/** Builds the index of `rows`, given in catalogue order. */
export function buildSearchIndex(rows: IndexedProductRow[]): SearchIndex {
  const lists = emptyLists();
  const sectionOf = new Map<string, string>();
  const brandNames = new Map<string, string>();
  const stemsOfDescription = new Map<string, string[]>();
  rows.forEach((row, position) => {
    listProduct(lists, row, position, stemsOfDescription);
    brandNames.set(row.groupKey, row.brandName);
    sectionOf.set(row.groupKey, row.section);
  });
  const vocabulary = [...lists.nameWords.keys()].sort();
  const byTrigram = new Map<string, Positions>();
  vocabulary.forEach((word, index) => {
    for (const trigram of trigrams(word)) add(byTrigram, trigram, index);
  });
  const { nameWords, nameStems, descriptionStems, tags } = lists;
  return {
    ids: Int32Array.from(rows, (row) => row.id),
    brandPositions: Int32Array.from(rows, (row) => row.brandPosition),
    productPositions: Int32Array.from(rows, (row) => row.position),
    nameWords: postingsOf(nameWords),
    vocabulary,
    vocabularyByTrigram: postingsOf(byTrigram),
    nameStems: postingsOf(nameStems),
    descriptionStems: postingsOf(descriptionStems),
    brands: new Map(
      [...lists.brands].map(([key, products]) => [
        key,
        { ...brandEntry(brandNames.get(key)!), products: products.toInt32Array() },
      ]),
    ),
    groupOf: rows.map((row) => row.groupKey),
    sectionOf,
    tags: postingsOf(tags),
  };
}

/** Whether a product with these keys comes before the one at `position` in catalogue order. */
function comesBefore(row: IndexedProductRow, index: SearchIndex, position: number) {
  const brand = index.brandPositions[position]!;
  if (row.brandPosition !== brand) return row.brandPosition < brand;
  const own = index.productPositions[position]!;
  if (row.position !== own) return row.position < own;
  return row.id < index.ids[position]!;
}

const inCatalogueOrder = (a: IndexedProductRow, b: IndexedProductRow) =>
  a.brandPosition - b.brandPosition || a.position - b.position || a.id - b.id;

/**
 * Each list with its positions moved to where `moved` says (-1: left out) and the `added` positions merged in, in
 * ascending order; a list left empty is dropped.
 */
function movedLists(
  lists: Map<string, Int32Array>,
  moved: Int32Array,
  added: Map<string, Positions>,
): Map<string, Int32Array> {
  const out = new Map<string, Int32Array>();
  for (const [key, list] of lists) {
    const extra = added.get(key)?.toInt32Array() ?? EMPTY;
    const next = new Int32Array(list.length + extra.length);
    let n = 0;
    let e = 0;
    for (let i = 0; i < list.length; i++) {
      const to = moved[list[i]!]!;
      if (to < 0) continue;
      while (e < extra.length && extra[e]! < to) next[n++] = extra[e++]!;
      next[n++] = to;
    }
    while (e < extra.length) next[n++] = extra[e++]!;
    if (n > 0) out.set(key, n === next.length ? next : next.slice(0, n));
  }
  for (const [key, extra] of added) if (!lists.has(key)) out.set(key, extra.toInt32Array());
  return out;
}

/**
 * The index after some products changed, without reading the others again: the products of `changed` (ids) are
 * taken out, and those of `rows` (the changed ones visible now, as they are now) put in at their place in catalogue
 * order. Every other product keeps its words and tags; their positions move past the ones taken out and put in.
 * Assumes brands kept their names, sections and order (a change to a brand builds the index again). A new index is
 * returned: a request still reading the old one is not disturbed.
 */
export function updateSearchIndex(
  index: SearchIndex,
  changed: Iterable<number>,
  rows: IndexedProductRow[],
): SearchIndex {
  const out = new Set(changed);
  const coming = [...rows].sort(inCatalogueOrder);
  const count = index.ids.length;
  const moved = new Int32Array(count);
  const ids: number[] = [];
  const brandPositions: number[] = [];
  const productPositions: number[] = [];
  const groupOf: string[] = [];
  const lists = emptyLists();
  const stemsOfDescription = new Map<string, string[]>();
  let next = 0;
  const putIn = (row: IndexedProductRow) => {
    listProduct(lists, row, ids.length, stemsOfDescription);
    ids.push(row.id);
    brandPositions.push(row.brandPosition);
    productPositions.push(row.position);
    groupOf.push(row.groupKey);
  };
  for (let position = 0; position < count; position++) {
    if (out.has(index.ids[position]!)) {
      moved[position] = -1;
      continue;
    }
    while (next < coming.length && comesBefore(coming[next]!, index, position)) putIn(coming[next++]!);
    moved[position] = ids.length;
    ids.push(index.ids[position]!);
    brandPositions.push(index.brandPositions[position]!);
    productPositions.push(index.productPositions[position]!);
    groupOf.push(index.groupOf[position]!);
  }
  while (next < coming.length) putIn(coming[next++]!);

  // Words new to the vocabulary go at its end, with their trigrams; words no product has now stay, matching none.
  const vocabulary = [...index.vocabulary];
  const known = new Set(vocabulary);
  const byTrigram = new Map<string, Positions>();
  for (const word of lists.nameWords.keys()) {
    if (known.has(word)) continue;
    for (const trigram of trigrams(word)) add(byTrigram, trigram, vocabulary.length);
    vocabulary.push(word);
  }
  const vocabularyByTrigram = new Map(index.vocabularyByTrigram);
  for (const [trigram, words] of byTrigram) {
    const before = vocabularyByTrigram.get(trigram) ?? EMPTY;
    const list = new Int32Array(before.length + words.length);
    list.set(before);
    list.set(words.toInt32Array(), before.length);
    vocabularyByTrigram.set(trigram, list);
  }

  const brandProducts = movedLists(
    new Map([...index.brands].map(([key, brand]) => [key, brand.products])),
    moved,
    lists.brands,
  );
  const sectionOf = new Map(index.sectionOf);
  const brandNames = new Map<string, string>();
  for (const row of coming) {
    sectionOf.set(row.groupKey, row.section);
    brandNames.set(row.groupKey, row.brandName);
  }
  return {
    ids: Int32Array.from(ids),
    brandPositions: Int32Array.from(brandPositions),
    productPositions: Int32Array.from(productPositions),
    nameWords: movedLists(index.nameWords, moved, lists.nameWords),
    vocabulary,
    vocabularyByTrigram,
    nameStems: movedLists(index.nameStems, moved, lists.nameStems),
    descriptionStems: movedLists(index.descriptionStems, moved, lists.descriptionStems),
    brands: new Map(
      [...brandProducts].map(([key, products]) => [
        key,
        {
          wordTrigrams: index.brands.get(key)?.wordTrigrams ?? brandEntry(brandNames.get(key)!).wordTrigrams,
          products,
        },
      ]),
    ),
    groupOf,
    sectionOf,
    tags: movedLists(index.tags, moved, lists.tags),
  };
}

/** How many visible products a brand group has, and the ids of `limit` of them from `offset`, in catalogue order. */
export function brandIds(
  index: SearchIndex,
  groupKey: string,
  offset = 0,
  limit = Number.POSITIVE_INFINITY,
): { ids: number[]; total: number } {
  return slice(index, index.brands.get(groupKey)?.products ?? EMPTY, offset, limit);
}

function slice(index: SearchIndex, positions: Int32Array, offset: number, limit: number) {
  const end = Math.min(positions.length, offset + limit);
  const ids: number[] = [];
  for (let at = offset; at < end; at++) ids.push(index.ids[positions[at]!]!);
  return { ids, total: positions.length };
}

/** How many visible products carry `tag`, and the ids of `limit` of them from `offset`, in catalogue order. */
export function taggedIds(
  index: SearchIndex,
  tag: string,
  offset = 0,
  limit = Number.POSITIVE_INFINITY,
): { ids: number[]; total: number } {
  return slice(index, index.tags.get(tag) ?? EMPTY, offset, limit);
}

/**
 * Ids of at most `limit` visible products of a section carrying the first tag, then of those carrying the next
 * (and not an earlier one), each in catalogue order.
 */
export function sectionTaggedIds(
  index: SearchIndex,
  section: string,
  tags: string[],
  limit: number,
): number[] {
  const taken = new Set<number>();
  const ids: number[] = [];
  for (const tag of tags) {
    for (const position of index.tags.get(tag) ?? EMPTY) {
      if (ids.length >= limit) return ids;
      if (taken.has(position) || index.sectionOf.get(index.groupOf[position]!) !== section) continue;
      taken.add(position);
      ids.push(index.ids[position]!);
    }
  }
  return ids;
}

/**
 * The words of product names that a word is like (typos, prefixes, the word itself), with their similarity; `mine`
 * are the word's trigrams.
 */
function similarNameWords(index: SearchIndex, mine: string[]): Array<[string, number]> {
  const shared = new Map<number, number>();
  for (const trigram of mine) {
    for (const at of index.vocabularyByTrigram.get(trigram) ?? EMPTY)
      shared.set(at, (shared.get(at) ?? 0) + 1);
  }
  const out: Array<[string, number]> = [];
  for (const [at, count] of shared) {
    const similarity = count / mine.length;
    if (similarity >= WORD_SIMILARITY_THRESHOLD) out.push([index.vocabulary[at]!, similarity]);
  }
  return out;
}

/**
 * A bounded heap of the best `limit` (score, position) pairs: higher score first, then earlier in the catalogue. Kept
 * in typed arrays and swapped through locals: a search offers it up to every match, and it allocates nothing per
 * offer (a swap by destructuring made two arrays each time, about 400 KB a search at 100,000 products).
 */
class Best {
  private readonly scores: Float64Array;
  private readonly positions: Int32Array;
  private size = 0;
  constructor(limit: number) {
    this.scores = new Float64Array(limit);
    this.positions = new Int32Array(limit);
  }
  /** Whether the pair at a is worse than the pair at b. */
  private worse(a: number, b: number) {
    const scores = this.scores;
    return scores[a]! < scores[b]! || (scores[a] === scores[b] && this.positions[a]! > this.positions[b]!);
  }
  private swap(a: number, b: number) {
    const scores = this.scores;
    const positions = this.positions;
    const score = scores[a]!;
    scores[a] = scores[b]!;
    scores[b] = score;
    const position = positions[a]!;
    positions[a] = positions[b]!;
    positions[b] = position;
  }
  offer(score: number, position: number) {
    const { size, scores, positions } = this;
    if (size < scores.length) {
      scores[size] = score;
      positions[size] = position;
      this.size = size + 1;
      for (let at = size; at > 0; ) {
        const parent = (at - 1) >> 1;
        if (!this.worse(at, parent)) break;
        this.swap(at, parent);
        at = parent;
      }
      return;
    }
    // The root is the worst kept: replace it only by a better one.
    if (score < scores[0]! || (score === scores[0] && position > positions[0]!)) return;
    scores[0] = score;
    positions[0] = position;
    for (let at = 0; ; ) {
      const left = 2 * at + 1;
      const right = left + 1;
      let worst = at;
      if (left < size && this.worse(left, worst)) worst = left;
      if (right < size && this.worse(right, worst)) worst = right;
      if (worst === at) break;
      this.swap(at, worst);
      at = worst;
    }
  }
  /** The positions kept, best first. */
  sorted(): number[] {
    return Array.from({ length: this.size }, (_, at) => ({
      score: this.scores[at]!,
      position: this.positions[at]!,
    }))
      .sort((a, b) => b.score - a.score || a.position - b.position)
      .map((entry) => entry.position);
  }
}

/** Raises the score at `positions` to `value`, noting new candidates; returns how many there are now. */
function raiseScores(
  positions: Int32Array,
  value: number,
  score: Float32Array,
  seen: Uint8Array,
  candidates: Int32Array,
  found: number,
): number {
  let count = found;
  for (let i = 0; i < positions.length; i++) {
    const position = positions[i]!;
    if (value > score[position]!) score[position] = value;
    if (seen[position] === 0) {
      seen[position] = 1;
      candidates[count++] = position;
    }
  }
  return count;
}

/**
 * The ids of the products matching `words` (folded, from searchWords), best first, at most `limit`.
 *
 * A word matches a product when it is like a word of its name (a typo or a prefix: trigram similarity at least
 * WORD_SIMILARITY_THRESHOLD), like a word of its brand's name, or its stem is in the name or description. Its score
 * there is the best of the name similarity, 1.25 x the brand similarity and 0.8 for the stem in the text. A product
 * scores the average of its word scores, each word weighted by how rare it is among the matches ("kasperski"
 * outweighs "antivirus"), plus 0.5 when every word is in its text, plus up to 0.1 for words in its name. Results
 * below 0.4 x the best score are left out; ties go in catalogue order.
 */
export function rankProducts(index: SearchIndex, queryWords: string[], limit: number): number[] {
  const words = [...new Set(queryWords.map(fold))].filter(Boolean).slice(0, SEARCH_MAX_WORDS);
  const count = index.ids.length;
  if (words.length === 0 || count === 0) return [];
  // Buffers kept with the index (rankProducts never awaits, so two searches never use them at once).
  const work = (index.work ??= {
    seen: new Uint8Array(count),
    candidates: new Int32Array(count),
    scores: Array.from({ length: SEARCH_MAX_WORDS }, () => new Float32Array(count)),
    inText: Array.from({ length: SEARCH_MAX_WORDS }, () => new Uint8Array(count)),
    totals: new Float64Array(count),
  });
  const { seen, candidates, totals } = work;
  let found = 0;
  // Per word: its score at each product (0: no match), and whether its stem is in the name (2) or description (1).
  const scores = work.scores.slice(0, words.length);
  const inText = work.inText.slice(0, words.length);
  try {
    for (let w = 0; w < words.length; w++) {
      const word = words[w]!;
      const score = scores[w]!;
      const marks = inText[w]!;
      const raise = (positions: Int32Array, value: number) => {
        found = raiseScores(positions, value, score, seen, candidates, found);
      };
      const mine = trigrams(word);
      for (const [nameWord, similarity] of similarNameWords(index, mine)) {
        raise(index.nameWords.get(nameWord) ?? EMPTY, similarity);
      }
      for (const brand of index.brands.values()) {
        let similarity = 0;
        for (const theirs of brand.wordTrigrams) similarity = Math.max(similarity, shareFound(mine, theirs));
        if (similarity >= WORD_SIMILARITY_THRESHOLD) raise(brand.products, BRAND_WEIGHT * similarity);
      }
      if (STOP_WORDS.has(word)) continue;
      const stemmed = stem(word);
      for (const [stems, mark] of [
        [index.descriptionStems, 1],
        [index.nameStems, 2],
      ] as const) {
        const positions = stems.get(stemmed) ?? EMPTY;
        raise(positions, TEXT_SCORE);
        for (let i = 0; i < positions.length; i++) marks[positions[i]!] = mark;
      }
    }

    // Inverse document frequency among the matches.
    const weights = scores.map((score) => {
      let matched = 0;
      for (let c = 0; c < found; c++) if (score[candidates[c]!]! >= WORD_SIMILARITY_THRESHOLD) matched++;
      return Math.log(1 + found / Math.max(1, matched));
    });
    const totalWeight = weights.reduce((sum, weight) => sum + weight, 0) || 1;
    const textWords = words.map((word) => !STOP_WORDS.has(word));
    const anyTextWord = textWords.some(Boolean);
    let best = 0;
    for (let c = 0; c < found; c++) {
      const position = candidates[c]!;
      let sum = 0;
      let everyWord = anyTextWord;
      let rank = 0;
      for (let w = 0; w < words.length; w++) {
        sum += weights[w]! * scores[w]![position]!;
        const mark = inText[w]![position]!;
        if (mark === 0 && textWords[w]) everyWord = false;
        rank += mark === 2 ? 1 : mark === 1 ? DESCRIPTION_RANK : 0;
      }
      const total =
        sum / totalWeight + (everyWord ? ALL_WORDS_BONUS : 0) + (RANK_WEIGHT * rank) / words.length;
      totals[c] = total;
      if (total > best) best = total;
    }
    const kept = new Best(Math.min(limit, found));
    const cutoff = best * RELATIVE_SCORE_CUTOFF;
    for (let c = 0; c < found; c++) if (totals[c]! >= cutoff) kept.offer(totals[c]!, candidates[c]!);
    return kept.sorted().map((position) => index.ids[position]!);
  } finally {
    // Zeroed again where this search wrote, even if it failed: the next one starts clean.
    for (let c = 0; c < found; c++) {
      const position = candidates[c]!;
      seen[position] = 0;
      for (let w = 0; w < words.length; w++) {
        scores[w]![position] = 0;
        inText[w]![position] = 0;
      }
    }
  }
}
