import type { ToastInput } from "~/ui/toast";
import { ACTIVITY_MESSAGES } from "./activity";

/**
 * One-time notices across a redirect (signed in, signed out, an activity update that failed): a short-lived cookie
 * the page reads and deletes. It holds codes, never text, so nobody can make the site say something else.
 */
export const FLASH_COOKIE = "storefront.flash";

export const FLASH_TOASTS = {
  "signed-in": { message: "Welcome back! You are signed in.", kind: "success" },
  "first-sign-in": { message: "Welcome! You are signed in.", kind: "success" },
  "signed-out": { message: "You are signed out.", kind: "info" },
  "password-reset": { message: "Your password is changed. Sign in with the new one.", kind: "success" },
  "email-verified": {
    message: "Thank you: your e-mail address is confirmed and you are signed in.",
    kind: "success",
  },
  "account-deleted": {
    message: "Your account is deleted. Your orders stay on our records without your personal details.",
    kind: "info",
  },
  "activity-unknown-status": { message: ACTIVITY_MESSAGES["unknown-status"], kind: "warning" },
  "activity-write-failed": { message: ACTIVITY_MESSAGES["write-failed"], kind: "error" },
} as const satisfies Record<string, ToastInput>;

export type FlashCode = keyof typeof FLASH_TOASTS;

const isFlashCode = (value: string): value is FlashCode => Object.hasOwn(FLASH_TOASTS, value);

/** The Set-Cookie value that carries codes to the next page. */
export function flashCookie(codes: FlashCode[], secure: boolean): string {
  return `${FLASH_COOKIE}=${codes.join(".")}; Path=/; Max-Age=60; SameSite=Lax${secure ? "; Secure" : ""}`;
}

let taking: Promise<unknown> = Promise.resolve();

/**
 * Reads and deletes the flash cookie (in the browser), one caller at a time so a notice shows once. Through the
 * Cookie Store API where the browser has it (Chromium flags document.cookie as slow), else document.cookie.
 */
export function takeFlash(): Promise<FlashCode[]> {
  const taken = taking.then(readAndDeleteFlash);
  taking = taken.catch(() => undefined);
  return taken;
}

async function readAndDeleteFlash(): Promise<FlashCode[]> {
  let value: string | undefined;
  if (typeof cookieStore !== "undefined") {
    value = (await cookieStore.get(FLASH_COOKIE))?.value;
    if (value !== undefined) await cookieStore.delete({ name: FLASH_COOKIE, path: "/" });
  } else {
    const match = document.cookie.match(new RegExp(`(?:^|;\\s*)${FLASH_COOKIE.replace(".", "\\.")}=([^;]*)`));
    value = match?.[1];
    if (value !== undefined) document.cookie = `${FLASH_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
  }
  return (value ?? "").split(".").filter(isFlashCode);
}
