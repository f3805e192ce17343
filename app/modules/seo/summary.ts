/** About what search results show of a description. */
export const DESCRIPTION_MAX = 160;

/**
 * A description for search results out of longer text (a product's description, a brand's why-choose text, a
 * Markdown page): its first paragraph that is not a heading, as plain text, cut at a word before `max` characters.
 */
export function summarize(text: string, max = DESCRIPTION_MAX): string {
  const firstParagraph =
    text
      .split(/\n\s*\n/)
      .filter((paragraph) => !/^\s{0,3}#/.test(paragraph))
      .map((paragraph) => plainText(paragraph))
      .find((paragraph) => paragraph !== "") ?? "";
  if (firstParagraph.length <= max) return firstParagraph;
  const cut = firstParagraph.slice(0, max - 1);
  const lastSpace = cut.lastIndexOf(" ");
  return `${(lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s,;:.-]+$/, "")}…`;
}

/** Markdown's marks dropped: headings, emphasis, list bullets, links (their text kept), images. */
function plainText(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^\s{0,3}(#{1,6}|[-*+]|\d+\.|>)\s+/gm, "")
    .replace(/(\*\*|__|\*|_|`)(\S[^]*?\S|\S)\1/g, "$2")
    .replace(/\s+/g, " ")
    .trim();
}

/** A page's own title with the store's name after it, as tabs and search results show it. */
export function withStoreName(title: string, storeName: string): string {
  const name = storeName.trim();
  if (!name || title === name || title.endsWith(`| ${name}`)) return title || name;
  return title ? `${title} | ${name}` : name;
}
