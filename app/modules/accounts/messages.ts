/** What the sign-in, sign-up and reset forms say (shown in the browser, chosen on the server). */
export const MESSAGES = {
  wrongCredentials:
    "Wrong e-mail address or password. If you have just created your account, open the link we e-mailed you first.",
  tooMany: "Too many attempts. Please wait a few seconds and try again.",
  crossSite: "This form was sent from another site, so it was refused. Please use the form on this page.",
  banned: "This account is suspended. Please contact us.",
  failed: "Something went wrong on our side. Please try again in a moment.",
  signUpSent:
    "Check your e-mail: we sent a message to that address. Open the link in it to finish and sign in (it works for 24 hours). If the address already has an account, the message says how to sign in.",
  resetSent:
    "If an account exists for that address, a link to reset the password is on its way. It works once, for one hour.",
  resetInvalid: "This link has expired or was already used. Ask for a new one below.",
} as const;

export const NOT_AN_ADMIN = "This account has no access to the admin area";

export const NOT_YOUR_AREA = "Your staff role has no access to this part of the admin area";
