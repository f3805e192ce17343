/**
 * Generated placeholder art for the demo store: no real logos or product photos.
 * /placeholder/{kind}/{name}.svg draws the name's words on a colour derived from the name.
 */

export const PLACEHOLDER_SIZES = {
  product: { width: 600, height: 600 },
  logo: { width: 320, height: 120 },
  banner: { width: 1600, height: 500 },
  icon: { width: 96, height: 96 },
  blog: { width: 800, height: 450 },
} as const;

export type PlaceholderKind = keyof typeof PLACEHOLDER_SIZES;

export function isPlaceholderKind(kind: string): kind is PlaceholderKind {
  return Object.hasOwn(PLACEHOLDER_SIZES, kind);
}

function hue(name: string): number {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % 360;
}

const escapeXml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!,
  );

/** Splits words into at most `maxLines` lines of about `width` characters. */
function wrap(words: string[], width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line && `${line} ${word}`.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = `${kept[maxLines - 1]}…`;
    return kept;
  }
  return lines;
}

/** Where a logo's name goes: right of the circle (which ends at x 85) with a gap, up to the logo's right margin. */
const LOGO_TEXT = { left: 97, right: 304, centre: 200.5, size: 30 };

/**
 * The largest size, up to 30, at which a name in bold capitals fits LOGO_TEXT: a capital of a bold sans-serif is at
 * most about 0.8 of the size wide on average (measured 0.71 to 0.74 in DejaVu Sans Bold), plus the letter spacing.
 */
function logoFontSize(line: string): number {
  const room = LOGO_TEXT.right - LOGO_TEXT.left;
  const chars = [...line].length;
  if (chars === 0) return LOGO_TEXT.size;
  return Math.min(LOGO_TEXT.size, Math.floor((room - chars) / (0.8 * chars)));
}

export function placeholderSvg(kind: PlaceholderKind, name: string): string {
  const { width, height } = PLACEHOLDER_SIZES[kind];
  const words = name
    .replace(/\.[a-z]+$/i, "")
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => word.toUpperCase())
    .slice(0, 12);
  const h = hue(name);
  const from = `hsl(${h} 70% 42%)`;
  const to = `hsl(${(h + 40) % 360} 75% 28%)`;
  const label = (lines: string[], size: number, y: number) =>
    lines
      .map(
        (line, i) =>
          `<text x="50%" y="${y + i * size * 1.2}" text-anchor="middle" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="${size}" font-weight="700" fill="#fff" letter-spacing="1">${escapeXml(line)}</text>`,
      )
      .join("");

  let body: string;
  switch (kind) {
    case "icon":
      body = `<rect width="96" height="96" rx="24" fill="url(#g)"/><circle cx="48" cy="48" r="22" fill="none" stroke="#fff" stroke-width="6"/><path d="M38 48l7 7 13-14" fill="none" stroke="#fff" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>`;
      break;
    case "logo": {
      const lines = wrap(words, 14, 1);
      const size = logoFontSize(lines[0] ?? "");
      body = `<rect width="${width}" height="${height}" rx="16" fill="url(#g)"/><circle cx="56" cy="60" r="26" fill="none" stroke="#fff" stroke-width="6"/>${label(lines, size, 60 + size * 0.36).replace(/x="50%"/g, `x="${LOGO_TEXT.centre}"`)}`;
      break;
    }
    default: {
      const lines = wrap(words, kind === "banner" ? 28 : 16, 3);
      const size = kind === "banner" ? 64 : kind === "blog" ? 40 : 44;
      const top = height / 2 - ((lines.length - 1) * size * 1.2) / 2 + size / 3;
      body =
        `<rect width="${width}" height="${height}" fill="url(#g)"/>` +
        `<circle cx="${width * 0.85}" cy="${height * 0.15}" r="${height * 0.35}" fill="#fff" opacity="0.08"/>` +
        `<circle cx="${width * 0.1}" cy="${height * 0.95}" r="${height * 0.3}" fill="#fff" opacity="0.06"/>` +
        // Banners sit behind headline text of their own: no label there.
        (kind === "banner" ? "" : label(lines, size, top)) +
        `<text x="50%" y="${height - 24}" text-anchor="middle" font-family="system-ui, sans-serif" font-size="16" fill="#fff" opacity="0.7">SAMPLE IMAGE</text>`;
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>${body}</svg>`;
}
