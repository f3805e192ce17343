import { Form, useNavigation } from "react-router";
import type { ActionReply } from "~/lib/action-reply";
import { CheckboxField, TextField } from "~/ui/field";
import { NewPasswordField } from "./new-password-field";
import { useFocusOnFirstError, useFormCheck } from "~/lib/use-form-check";
import { changeNameSchema } from "../schemas";
import { formatDate } from "./account-shell";

/** What the account page's action answers (see selfServiceAction). */
export type AccountReply = ActionReply<{
  intent: string | null;
  errors: Partial<Record<string, string>>;
  done?: string;
  pendingEmail?: string;
}>;

export type AccountSession = {
  id: string;
  device: string;
  createdAt: string;
  lastActiveAt: string;
  current: boolean;
};

const DONE: Record<string, string> = {
  name: "Your name is saved.",
  password: "Your password is changed. Every other session of your account was signed out.",
  "end-session": "That session has ended: it is signed out.",
};

function Section({
  id,
  title,
  intro,
  children,
  tone = "plain",
}: {
  id: string;
  title: string;
  intro?: React.ReactNode;
  children: React.ReactNode;
  tone?: "plain" | "danger";
}) {
  return (
    <section
      aria-labelledby={`${id}-title`}
      className={`rounded-2xl border bg-white p-5 shadow-sm sm:p-6 ${tone === "danger" ? "border-red-200" : "border-slate-200"}`}
      data-testid={`account-${id}`}
    >
      <h2 id={`${id}-title`} className="text-lg font-bold text-ink-900">
        {title}
      </h2>
      {intro ? <div className="mt-1 text-sm text-slate-600">{intro}</div> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}

function Submit({
  children,
  intent,
  danger = false,
}: {
  children: string;
  intent: string;
  danger?: boolean;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <button
      type="submit"
      name="intent"
      value={intent}
      disabled={busy}
      className={`rounded-lg px-5 py-2.5 text-sm font-semibold text-white disabled:opacity-60 ${danger ? "bg-red-700 hover:bg-red-800" : "bg-brand-700 hover:bg-brand-800"}`}
    >
      {children}
    </button>
  );
}

function Notice({ reply, intent }: { reply?: AccountReply; intent: string }) {
  if (!reply || reply.intent !== intent) return null;
  if (reply.errors.form)
    return (
      <p className="mb-3 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900" role="alert">
        {reply.errors.form}
      </p>
    );
  if (reply.done === "email")
    return (
      <p className="mb-3 rounded-lg bg-green-50 p-3 text-sm text-green-900" role="status" data-testid="done">
        We sent a link to {reply.pendingEmail}. Your address changes when you open it (it works for 24 hours);
        until then you keep using the current one.
      </p>
    );
  if (reply.done && DONE[reply.done])
    return (
      <p className="mb-3 rounded-lg bg-green-50 p-3 text-sm text-green-900" role="status" data-testid="done">
        {DONE[reply.done]}
      </p>
    );
  return null;
}

const errorsOf = (reply: AccountReply | undefined, intent: string) =>
  reply?.intent === intent ? reply.errors : {};

export function PasswordForm({ reply, temporary = false }: { reply?: AccountReply; temporary?: boolean }) {
  const errors = errorsOf(reply, "password");
  const form = useFocusOnFirstError(errors);
  return (
    <Section
      id="password"
      title={temporary ? "Choose your own password" : "Password"}
      intro={
        temporary
          ? "You signed in with the temporary password printed when this admin account was made. Choose a password of your own to open the admin area."
          : "Changing it signs out every other session of your account (other browsers and devices)."
      }
    >
      <Notice reply={reply} intent="password" />
      <Form ref={form} method="post" className="space-y-4" noValidate>
        <TextField
          label={temporary ? "Temporary password" : "Current password"}
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          error={errors.currentPassword}
        />
        <NewPasswordField label="New password" name="newPassword" required error={errors.newPassword} />
        <TextField
          label="Repeat the new password"
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          error={errors.confirm}
        />
        <Submit intent="password">{temporary ? "Set my password" : "Change password"}</Submit>
      </Form>
    </Section>
  );
}

export function AccountSettings({
  name,
  email,
  sessions,
  reply,
  allowDelete,
}: {
  name: string;
  email: string;
  sessions: AccountSession[];
  reply?: AccountReply;
  allowDelete: boolean;
}) {
  const { field: nameField, formRef: nameForm } = useFormCheck(changeNameSchema, errorsOf(reply, "name"), {
    name,
  });
  const emailErrors = errorsOf(reply, "email");
  const deleteErrors = errorsOf(reply, "delete");
  const emailForm = useFocusOnFirstError(emailErrors);
  const deleteForm = useFocusOnFirstError(deleteErrors);
  return (
    <div className="space-y-6">
      <Section id="name" title="Your name">
        <Notice reply={reply} intent="name" />
        <Form ref={nameForm} method="post" className="space-y-4" noValidate>
          <TextField label="Name" autoComplete="name" {...nameField("name")} />
          <Submit intent="name">Save name</Submit>
        </Form>
      </Section>

      <Section
        id="email"
        title="E-mail address"
        intro={
          <>
            Now: <strong data-testid="current-email">{email}</strong>. We send a link to the new address; the
            change happens when you open it, and we tell the old address.
          </>
        }
      >
        <Notice reply={reply} intent="email" />
        <Form ref={emailForm} method="post" className="space-y-4" noValidate>
          <TextField
            label="New e-mail address"
            name="email"
            type="email"
            autoComplete="email"
            required
            error={emailErrors.email}
          />
          <Submit intent="email">Send the confirmation link</Submit>
        </Form>
      </Section>

      <PasswordForm reply={reply} />

      <Section
        id="sessions"
        title="Where you are signed in"
        intro="Each browser or device you signed in with. End any you do not recognise or no longer use."
      >
        <Notice reply={reply} intent="end-session" />
        <ul className="divide-y divide-slate-100" data-testid="session-list">
          {sessions.map((item) => (
            <li
              key={item.id}
              className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm"
              data-testid="session"
              data-current={item.current}
            >
              <div className="min-w-0">
                <p className="font-semibold text-ink-900">
                  {item.device}
                  {item.current ? (
                    <span className="ml-2 rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-900">
                      This session
                    </span>
                  ) : null}
                </p>
                <p className="text-slate-600">
                  Signed in {formatDate(item.createdAt, true)} · last active{" "}
                  {formatDate(item.lastActiveAt, true)}
                </p>
              </div>
              {item.current ? null : (
                <Form method="post">
                  <input type="hidden" name="session" value={item.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="end-session"
                    className="rounded-lg border border-slate-300 px-3 py-1.5 font-semibold text-ink-800 hover:bg-slate-50"
                  >
                    Sign out
                    <span className="sr-only">
                      {" "}
                      {item.device}, signed in {formatDate(item.createdAt, true)}
                    </span>
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      </Section>

      {allowDelete ? (
        <Section
          id="delete"
          title="Delete your account"
          tone="danger"
          intro="Your name, e-mail address, saved addresses and sessions are removed, and you are signed out everywhere. Your orders stay on the store's records (what was bought, amounts, payments) without your personal details; their links stop working. This cannot be undone."
        >
          <Notice reply={reply} intent="delete" />
          {/* A whole-page post: the live record says "gone" as the account goes, and must not win the race. */}
          <Form ref={deleteForm} method="post" className="space-y-4" noValidate reloadDocument>
            <TextField
              label="Your password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              error={deleteErrors.password}
            />
            <CheckboxField name="confirm" error={deleteErrors.confirm} errorId="delete-confirm-error">
              I understand: delete my account for good.
            </CheckboxField>
            <Submit intent="delete" danger>
              Delete my account
            </Submit>
          </Form>
        </Section>
      ) : null}
    </div>
  );
}
