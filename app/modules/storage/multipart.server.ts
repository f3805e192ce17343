/**
 * A streaming multipart/form-data reader: parts come one at a time and a part's body is read as it arrives, so a
 * file is never held in memory. Limits keep every part of the format other than file bodies small.
 */

export class MultipartError extends Error {
  override name = "MultipartError";
}

export type PartInfo = {
  /** The form field name. */
  name: string;
  /** Present for file fields. */
  filename?: string;
  contentType?: string;
};

export type Part = PartInfo & {
  /** The part's bytes. Read it before asking for the next part (whatever is left is skipped). */
  body: AsyncIterable<Buffer>;
};

export type MultipartLimits = {
  /** Most parts accepted. */
  maxParts: number;
  /** Longest header block of a part, and longest preamble. */
  maxHeaderBytes: number;
};

const CRLF = Buffer.from("\r\n");

/** The boundary of a multipart/form-data Content-Type, or undefined when it is not one. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const [type, ...params] = contentType.split(";");
  if (type?.trim().toLowerCase() !== "multipart/form-data") return undefined;
  for (const param of params) {
    const match = /^\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s";]{1,70}))\s*$/i.exec(param);
    if (match) return match[1] ?? match[2];
  }
  return undefined;
}

/** Reads the parts of a multipart body. Throws MultipartError on a malformed body or a limit. */
export async function* readMultipart(
  source: AsyncIterable<Uint8Array>,
  boundary: string,
  limits: MultipartLimits,
): AsyncGenerator<Part> {
  const reader = new ChunkReader(source);
  // Every boundary, the first included, is "\r\n--boundary": pretend the body starts with a line break.
  reader.unshift(CRLF);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // Skip the preamble.
  for await (const skipped of reader.readUntil(delimiter, limits.maxHeaderBytes)) void skipped;
  for (let count = 0; ; count++) {
    const rest = await reader.readLine(limits.maxHeaderBytes);
    if (rest.startsWith("--")) return; // the closing boundary; an epilogue is ignored
    if (rest.trim() !== "") throw new MultipartError("Malformed multipart body: text after a boundary");
    if (count >= limits.maxParts) throw new MultipartError(`Too many parts (at most ${limits.maxParts})`);
    const info = parseHeaders(await reader.readHeaderBlock(limits.maxHeaderBytes));
    const body = reader.readUntil(delimiter);
    yield { ...info, body };
    // Skip whatever the caller did not read.
    for await (const skipped of body) void skipped;
  }
}

class ChunkReader {
  private buffer: Buffer = Buffer.alloc(0);
  private readonly iterator: AsyncIterator<Uint8Array>;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  unshift(bytes: Buffer) {
    this.buffer = Buffer.concat([bytes, this.buffer]);
  }

  /** Appends the next chunk of the source; false at its end. */
  private async more(): Promise<boolean> {
    const { done, value } = await this.iterator.next();
    if (done) return false;
    const chunk = Buffer.isBuffer(value)
      ? value
      : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    return true;
  }

  /** The bytes up to the delimiter (consumed, not returned), as they arrive. */
  async *readUntil(delimiter: Buffer, maxBytes = Infinity): AsyncGenerator<Buffer> {
    let total = 0;
    for (;;) {
      const index = this.buffer.indexOf(delimiter);
      if (index >= 0) {
        const before = this.buffer.subarray(0, index);
        this.buffer = this.buffer.subarray(index + delimiter.length);
        if ((total += before.length) > maxBytes) throw new MultipartError("Multipart preamble too long");
        if (before.length > 0) yield before;
        return;
      }
      // Everything but a possible start of the delimiter at the end can go.
      const keep = delimiter.length - 1;
      if (this.buffer.length > keep) {
        const ready = this.buffer.subarray(0, this.buffer.length - keep);
        this.buffer = this.buffer.subarray(this.buffer.length - keep);
        if ((total += ready.length) > maxBytes) throw new MultipartError("Multipart preamble too long");
        yield ready;
      }
      if (!(await this.more())) throw new MultipartError("The multipart body ended too early");
    }
  }

  /** One line, without its line break. */
  async readLine(maxBytes: number): Promise<string> {
    for (;;) {
      const index = this.buffer.indexOf(CRLF);
      if (index >= 0) {
        const line = this.buffer.subarray(0, index).toString("utf8");
        this.buffer = this.buffer.subarray(index + CRLF.length);
        return line;
      }
      if (this.buffer.length > maxBytes) throw new MultipartError("Multipart line too long");
      if (!(await this.more())) throw new MultipartError("The multipart body ended too early");
    }
  }

  /** Header lines up to the empty line that ends them. */
  async readHeaderBlock(maxBytes: number): Promise<string[]> {
    const lines: string[] = [];
    let size = 0;
    for (;;) {
      const line = await this.readLine(maxBytes - size);
      if (line === "") return lines;
      size += line.length + 2;
      if (size > maxBytes) throw new MultipartError("Multipart part headers too long");
      lines.push(line);
    }
  }
}

function parseHeaders(lines: string[]): PartInfo {
  let disposition: string | undefined;
  let contentType: string | undefined;
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new MultipartError("Malformed multipart part header");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === "content-disposition") disposition = value;
    else if (name === "content-type") contentType = value;
  }
  if (!disposition || !/^form-data\s*(;|$)/i.test(disposition))
    throw new MultipartError("A multipart part has no Content-Disposition: form-data header");
  const params = dispositionParams(disposition);
  const name = params.get("name");
  if (name === undefined) throw new MultipartError("A multipart part has no field name");
  const filename = params.get("filename*") ?? params.get("filename");
  return {
    name,
    ...(filename !== undefined ? { filename } : {}),
    ...(contentType ? { contentType } : {}),
  };
}

/** The parameters of a Content-Disposition value (quoted strings unescaped; filename*=UTF-8''... decoded). */
function dispositionParams(value: string): Map<string, string> {
  const params = new Map<string, string>();
  const pattern = /;\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (let match = pattern.exec(value); match; match = pattern.exec(value)) {
    const key = match[1]!.toLowerCase();
    let text = match[2] !== undefined ? match[2].replace(/\\(.)/g, "$1") : match[3]!.trim();
    if (key.endsWith("*")) {
      const extended = /^utf-8'[^']*'(.*)$/i.exec(text);
      if (!extended) continue;
      try {
        text = decodeURIComponent(extended[1]!);
      } catch {
        continue;
      }
    }
    if (!params.has(key)) params.set(key, text);
  }
  return params;
}
