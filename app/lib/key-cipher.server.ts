import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";

/** Licence keys at rest: AES-256-GCM with the store's ENCRYPTION_KEY; a keyed fingerprint finds duplicates. */
export type KeyCipher = {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
  fingerprint(plain: string): string;
};

export function keyCipher(encryptionKey: string): KeyCipher {
  const key = Buffer.from(encryptionKey, "base64url");
  if (key.length !== 32) throw new Error("ENCRYPTION_KEY must be 32 bytes");
  return {
    encrypt(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url")).join(".");
    },
    decrypt(sealed) {
      const [iv, tag, body] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
      if (!iv || !tag || !body) throw new Error("Not an encrypted licence key");
      const decipher = createDecipheriv("aes-256-gcm", key, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
    },
    fingerprint(plain) {
      return createHmac("sha256", key).update(normalizeKey(plain)).digest("base64url");
    },
  };
}

/** Keys are compared without case and surrounding spaces. */
export const normalizeKey = (plain: string) => plain.trim().toUpperCase();

/** "ABCD-EFGH-1234" -> "••••-1234": enough to tell keys apart in a list, never the key itself. */
export const keyHint = (plain: string) => `••••${normalizeKey(plain).slice(-4)}`;
