import { createHash } from "node:crypto";
import http from "node:http";
import { and, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { storageObjects } from "~db/schema";
import { drivers } from "../../../tests/support/database";
import { startStorageServer, type StorageTestServer } from "../../../tests/support/storage";
import { objectUrlPath, uploadUrlPath } from "./paths";
import type { StoredObjectResponse } from "./schemas";

const png = (color = "#c03") =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: color } })
    .png()
    .toBuffer();
/** A small but valid PDF of about the given size (PDFs are stored byte for byte). */
const pdf = (size: number) => {
  const head = "%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n";
  const tail = "\n%%EOF\n";
  return Buffer.from(head + "%".repeat(Math.max(0, size - head.length - tail.length)) + tail);
};
const md5 = (bytes: Uint8Array) => createHash("md5").update(bytes).digest("base64");

type UploadOptions = {
  bucket?: string;
  token?: string;
  filename?: string;
  type?: string;
  metadata?: unknown;
  headers?: Record<string, string>;
};

describe.each(drivers)("file storage over HTTP on %s", (driver) => {
  let server: StorageTestServer;
  let admin: string;
  let ada: string;
  let bob: string;
  beforeAll(async () => {
    server = await startStorageServer(driver);
    admin = server.signIn({ id: "admin-1", role: "admin" });
    ada = server.signIn({ id: "ada", role: "customer" });
    bob = server.signIn({ id: "bob", role: "customer" });
  });
  afterAll(async () => {
    await server.close();
  });

  const auth = (token: string | undefined): Record<string, string> =>
    token ? { authorization: `Bearer ${token}` } : {};

  function upload(fullPath: string, bytes: Uint8Array, options: UploadOptions = {}) {
    const form = new FormData();
    if (options.metadata !== undefined) form.append("metadata", JSON.stringify(options.metadata));
    form.append(
      "file",
      new Blob([new Uint8Array(bytes)], { type: options.type ?? "application/octet-stream" }),
      options.filename ?? fullPath.split("/").pop(),
    );
    return fetch(`${server.url}${uploadUrlPath(options.bucket ?? "uploads", fullPath)}`, {
      method: "POST",
      body: form,
      headers: { ...auth(options.token), ...options.headers },
    });
  }
  const metadataOf = (bucket: string, fullPath: string, token?: string) =>
    fetch(`${server.url}${objectUrlPath(bucket, fullPath)}`, { headers: auth(token) });
  const download = (bucket: string, fullPath: string, query = "", headers: Record<string, string> = {}) =>
    fetch(`${server.url}${objectUrlPath(bucket, fullPath)}?alt=media${query}`, { headers });
  const remove = (bucket: string, fullPath: string, token?: string) =>
    fetch(`${server.url}${objectUrlPath(bucket, fullPath)}`, { method: "DELETE", headers: auth(token) });
  const records = (bucket: string, fullPath: string) =>
    server.database.db
      .select()
      .from(storageObjects)
      .where(and(eq(storageObjects.bucket, bucket), eq(storageObjects.fullPath, fullPath)));
  async function expectError(response: Response, status: number, code: string) {
    expect({ status: response.status, body: await response.json() }).toMatchObject({
      status,
      body: { error: { code, message: expect.any(String) } },
    });
  }

  it("uploads a file and returns the stored file object with its download token", async () => {
    const bytes = await png();
    const response = await upload("users/ada/avatar.png", bytes, {
      token: ada,
      type: "image/png",
      metadata: {
        cacheControl: "private, max-age=60",
        contentLanguage: "en",
        customMetadata: { sku: "NORTON-360", alt: "A red square" },
      },
    });
    expect(response.status).toBe(200);
    const object = (await response.json()) as StoredObjectResponse;
    expect(object).toEqual({
      bucket: "uploads",
      fullPath: "users/ada/avatar.png",
      name: "avatar.png",
      size: expect.any(Number),
      contentType: "image/png",
      timeCreated: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      md5Hash: expect.stringMatching(/^[A-Za-z0-9+/]{22}==$/),
      cacheControl: "private, max-age=60",
      contentDisposition: null,
      contentEncoding: null,
      contentLanguage: "en",
      customMetadata: { sku: "NORTON-360", alt: "A red square" },
      downloadTokens: [expect.stringMatching(/^[0-9a-f-]{36}$/)],
    });
    expect(Math.abs(Date.parse(object.timeCreated) - Date.now())).toBeLessThan(60_000);

    // GET returns the same object; the size and MD5 are those of the bytes stored.
    const again = await metadataOf("uploads", "users/ada/avatar.png", ada);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(object);
    const stored = await download("uploads", "users/ada/avatar.png", `&token=${object.downloadTokens[0]}`);
    const storedBytes = new Uint8Array(await stored.arrayBuffer());
    expect(storedBytes.length).toBe(object.size);
    expect(md5(storedBytes)).toBe(object.md5Hash);
    // One record, and the bytes on disk under DATA_DIR/storage/<bucket>/.
    expect(await records("uploads", "users/ada/avatar.png")).toHaveLength(1);
    expect((await server.files()).filter((file) => file.includes("avatar"))).toEqual([
      expect.stringMatching(/^storage\/uploads\/users\/ada\/avatar\.png#[\w-]+$/),
    ]);
  });

  it("downloads by token without signing in, with the recorded type, nosniff and cache headers", async () => {
    const bytes = await png("#036");
    const object = (await (
      await upload("users/ada/photo.png", bytes, { token: ada, type: "image/png" })
    ).json()) as StoredObjectResponse;
    const response = await download("uploads", "users/ada/photo.png", `&token=${object.downloadTokens[0]}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-disposition")).toBe(
      `inline; filename="photo.png"; filename*=UTF-8''photo.png`,
    );
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
    expect(response.headers.get("etag")).toBe(`"${object.md5Hash}"`);
    const body = new Uint8Array(await response.arrayBuffer());
    expect(md5(body)).toBe(object.md5Hash);
    expect((await sharp(body).metadata()).format).toBe("png");

    // Revalidation with the ETag: 304, no body.
    const cached = await download("uploads", "users/ada/photo.png", `&token=${object.downloadTokens[0]}`, {
      "if-none-match": `"${object.md5Hash}"`,
    });
    expect(cached.status).toBe(304);

    // Public bucket: no token needed, publicly cacheable; a PDF (not an image) is an attachment.
    await upload("banners/red.png", await png(), { bucket: "products", token: admin, type: "image/png" });
    const open = await download("products", "banners/red.png");
    expect(open.status).toBe(200);
    expect(open.headers.get("cache-control")).toBe("public, max-age=3600");
    await upload("users/ada/invoice.pdf", pdf(300), { token: ada, type: "application/pdf" });
    const invoice = await download("uploads", "users/ada/invoice.pdf", "", auth(ada));
    expect(invoice.status).toBe(200);
    expect(invoice.headers.get("content-type")).toBe("application/pdf");
    expect(invoice.headers.get("content-disposition")).toMatch(/^attachment; filename="invoice.pdf"/);
    expect(invoice.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("refuses a wrong token, and a private download with neither token nor session", async () => {
    await upload("users/ada/secret.pdf", pdf(400), { token: ada, type: "application/pdf" });
    // A wrong token and a file that does not exist get the same answer: probing tells nothing.
    const probe = async (fullPath: string) => {
      const response = await download("uploads", fullPath, "&token=00000000-0000-4000-8000-000000000000");
      return {
        status: response.status,
        type: response.headers.get("content-type"),
        body: (await response.text()).replace(fullPath, "PATH"),
      };
    };
    const wrongToken = await probe("users/ada/secret.pdf");
    expect(wrongToken.status).toBe(404);
    expect(JSON.parse(wrongToken.body)).toMatchObject({ error: { code: "storage/object-not-found" } });
    expect(await probe("users/ada/no-such-file.pdf")).toEqual(wrongToken);
    await expectError(await download("uploads", "users/ada/secret.pdf"), 401, "storage/unauthenticated");
    // Another customer's session is no substitute for the token.
    await expectError(
      await download("uploads", "users/ada/secret.pdf", "", auth(bob)),
      403,
      "storage/unauthorized",
    );
    // Metadata (and so the tokens) are not shown to strangers either.
    await expectError(await metadataOf("uploads", "users/ada/secret.pdf"), 401, "storage/unauthenticated");
    await expectError(await metadataOf("uploads", "users/ada/secret.pdf", bob), 403, "storage/unauthorized");
    const forAdmin = await metadataOf("uploads", "users/ada/secret.pdf", admin);
    expect(((await forAdmin.json()) as StoredObjectResponse).downloadTokens).toHaveLength(1);
  });

  it("deletes an object: its record and bytes are gone, then storage/object-not-found", async () => {
    const object = (await (
      await upload("users/ada/old.png", await png(), { token: ada, type: "image/png" })
    ).json()) as StoredObjectResponse;
    const response = await remove("uploads", "users/ada/old.png", ada);
    expect(response.status).toBe(204);
    await expectError(await metadataOf("uploads", "users/ada/old.png", ada), 404, "storage/object-not-found");
    await expectError(
      await download("uploads", "users/ada/old.png", `&token=${object.downloadTokens[0]}`),
      404,
      "storage/object-not-found",
    );
    await expectError(await remove("uploads", "users/ada/old.png", ada), 404, "storage/object-not-found");
    expect(await records("uploads", "users/ada/old.png")).toHaveLength(0);
    expect((await server.files()).filter((file) => file.includes("old.png"))).toEqual([]);
  });

  it("refuses paths that leave the bucket: .., NUL, absolute paths, backslashes", async () => {
    const before = await server.files();
    for (const fullPath of [
      "../escape.png",
      "users/admin-1/../../../escape.png",
      "/etc/escape.png",
      "users/x\u0000.png",
      "..\\escape.png",
      "users//escape.png",
      "./escape.png",
    ]) {
      await expectError(
        await upload(fullPath, await png(), { token: admin, type: "image/png", filename: "escape.png" }),
        400,
        "storage/invalid-argument",
      );
    }
    // The object path in the URL: encoded slashes, and literal dot segments (sent as is, not normalised).
    await expectError(
      await metadataOf("uploads", "../../secrets.json", admin),
      400,
      "storage/invalid-argument",
    );
    const literal = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const { hostname, port } = new URL(server.url);
      // Options rather than a URL string: a URL would resolve the dot segments before sending.
      http
        .get(
          {
            hostname,
            port,
            path: "/api/storage/v0/b/uploads/o/users/../../../secrets.json?alt=media",
            headers: auth(admin),
          },
          (response) => {
            let body = "";
            response.on("data", (chunk) => (body += chunk));
            response.on("end", () => resolve({ status: response.statusCode!, body }));
          },
        )
        .on("error", reject);
    });
    expect(literal.status).toBe(400);
    expect(JSON.parse(literal.body)).toMatchObject({ error: { code: "storage/invalid-argument" } });
    expect(await server.files()).toEqual(before);
  });

  it("refuses writes without a session: storage/unauthenticated", async () => {
    await expectError(
      await upload("users/ada/anon.png", await png(), { type: "image/png" }),
      401,
      "storage/unauthenticated",
    );
    await expectError(
      await upload("users/ada/anon.png", await png(), { type: "image/png", token: "not-a-session" }),
      401,
      "storage/unauthenticated",
    );
    await upload("users/ada/keep.png", await png(), { token: ada, type: "image/png" });
    await expectError(await remove("uploads", "users/ada/keep.png"), 401, "storage/unauthenticated");
    expect(await records("uploads", "users/ada/anon.png")).toHaveLength(0);
    expect(await records("uploads", "users/ada/keep.png")).toHaveLength(1);
  });

  it("lets a customer write only in their own folder: storage/unauthorized elsewhere", async () => {
    for (const fullPath of [
      "users/bob/hijack.png",
      "shared/hijack.png",
      "users/ada-x/hijack.png",
      "users/ada",
    ]) {
      await expectError(
        await upload(fullPath, await png(), { token: ada, type: "image/png", filename: "hijack.png" }),
        403,
        "storage/unauthorized",
      );
    }
    // Product images are the admin's.
    await expectError(
      await upload("hijack.png", await png(), { bucket: "products", token: ada, type: "image/png" }),
      403,
      "storage/unauthorized",
    );
    // Nor may a customer delete someone else's file; the admin may write and delete anywhere.
    expect((await upload("users/bob/mine.png", await png(), { token: bob, type: "image/png" })).status).toBe(
      200,
    );
    await expectError(await remove("uploads", "users/bob/mine.png", ada), 403, "storage/unauthorized");
    expect(
      (await upload("shared/by-admin.png", await png(), { token: admin, type: "image/png" })).status,
    ).toBe(200);
    expect((await remove("uploads", "users/bob/mine.png", admin)).status).toBe(204);
    expect(await records("uploads", "users/bob/hijack.png")).toHaveLength(0);
  });

  it("checks the type against the bytes: an HTML file named .png is refused", async () => {
    const html = Buffer.from(
      "<!doctype html><html><body><script>alert(document.cookie)</script></body></html>",
    );
    await expectError(
      await upload("users/ada/evil.png", html, { token: ada, type: "image/png" }),
      400,
      "storage/invalid-argument",
    );
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    await expectError(
      await upload("users/ada/logo.svg", svg, { token: ada, type: "image/svg+xml" }),
      400,
      "storage/invalid-argument",
    );
    // A real PNG under another extension, or sent as another type, is refused too.
    await expectError(
      await upload("users/ada/page.html", await png(), { token: ada, type: "image/png" }),
      400,
      "storage/invalid-argument",
    );
    await expectError(
      await upload("users/ada/photo.jpg", await png(), { token: ada, type: "image/jpeg" }),
      400,
      "storage/invalid-argument",
    );
    expect(await records("uploads", "users/ada/evil.png")).toHaveLength(0);
    expect((await server.files()).filter((file) => /evil|logo|page\.html|photo\.jpg/.test(file))).toEqual([]);
  });

  it("re-encodes images: metadata and anything appended to the image are dropped", async () => {
    const jpeg = await sharp({ create: { width: 16, height: 8, channels: 3, background: "#0a0" } })
      .jpeg()
      .withExif({ IFD0: { Copyright: "secret-gps-and-camera" } })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const polyglot = Buffer.concat([await png(), Buffer.from("<html><script>alert(1)</script></html>")]);
    const photo = (await (
      await upload("users/ada/exif.jpg", jpeg, { token: ada, type: "image/jpeg" })
    ).json()) as StoredObjectResponse;
    const poly = (await (
      await upload("users/ada/poly.png", polyglot, { token: ada, type: "image/png" })
    ).json()) as StoredObjectResponse;
    const photoBytes = Buffer.from(
      await (
        await download("uploads", "users/ada/exif.jpg", `&token=${photo.downloadTokens[0]}`)
      ).arrayBuffer(),
    );
    const polyBytes = Buffer.from(
      await (
        await download("uploads", "users/ada/poly.png", `&token=${poly.downloadTokens[0]}`)
      ).arrayBuffer(),
    );
    const meta = await sharp(photoBytes).metadata();
    expect(meta).toMatchObject({ format: "jpeg", width: 16, height: 8 });
    expect(meta.exif).toBeUndefined();
    expect(photoBytes.includes("secret-gps-and-camera")).toBe(false);
    expect(polyBytes.includes("<script>")).toBe(false);
    expect((await sharp(polyBytes).metadata()).format).toBe("png");
    // A file that claims to be an image but does not decode is refused.
    const broken = Buffer.concat([(await png()).subarray(0, 40), Buffer.alloc(40)]);
    await expectError(
      await upload("users/ada/broken.png", broken, { token: ada, type: "image/png" }),
      400,
      "storage/invalid-argument",
    );
  });

  it("keeps each customer within their own share of uploads, without telling them the bucket's size", async () => {
    // shared: 2000 bytes in all, 1000 per customer.
    const carol = server.signIn({ id: "carol", role: "customer" });
    expect((await upload("users/ada/one.pdf", pdf(600), { bucket: "shared", token: ada })).status).toBe(200);
    const over = await upload("users/ada/two.pdf", pdf(600), { bucket: "shared", token: ada });
    expect(over.status).toBe(413);
    const { error } = (await over.json()) as { error: { code: string; message: string } };
    expect(error).toEqual({
      code: "storage/quota-exceeded",
      message:
        "Your files take 600 of the 1000 bytes you may keep here, and this file has 600. Delete some of your files first.",
    });
    expect(await records("shared", "users/ada/two.pdf")).toHaveLength(0);
    // One customer's full share leaves room for the others.
    expect((await upload("users/ada/two.pdf", pdf(400), { bucket: "shared", token: ada })).status).toBe(200);
    expect((await upload("users/bob/one.pdf", pdf(1000), { bucket: "shared", token: bob })).status).toBe(200);
    // The bucket is now full: a customer hears so, without its size or how full it is.
    const full = await upload("users/carol/one.pdf", pdf(100), { bucket: "shared", token: carol });
    expect(full.status).toBe(507);
    const message = ((await full.json()) as { error: { message: string } }).error.message;
    expect(message).toBe("The store cannot take more files at the moment. Please try again later.");
    expect(message).not.toMatch(/\d/);
    // An admin is told the numbers, and has no share of their own to keep within.
    const forAdmin = await upload("users/carol/one.pdf", pdf(100), { bucket: "shared", token: admin });
    expect(((await forAdmin.json()) as { error: { message: string } }).error.message).toContain("2000");
    // Replacing one's own file counts its new size only.
    expect((await upload("users/ada/one.pdf", pdf(500), { bucket: "shared", token: ada })).status).toBe(200);
  });

  it("always serves a PDF as an attachment named .pdf, whatever its record says", async () => {
    const refused = await upload("users/ada/inline.pdf", pdf(300), {
      token: ada,
      type: "application/pdf",
      metadata: { contentDisposition: "inline" },
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      "only images may be shown inline",
    );
    const report = (await (
      await upload("users/ada/report", pdf(300), {
        token: ada,
        type: "application/pdf",
        metadata: { contentDisposition: 'attachment; filename="report.html"' },
      })
    ).json()) as StoredObjectResponse;
    const served = await download("uploads", "users/ada/report", `&token=${report.downloadTokens[0]}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("application/pdf");
    expect(served.headers.get("content-disposition")).toBe(
      `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    );
    // A record written before this rule, or by hand, that says inline: still an attachment.
    await server.database.db
      .update(storageObjects)
      .set({ contentDisposition: "inline" })
      .where(and(eq(storageObjects.bucket, "uploads"), eq(storageObjects.fullPath, "users/ada/report")));
    const again = await download("uploads", "users/ada/report", `&token=${report.downloadTokens[0]}`);
    expect(again.headers.get("content-disposition")).toMatch(/^attachment; filename="report\.pdf"/);
    // An image may still be shown in the page.
    const photo = (await (
      await upload("users/ada/inline.png", await png(), { token: ada, type: "image/png" })
    ).json()) as StoredObjectResponse;
    const image = await download("uploads", "users/ada/inline.png", `&token=${photo.downloadTokens[0]}`);
    expect(image.headers.get("content-disposition")).toMatch(/^inline; filename="inline\.png"/);
  });

  it("refuses an upload over the bucket's quota with storage/quota-exceeded, storing nothing", async () => {
    // tiny holds 1000 bytes.
    expect((await upload("users/ada/a.pdf", pdf(600), { bucket: "tiny", token: ada })).status).toBe(200);
    await expectError(
      await upload("users/ada/b.pdf", pdf(600), { bucket: "tiny", token: ada }),
      507,
      "storage/quota-exceeded",
    );
    expect(await records("tiny", "users/ada/b.pdf")).toHaveLength(0);
    expect((await server.files()).filter((file) => file.startsWith("storage/tiny/users/ada/b.pdf"))).toEqual(
      [],
    );
    // Replacing a file counts its new size instead of the old one.
    expect((await upload("users/ada/a.pdf", pdf(900), { bucket: "tiny", token: ada })).status).toBe(200);
    expect(await server.storage.usage("tiny")).toBe(900);
    // Deleting frees the space.
    expect((await remove("tiny", "users/ada/a.pdf", ada)).status).toBe(204);
    expect((await upload("users/ada/b.pdf", pdf(600), { bucket: "tiny", token: ada })).status).toBe(200);
  });

  it("lets only one of two simultaneous uploads through when together they pass the quota", async () => {
    const responses = await Promise.all(
      ["one", "two", "three"].map((name) =>
        upload(`users/ada/${name}.pdf`, pdf(600), { bucket: "race", token: ada }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 507, 507]);
    expect(await server.storage.usage("race")).toBe(600);
    expect((await server.files()).filter((file) => file.startsWith("storage/race/"))).toHaveLength(1);
  });

  it("refuses a file over the bucket's largest object size while it arrives", async () => {
    const huge = await upload("users/ada/huge.pdf", pdf(300 * 1024), { token: ada, type: "application/pdf" });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toEqual({
      error: {
        code: "storage/invalid-argument",
        message: "The file is larger than 256 KiB, the most the uploads bucket takes.",
      },
    });
    expect(await records("uploads", "users/ada/huge.pdf")).toHaveLength(0);
    await vi.waitFor(async () =>
      expect(await server.files()).not.toContainEqual(expect.stringMatching(/\.staging/)),
    );
  });

  it("leaves no file and no record when the client cancels an upload midway", async () => {
    const boundary = "cancel-test-boundary";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n` +
        `Content-Type: application/pdf\r\n\r\n`,
    );
    const body = pdf(200 * 1024);
    const request = http.request(`${server.url}${uploadUrlPath("uploads", "users/ada/big.pdf")}`, {
      method: "POST",
      headers: {
        ...auth(ada),
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(head.length + body.length + boundary.length + 8),
      },
    });
    const failed = new Promise((resolve) => request.on("error", resolve));
    request.write(head);
    request.write(body.subarray(0, 64 * 1024));
    // The server is receiving the file into its staging folder...
    await vi.waitFor(async () =>
      expect(await server.files()).toContainEqual(expect.stringMatching(/^storage\/\.staging\/.+\.upload$/)),
    );
    // ...when the client goes away.
    request.destroy();
    await failed;
    await vi.waitFor(() =>
      expect(server.logs().map((line) => line.msg)).toContain(
        "upload canceled by the client; nothing was stored",
      ),
    );
    expect(await server.files()).not.toContainEqual(expect.stringMatching(/big\.pdf|\.staging\//));
    expect(await records("uploads", "users/ada/big.pdf")).toHaveLength(0);
  });

  it("answers errors of the URL, bucket and form in the catalogue's terms", async () => {
    await expectError(
      await upload("x.png", await png(), { bucket: "nope", token: admin }),
      404,
      "storage/bucket-not-found",
    );
    await expectError(await metadataOf("nope", "x.png", admin), 404, "storage/bucket-not-found");
    await expectError(await fetch(`${server.url}/api/storage/v1/whatever`), 400, "storage/invalid-url");
    await expectError(
      await fetch(`${server.url}/api/storage/v0/b/uploads/o/%E0%A4%A`, { headers: auth(admin) }),
      400,
      "storage/invalid-url",
    );
    await expectError(
      await fetch(`${server.url}/api/storage/v0/b/uploads/o`, { method: "PUT", headers: auth(admin) }),
      405,
      "storage/invalid-url",
    );
    // No ?name=, not multipart, no file, bad metadata, a foreign Origin.
    await expectError(
      await fetch(`${server.url}/api/storage/v0/b/uploads/o`, { method: "POST", headers: auth(admin) }),
      400,
      "storage/invalid-argument",
    );
    await expectError(
      await fetch(`${server.url}${uploadUrlPath("uploads", "a.png")}`, {
        method: "POST",
        headers: { ...auth(admin), "content-type": "image/png" },
        body: await png(),
      }),
      400,
      "storage/invalid-argument",
    );
    const empty = new FormData();
    empty.append("metadata", "{}");
    await expectError(
      await fetch(`${server.url}${uploadUrlPath("uploads", "a.png")}`, {
        method: "POST",
        headers: auth(admin),
        body: empty,
      }),
      400,
      "storage/invalid-argument",
    );
    const badMetadata = await upload("a.png", await png(), {
      token: admin,
      metadata: { contentLanguage: "not a language" },
    });
    expect(badMetadata.status).toBe(400);
    expect(await badMetadata.json()).toMatchObject({
      error: {
        code: "storage/invalid-argument",
        message: expect.stringMatching(/^metadata\.contentLanguage:/),
      },
    });
    await expectError(
      await upload("a.png", await png(), { token: admin, headers: { origin: "https://evil.example" } }),
      403,
      "storage/unauthorized",
    );
    expect(await records("uploads", "a.png")).toHaveLength(0);
  });

  it("replaces an object uploaded again to the same path, keeping its download tokens", async () => {
    const first = (await (
      await upload("users/ada/replace.png", await png("#111"), { token: ada, type: "image/png" })
    ).json()) as StoredObjectResponse;
    const second = (await (
      await upload("users/ada/replace.png", await png("#eee"), { token: ada, type: "image/png" })
    ).json()) as StoredObjectResponse;
    expect(second.downloadTokens).toEqual(first.downloadTokens);
    expect(second.md5Hash).not.toBe(first.md5Hash);
    const bytes = new Uint8Array(
      await (
        await download("uploads", "users/ada/replace.png", `&token=${first.downloadTokens[0]}`)
      ).arrayBuffer(),
    );
    expect(md5(bytes)).toBe(second.md5Hash);
    // Only the new bytes are kept.
    expect((await server.files()).filter((file) => file.includes("replace.png"))).toHaveLength(1);
  });
});
