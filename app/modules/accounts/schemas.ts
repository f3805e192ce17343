import { z } from "zod";
import { isOneLine } from "~/lib/forms";
import { addressSchema } from "~/lib/address";

/** A customer's name: what the sign-up form takes, and what every other way of setting a name must obey. */
export const MAX_NAME = 100;
/** A profile picture's address (the store shows none, but better-auth's endpoints take one). */
export const MAX_IMAGE_URL = 2048;

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

const name = z
  .string({ error: "Enter your name" })
  .trim()
  .min(1, "Enter your name")
  .max(MAX_NAME, `The name must be at most ${MAX_NAME} characters`)
  .refine(isOneLine, "The name must not contain control characters");

const newPassword = z
  .string({ error: "Choose a password" })
  .min(MIN_PASSWORD, `Use at least ${MIN_PASSWORD} characters`)
  .max(MAX_PASSWORD, `Use at most ${MAX_PASSWORD} characters`);

/** Where to go after signing in: a path on this site only (never //other.site or a full URL). */
export const redirectToSchema = z
  .string()
  .optional()
  .transform((value) => safeRedirect(value));

/** Longer targets are not links anyone follows; they only make headers and pages heavy. */
export const MAX_REDIRECT_LENGTH = 2000;
/** Any origin will do: only the path, query and fragment of the resolved URL are kept. */
const PROBE_ORIGIN = "http://store.invalid";

/**
 * A redirect target taken from user input, made safe to send back: a path on this site, percent-encoded so it fits
 * a Location header (a character above U+00FF cannot be sent as it is), or the fallback for anything else.
 */
export function safeRedirect(value: string | null | undefined, fallback = "/user/dashboard"): string {
  if (!value || value.length > MAX_REDIRECT_LENGTH || !isOneLine(value)) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  const target = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can turn "/.//host" into "//host", which a browser reads as another site.
  if (url.origin !== PROBE_ORIGIN || target.startsWith("//") || target.length > MAX_REDIRECT_LENGTH)
    return fallback;
  return target;
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
  name,
  email,
  password: newPassword,
  redirectTo: redirectToSchema,
});

/**
 * The fields of an account people type, as any better-auth endpoint may set them (sign-up, update-user, the admin
 * plugin's create-user and update-user): the same limits as the store's forms.
 */
export const accountFieldsSchema = z.object({
  name: name.optional(),
  email: email.optional(),
  image: z
    .preprocess(
      (value) => (value === "" ? null : value),
      z
        .string({ error: "The image must be an http or https address" })
        .max(MAX_IMAGE_URL, `The image address must be at most ${MAX_IMAGE_URL} characters`)
        .pipe(z.url({ protocol: /^https?$/, error: "The image must be an http or https address" }))
        .nullable(),
    )
    .optional(),
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
export const savedAddressSchema = addressSchema.safeExtend({
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

// Account self-service (/user/account and /admin/account): one schema per form, by its intent.
export const changeNameSchema = z.object({ name });
export const changeEmailSchema = z.object({ email });
export const changePasswordSchema = z
  .object({
    currentPassword: z
      .string({ error: "Enter your current password" })
      .min(1, "Enter your current password")
      .max(MAX_PASSWORD, "That is not your current password"),
    newPassword,
    confirm: z.string({ error: "Repeat the new password" }).min(1, "Repeat the new password"),
  })
  .refine((values) => values.newPassword === values.confirm, {
    path: ["confirm"],
    message: "The passwords do not match",
  })
  .refine((values) => values.newPassword !== values.currentPassword, {
    path: ["newPassword"],
    message: "Choose a password different from the current one",
  });
export const endSessionSchema = z.object({
  session: z.string({ error: "Choose a session" }).min(1, "Choose a session").max(100, "Choose a session"),
});
export const deleteAccountSchema = z.object({
  password: z
    .string({ error: "Enter your password to confirm" })
    .min(1, "Enter your password to confirm")
    .max(MAX_PASSWORD, "That is not your current password"),
  confirm: z.literal("on", { error: "Tick the box to confirm you want your account deleted" }),
});
