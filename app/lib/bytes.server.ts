/**
 * `bytes` with every `search` replaced by `replacement`, for a page on its way out, which stays bytes rather than
 * being decoded and encoded again. The same buffer when there is nothing to replace, else a new one of its own.
 */
export function replaceAllBytes(bytes: Buffer, search: Buffer, replacement: Buffer): Buffer {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = bytes.indexOf(search); at >= 0; at = bytes.indexOf(search, from)) {
    parts.push(bytes.subarray(from, at), replacement);
    from = at + search.length;
  }
  if (parts.length === 0) return bytes;
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}
