import { describe, expect, it } from "vitest";
import { DRAIN_LIMIT_BYTES, readFormBody } from "./form-data.server";

const post = (body: BodyInit, headers: Record<string, string> = {}) =>
  new Request("http://localhost/contact", { method: "POST", body, headers });

describe("readFormBody", () => {
  it("reads a url-encoded form, first value of a repeated name", async () => {
    const body = new URLSearchParams([
      ["name", "Ada"],
      ["message", "Hello, world & more"],
      ["name", "second"],
    ]);
    expect(await readFormBody(post(body))).toEqual({
      ok: true,
      values: { name: "Ada", message: "Hello, world & more" },
    });
  });

  it("reads the text fields of a multipart form and ignores files", async () => {
    const form = new FormData();
    form.set("name", "Ada");
    form.set("attachment", new Blob(["file"]), "a.txt");
    expect(await readFormBody(post(form))).toEqual({ ok: true, values: { name: "Ada" } });
  });

  it("drops NUL characters, which no form means and the database cannot store", async () => {
    const body = new URLSearchParams([
      ["title", "a\0b"],
      ["message", "line one\nline\ttwo"],
    ]);
    expect(await readFormBody(post(body))).toEqual({
      ok: true,
      values: { title: "ab", message: "line one\nline\ttwo" },
    });
  });

  it("keeps odd field names as plain values", async () => {
    const result = await readFormBody(post(new URLSearchParams([["__proto__", "x"]])));
    expect(result.ok && Object.getPrototypeOf(result.values)).toBe(Object.prototype);
    expect(result.ok && Object.hasOwn(result.values, "__proto__")).toBe(true);
  });

  it("refuses a body whose declared length is over the limit, reading the rest so the answer is heard", async () => {
    const request = post("message=" + "a".repeat(2000), { "content-length": "2008" });
    expect(await readFormBody(request, 1000)).toEqual({ ok: false, reason: "too-large" });
    expect(request.bodyUsed).toBe(true);
  });

  it("does not read at all a body declared larger than the drain bound", async () => {
    const request = post("message=x", { "content-length": String(DRAIN_LIMIT_BYTES + 1) });
    expect(await readFormBody(request, 1000)).toEqual({ ok: false, reason: "too-large" });
    expect(request.bodyUsed).toBe(false);
  });

  it("stops reading a body of unknown length past the drain bound", async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(97);
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(chunk);
      },
    });
    const request = new Request("http://localhost/contact", {
      method: "POST",
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(await readFormBody(request, 1000)).toEqual({ ok: false, reason: "too-large" });
    expect(pulled).toBeLessThan(DRAIN_LIMIT_BYTES / chunk.byteLength + 4);
  });
});
