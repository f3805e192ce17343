import { EmailLayout, renderEmail } from "~/modules/email/layout";

/**
 * The account e-mails: a link to reset the password, a link to verify the address, a repeated sign-up.
 *
 * Anyone can have these sent to any address, so one that goes to an address not proven to be the account's carries
 * no text the requester typed: otherwise a sign-up named "Win a prize at http://…" is the store delivering a
 * stranger's message under its own name. Such e-mails greet without a name.
 */

type LinkEmail = { to: string; url: string; storeName: string };

const greeting = (name?: string) => (name ? `Hello ${name},` : "Hello,");

/** An account e-mail: the paragraphs, the link as a button, and the link's address to paste. */
function AccountEmail({
  storeName,
  paragraphs,
  url,
  button,
}: {
  storeName: string;
  paragraphs: string[];
  url: string;
  button: string;
}) {
  return (
    <EmailLayout heading={storeName}>
      {paragraphs.map((paragraph, index) => (
        <p key={index}>{paragraph}</p>
      ))}
      <p>
        <a
          href={url}
          style={{
            display: "inline-block",
            background: "#c2410c",
            color: "#fff",
            padding: "10px 18px",
            borderRadius: 8,
            textDecoration: "none",
            fontWeight: 600,
          }}
        >
          {button}
        </a>
      </p>
      <p style={{ fontSize: 12, color: "#475569" }}>Or paste this address into your browser: {url}</p>
    </EmailLayout>
  );
}

const page = (storeName: string, paragraphs: string[], url: string, button: string) =>
  renderEmail(<AccountEmail storeName={storeName} paragraphs={paragraphs} url={url} button={button} />);

/**
 * `name` only for an account whose address is confirmed: then its owner chose it. An unconfirmed account's name was
 * typed by whoever signed up with the address, perhaps not its owner.
 */
export function passwordResetEmail({ to, name, url, storeName }: LinkEmail & { name?: string }) {
  const intro = [
    greeting(name),
    "Someone (we hope you) asked to reset the password of your account. The link works once, for one hour.",
    "If it was not you, ignore this e-mail: your password stays as it is.",
  ];
  return {
    kind: "password-reset",
    to,
    subject: `Reset your password at ${storeName}`,
    text: `${intro.join("\n\n")}\n\nReset your password: ${url}\n`,
    html: page(storeName, intro, url, "Choose a new password"),
  };
}

/**
 * To a member of staff the owner invited (ADR 0037): the role, and the link to choose a password (better-auth's
 * reset link; the account has no password anyone knows until then).
 */
export function staffInviteEmail({ to, url, storeName, role }: LinkEmail & { role: string }) {
  const intro = [
    greeting(),
    `You have been invited to the staff of ${storeName}, with the role ${role}.`,
    "Choose your password with the link below (it works once, for one hour), then sign in to the store's admin area with this e-mail address.",
    "If you did not expect this, ignore this e-mail: nobody can sign in to the account until a password is chosen.",
  ];
  return {
    kind: "staff-invite",
    to,
    subject: `Your staff account at ${storeName}`,
    text: `${intro.join("\n\n")}\n\nChoose your password: ${url}\n`,
    html: page(storeName, intro, url, "Choose my password"),
  };
}

export function verificationEmail({ to, url, storeName }: LinkEmail) {
  const intro = [
    greeting(),
    "Please confirm that this e-mail address is yours: the link below confirms it and signs you in. It works for 24 hours.",
    "Orders you placed as a guest with this address join your account when you confirm it.",
    `If you did not create an account at ${storeName}, ignore this e-mail.`,
  ];
  return {
    kind: "email-verification",
    to,
    subject: `Confirm your e-mail address at ${storeName}`,
    text: `${intro.join("\n\n")}\n\nConfirm your address: ${url}\n`,
    html: page(storeName, intro, url, "Confirm my e-mail address"),
  };
}

/** To the owner of an address someone tried to sign up with again: what happened, and the way back in. */
export function existingAccountEmail({ to, url, storeName }: LinkEmail) {
  const intro = [
    greeting(),
    `Someone (we hope you) tried to create an account at ${storeName} with this e-mail address, but it already has one. Nothing was changed.`,
    "Sign in with your password. Forgotten it? Choose “Forgot your password?” on the sign-in page and we will e-mail you a link to set a new one.",
    "If it was not you, ignore this e-mail: your account stays as it is.",
  ];
  return {
    kind: "existing-account",
    to,
    subject: `You already have an account at ${storeName}`,
    text: `${intro.join("\n\n")}\n\nSign in: ${url}\n`,
    html: page(storeName, intro, url, "Sign in"),
  };
}

/**
 * To a new address an account asked to move to: the link that confirms it (and only then changes the address).
 * Without the account's name, though its own address is confirmed: the name is the requester's to set, and this
 * address is not yet proven theirs, so it could carry their words to a stranger.
 */
export function changeEmailEmail({ to, url, storeName }: LinkEmail) {
  const intro = [
    greeting(),
    `Someone (we hope you) asked to use this e-mail address for their account at ${storeName}. The link below confirms it; until it is opened, the account keeps its old address. It works for 24 hours.`,
    "If it was not you, ignore this e-mail: nothing changes.",
  ];
  return {
    kind: "email-change",
    to,
    subject: `Confirm your new e-mail address at ${storeName}`,
    text: `${intro.join("\n\n")}\n\nConfirm the new address: ${url}\n`,
    html: page(storeName, intro, url, "Confirm my new address"),
  };
}

/**
 * To the old address of an account, once a new one is confirmed: what changed, and what to do if it was not them.
 * The name and the new address may be in it: the old address was the account's own, confirmed before it could sign
 * in and ask for the change.
 */
export function emailChangedEmail({
  to,
  name,
  newEmail,
  url,
  storeName,
}: LinkEmail & { name: string; newEmail: string }) {
  const intro = [
    greeting(name),
    `The e-mail address of your account at ${storeName} was changed to ${newEmail}. From now on we write to that address, and you sign in with it.`,
    "If it was not you, contact us at once, and reset your password from the sign-in page.",
  ];
  return {
    kind: "email-changed",
    to,
    subject: `Your e-mail address at ${storeName} was changed`,
    text: `${intro.join("\n\n")}\n\nContact us: ${url}\n`,
    html: page(storeName, intro, url, "Contact us"),
  };
}
