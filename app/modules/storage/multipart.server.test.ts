import { describe, expect, it } from "vitest";
import { MultipartError, multipartBoundary, readMultipart } from "./multipart.server";

const limits = { maxParts: 5, maxHeaderBytes: 1024 };

async function collect(chunks: Uint8Array[], boundary = "XyZ") {
  const parts: Array<{ name: string; filename?: string; contentType?: string; text: string }> = [];
  async function* source() {
    yield* chunks;
  }
  for await (const part of readMultipart(source(), boundary, limits)) {
    const pieces: Buffer[] = [];
    for await (const piece of part.body) pieces.push(piece);
    const { body: _body, ...info } = part;
    parts.push({ ...info, text: Buffer.concat(pieces).toString("utf8") });
  }
  return parts;
}

/** The same body as a real client encodes it. */
async function encoded(form: FormData) {
  const request = new Request("http://localhost/", { method: "POST", body: form });
  const boundary = multipartBoundary(request.headers.get("content-type") ?? undefined)!;
  return { boundary, bytes: new Uint8Array(await request.arrayBuffer()) };
}

describe("the multipart reader", () => {
  it("reads fields and files as a browser's FormData encodes them, however the bytes are split", async () => {
    const form = new FormData();
    form.append("metadata", JSON.stringify({ cacheControl: "public" }));
    form.append(
      "file",
      new Blob(["line one\r\n--XyZ not a boundary\r\n\r\nend"], { type: "text/plain" }),
      "notes é.txt",
    );
    const { boundary, bytes } = await encoded(form);
    const expected = [
      { name: "metadata", text: '{"cacheControl":"public"}' },
      {
        name: "file",
        filename: "notes é.txt",
        contentType: "text/plain",
        text: "line one\r\n--XyZ not a boundary\r\n\r\nend",
      },
    ];
    expect(await collect([bytes], boundary)).toEqual(expected);
    // Split at every position, and one byte at a time.
    for (let at = 1; at < bytes.length; at++) {
      expect(await collect([bytes.subarray(0, at), bytes.subarray(at)], boundary)).toEqual(expected);
    }
    const single = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(await collect(single, boundary)).toEqual(expected);
  });

  it("finds the boundary of a multipart/form-data content type only", () => {
    expect(multipartBoundary("multipart/form-data; boundary=abc")).toBe("abc");
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b"')).toBe("a b");
    expect(multipartBoundary("multipart/related; boundary=abc")).toBeUndefined();
    expect(multipartBoundary("application/json")).toBeUndefined();
    expect(multipartBoundary(undefined)).toBeUndefined();
  });

  it("refuses a body that ends inside a part, too many parts and headers that never end", async () => {
    const text = (value: string) => [new TextEncoder().encode(value)];
    await expect(
      collect(text('--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nhalf')),
    ).rejects.toThrow(MultipartError);
    const many = Array.from(
      { length: 6 },
      (_, i) => `--XyZ\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`,
    ).join("");
    await expect(collect(text(`${many}--XyZ--\r\n`))).rejects.toThrow(/Too many parts/);
    await expect(collect(text(`--XyZ\r\n${"X-Long: y\r\n".repeat(200)}`))).rejects.toThrow(MultipartError);
    await expect(collect(text("--XyZ\r\nContent-Type: text/plain\r\n\r\nv\r\n--XyZ--"))).rejects.toThrow(
      /Content-Disposition/,
    );
  });

  it("passes on an error of the source, such as a client that went away", async () => {
    async function* aborted() {
      yield new TextEncoder().encode(
        '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n',
      );
      yield new Uint8Array(100);
      throw new Error("aborted");
    }
    const read = async () => {
      for await (const part of readMultipart(aborted(), "XyZ", limits)) for await (const _ of part.body);
    };
    await expect(read()).rejects.toThrow("aborted");
  });
});
