import { z } from "zod";
import { addressSchema } from "~/lib/address";

/** Passwords: at least 8 characters (and at most 128, better-auth's limit). */
export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 128;

const email = z
  .string({ error: "Enter your e-mail address" })
  .trim()
  .min(1, "Enter your e-mail address")
  .max(254, "The e-mail address is too long")
  .pipe(z.email("Enter a valid e-mail address"))
  .transform((value) => value.toLowerCase());

const newPassword = z
  .string({ error: "Choose a password" })
  .min(MIN_PASSWORD, `Use at least ${MIN_PASSWORD} characters`)
  .max(MAX_PASSWORD, `Use at most ${MAX_PASSWORD} characters`);

/** Where to go after signing in: a path on this site only (never //other.site or a full URL). */
export const redirectToSchema = z
  .string()
  .optional()
  .transform((value) => safeRedirect(value));

export function safeRedirect(value: string | null | undefined, fallback = "/user/dashboard"): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if ([...value].some((char) => char.charCodeAt(0) < 0x20)) return fallback;
  return value;
}

// One schema per form, shared by the form (in the browser) and its action. Unknown fields (role=admin, say)
// are dropped: only what is listed here ever reaches better-auth.
export const signInSchema = z.object({
  email,
  password: z
    .string({ error: "Enter your password" })
    .min(1, "Enter your password")
    .max(MAX_PASSWORD, "Wrong e-mail address or password"),
  redirectTo: redirectToSchema,
});

export const signUpSchema = z.object({
  name: z
    .string({ error: "Enter your name" })
    .trim()
    .min(1, "Enter your name")
    .max(100, "The name must be at most 100 characters"),
  email,
  password: newPassword,
  redirectTo: redirectToSchema,
});

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z
  .object({
    token: z.string({ error: "This link is incomplete" }).min(1, "This link is incomplete").max(500),
    password: newPassword,
    confirm: z.string({ error: "Repeat the new password" }).min(1, "Repeat the new password"),
  })
  .refine((values) => values.password === values.confirm, {
    path: ["confirm"],
    message: "The passwords do not match",
  });

/** An address-book entry: the checkout's address fields, and whether it is the default. */
export const savedAddressSchema = addressSchema.extend({
  isDefault: z.preprocess((value) => value === "on" || value === "true" || value === true, z.boolean()),
});

export const addressIdSchema = z.coerce
  .number({ error: "Address not found" })
  .int("Address not found")
  .min(1, "Address not found")
  .max(2_147_483_647, "Address not found");

export type SignInInput = z.infer<typeof signInSchema>;
export type SignUpInput = z.infer<typeof signUpSchema>;
export type SavedAddressInput = z.infer<typeof savedAddressSchema>;
