import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { drivers } from "../../../tests/support/database";
import { startStorageServer, type StorageTestServer } from "../../../tests/support/storage";
import { uploadUrlPath } from "./paths";
import type { StoredObjectResponse } from "./schemas";

const BOUNDARY = "form-test-boundary";
const pdf = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");

/** One part of a hand-made body: the shapes browsers never send. */
const part = (disposition: string, body: string | Buffer, type?: string) =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; ${disposition}\r\n` +
        (type ? `Content-Type: ${type}\r\n` : "") +
        "\r\n",
    ),
    Buffer.from(body),
    Buffer.from("\r\n"),
  ]);
const closing = Buffer.from(`--${BOUNDARY}--\r\n`);
const filePart = part('name="file"; filename="doc.pdf"', pdf, "application/pdf");

describe.each(drivers)("malformed upload forms on %s", (driver) => {
  let server: StorageTestServer;
  let ada: string;
  beforeAll(async () => {
    server = await startStorageServer(driver);
    ada = server.signIn({ id: "ada", role: "customer" });
  });
  afterAll(async () => {
    await server.close();
  });

  const send = async (fullPath: string, body: Buffer) => {
    const response = await fetch(`${server.url}${uploadUrlPath("uploads", fullPath)}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${ada}`,
        "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
      },
      body: new Uint8Array(body),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const refused = (message: string) => ({
    status: 400,
    body: { error: { code: "storage/invalid-argument", message } },
  });
  /** Nothing of a refused upload stays on disk, staged or stored. */
  const expectNothingStored = () => vi.waitFor(async () => expect(await server.files()).toEqual([]));

  it("stores a file sent with its metadata in either order, with the MD5 and size of its bytes", async () => {
    const metadata = part('name="metadata"', JSON.stringify({ customMetadata: { sku: "A-1" } }));
    for (const [fullPath, body] of [
      ["users/ada/first.pdf", Buffer.concat([metadata, filePart, closing])],
      ["users/ada/second.pdf", Buffer.concat([filePart, metadata, closing])],
    ] as const) {
      const { status, body: object } = await send(fullPath, body);
      expect(status).toBe(200);
      expect(object).toMatchObject({
        size: pdf.length,
        md5Hash: createHash("md5").update(pdf).digest("base64"),
        customMetadata: { sku: "A-1" },
      } satisfies Partial<StoredObjectResponse>);
    }
    await server.storage.remove({ id: "ada", role: "customer" }, "uploads", "users/ada/first.pdf");
    await server.storage.remove({ id: "ada", role: "customer" }, "uploads", "users/ada/second.pdf");
    await expectNothingStored();
  });

  it("refuses a form that breaks off, an extra part after the file, a long metadata and a file without a name", async () => {
    expect(await send("users/ada/a.pdf", Buffer.concat([filePart]))).toEqual(
      refused("The multipart body ended too early"),
    );
    expect(await send("users/ada/a.pdf", Buffer.concat([filePart, part('name="x"', "y"), closing]))).toEqual(
      refused('Unexpected form field "x": send one "file" and optionally one "metadata".'),
    );
    expect(await send("users/ada/a.pdf", Buffer.concat([filePart, filePart, closing]))).toEqual(
      refused('Unexpected form field "file": send one "file" and optionally one "metadata".'),
    );
    expect(
      await send(
        "users/ada/a.pdf",
        Buffer.concat([filePart, part('name="metadata"', "x".repeat(16 * 1024 + 1)), closing]),
      ),
    ).toEqual(refused('The "metadata" field is over 16384 bytes.'));
    expect(await send("users/ada/a.pdf", Buffer.concat([part('name="file"', "%PDF-1.4"), closing]))).toEqual(
      refused('Send "file" as a file, with a file name.'),
    );
    expect(
      await send(
        "users/ada/a.pdf",
        Buffer.concat([Buffer.from(`--${BOUNDARY}\r\nBroken header\r\n\r\nx\r\n`), closing]),
      ),
    ).toEqual(refused("Malformed multipart part header"));
    expect(await send("users/ada/a.pdf", Buffer.concat([part('name="metadata"', "{}"), closing]))).toEqual(
      refused('The form has no "file" field.'),
    );
    await expectNothingStored();
  });
});
