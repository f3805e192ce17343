import { describe, expect, it } from "vitest";
import { readFormBody } from "./form-data.server";

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

  it("answers unreadable when the body breaks off (the server cut it, or the client went away)", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("name=Ada&message="));
        controller.error(new Error("the connection was closed"));
      },
    });
    const request = new Request("http://localhost/contact", {
      method: "POST",
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(await readFormBody(request)).toEqual({ ok: false, reason: "unreadable" });
  });
});
