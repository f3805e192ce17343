import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { MultipartError, multipartForm } from "./multipart.server";

const limits = { maxParts: 5, maxFieldBytes: 64 };
const headers = (boundary = "XyZ") => ({ "content-type": `multipart/form-data; boundary=${boundary}` });

type Seen = { name: string; text: string; contentType?: string };

/** The parts of a body sent in these chunks, as the handlers see them. */
async function collect(chunks: Uint8Array[] | Readable, contentType = headers()["content-type"]) {
  const parts: Seen[] = [];
  const form = multipartForm({ "content-type": contentType }, limits);
  if (!form) throw new Error("not a multipart form");
  await form.read(Array.isArray(chunks) ? Readable.from(chunks, { objectMode: false }) : chunks, {
    field: (name, text) => void parts.push({ name, text }),
    async file(name, body, type) {
      const pieces: Buffer[] = [];
      for await (const piece of body) pieces.push(piece as Buffer);
      parts.push({ name, text: Buffer.concat(pieces).toString("utf8"), contentType: type });
    },
  });
  return parts;
}

const text = (value: string) => [new TextEncoder().encode(value)];

/** The same body as a real client encodes it. */
async function encoded(form: FormData) {
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return {
    contentType: request.headers.get("content-type")!,
    bytes: new Uint8Array(await request.arrayBuffer()),
  };
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
    const { contentType, bytes } = await encoded(form);
    const expected = [
      { name: "metadata", text: '{"cacheControl":"public"}' },
      { name: "file", contentType: "text/plain", text: "line one\r\n--XyZ not a boundary\r\n\r\nend" },
    ];
    expect(await collect([bytes], contentType)).toEqual(expected);
    // Split at every position, and one byte at a time.
    for (let at = 1; at < bytes.length; at++) {
      expect(await collect([bytes.subarray(0, at), bytes.subarray(at)], contentType)).toEqual(expected);
    }
    const single = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(await collect(single, contentType)).toEqual(expected);
  });

  it("reads multipart/form-data bodies only", () => {
    expect(multipartForm(headers("abc"), limits)).toBeDefined();
    expect(
      multipartForm({ "content-type": 'Multipart/Form-Data; charset=utf-8; boundary="a b"' }, limits),
    ).toBeDefined();
    expect(multipartForm({ "content-type": "multipart/form-data" }, limits)).toBeUndefined();
    expect(multipartForm({ "content-type": "multipart/related; boundary=abc" }, limits)).toBeUndefined();
    expect(multipartForm({ "content-type": "application/x-www-form-urlencoded" }, limits)).toBeUndefined();
    expect(multipartForm({ "content-type": "application/json" }, limits)).toBeUndefined();
    expect(multipartForm({}, limits)).toBeUndefined();
  });

  it("refuses a body that ends inside a part, too many parts, long fields and headers that never end", async () => {
    await expect(
      collect(text('--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nhalf')),
    ).rejects.toThrow(new MultipartError("The multipart body ended too early"));
    await expect(
      collect(text('--XyZ\r\nContent-Disposition: form-data; name="a"; filename="a"\r\n\r\nhalf')),
    ).rejects.toThrow(new MultipartError("The multipart body ended too early"));
    const fields = (count: number) =>
      Array.from(
        { length: count },
        (_, i) => `--XyZ\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`,
      ).join("") + "--XyZ--\r\n";
    expect(await collect(text(fields(5)))).toHaveLength(5);
    await expect(collect(text(fields(6)))).rejects.toThrow(new MultipartError("Too many parts (at most 5)"));
    const field = (value: string) =>
      text(`--XyZ\r\nContent-Disposition: form-data; name="metadata"\r\n\r\n${value}\r\n--XyZ--\r\n`);
    expect(await collect(field("x".repeat(64)))).toEqual([{ name: "metadata", text: "x".repeat(64) }]);
    await expect(collect(field("x".repeat(65)))).rejects.toThrow(
      new MultipartError('The "metadata" field is over 64 bytes.'),
    );
    await expect(collect(text(`--XyZ\r\n${"X-Long: y\r\n".repeat(2000)}\r\nv\r\n--XyZ--`))).rejects.toThrow(
      new MultipartError("Malformed multipart part header"),
    );
    await expect(
      collect(text("--XyZ\r\nContent-Disposition: form-data\r\n\r\nv\r\n--XyZ--")),
    ).rejects.toThrow(new MultipartError("A multipart part has no field name"));
  });

  it("passes on an error of the source, such as a client that went away", async () => {
    async function* aborted() {
      yield Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n');
      yield Buffer.alloc(100);
      throw new Error("aborted");
    }
    await expect(collect(Readable.from(aborted()))).rejects.toThrow("aborted");
  });

  it("settles only once the file being read has given up, with the first error", async () => {
    const events: string[] = [];
    const form = multipartForm(headers(), limits)!;
    const body =
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\n' + "x".repeat(100_000);
    const read = form.read(Readable.from(text(body)), {
      field: () => {},
      async file(_name, stream) {
        try {
          for await (const _ of stream);
        } catch {
          // As a stored file's writer does: what was written is removed before it gives up.
          await new Promise((resolve) => setTimeout(resolve, 20));
          events.push("file handler gave up");
          throw new Error("cleaned up");
        }
      },
    });
    await expect(read).rejects.toThrow(new MultipartError("The multipart body ended too early"));
    events.push("read settled");
    expect(events).toEqual(["file handler gave up", "read settled"]);
  });
});
