import { useState } from "react";
import { Form, Link, useNavigation, useSearchParams } from "react-router";
import { downloadUrl } from "~/modules/storage/client";
import { FileUpload } from "~/modules/storage/components/file-upload";
import { buttonClass } from "~/ui/button";
import { TextField } from "~/ui/field";
import { ActionNotice } from "./components/admin-page";
import { cellClass } from "./components/list-controls";

/** Dates and times of the admin's content lists, the same on the server and in the browser (UTC). */
const dateTime = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});
const dateOnly = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeZone: "UTC" });

export const formatWhen = (value: string | Date) => `${dateTime.format(new Date(value))} UTC`;
export const formatDay = (value: string | Date) =>
  dateOnly.format(new Date(typeof value === "string" && value.length === 10 ? `${value}T00:00:00Z` : value));

/** The notice a write leaves in the URL (?done=saved) after redirecting back, in the page's own words. */
export function DoneNotice({ messages }: { messages: Record<string, string> }) {
  const [params] = useSearchParams();
  const done = params.get("done");
  const message = done ? messages[done] : undefined;
  return message ? <ActionNotice result={{ ok: true, message }} /> : null;
}

/** The form-wide message of a refused write. */
export function FormMessage({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      data-testid="form-error"
      className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900"
    >
      {message}
    </p>
  );
}

/** The Save and Cancel row of a content form. */
export function FormButtons({ label, cancelTo }: { label: string; cancelTo?: string }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button type="submit" disabled={busy} className={buttonClass("primary")}>
        {busy ? "Saving…" : label}
      </button>
      {cancelTo ? (
        <Link to={cancelTo} className="text-sm font-semibold text-slate-600 hover:underline">
          Cancel
        </Link>
      ) : null}
    </div>
  );
}

/** A button that posts one intent about one row, after the admin confirms when asked to. */
/** The last cell of a content list's row: edit the record in the page's form, or delete it once confirmed. */
export function EditDeleteCell({
  editTo,
  id,
  srLabel,
  confirm,
}: {
  editTo: string;
  id: number;
  /** Which row, for screen readers. */
  srLabel: string;
  confirm: string;
}) {
  return (
    <td className={`${cellClass} whitespace-nowrap text-right`}>
      <Link to={editTo} className="rounded-md px-2 py-1 text-sm font-semibold text-brand-700 hover:underline">
        Edit<span className="sr-only"> {srLabel}</span>
      </Link>
      <RowAction intent="delete" id={id} label="Delete" srLabel={srLabel} tone="danger" confirm={confirm} />
    </td>
  );
}

export function RowAction({
  intent,
  id,
  label,
  srLabel,
  confirm,
  tone = "default",
  fields,
  disabled,
  action,
}: {
  intent: string;
  id: number | string;
  label: React.ReactNode;
  /** Says which row, for screen readers ("Delete" alone is ambiguous in a list). */
  srLabel?: string;
  confirm?: string;
  tone?: "default" | "danger";
  fields?: Record<string, string>;
  disabled?: boolean;
  /** The page whose action takes it, when not this one. */
  action?: string;
}) {
  return (
    <Form
      method="post"
      action={action}
      className="inline"
      onSubmit={(event) => {
        if (confirm && !window.confirm(confirm)) event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      {Object.entries(fields ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button
        type="submit"
        disabled={disabled}
        className={`rounded-md px-2 py-1 text-sm font-semibold hover:underline disabled:cursor-not-allowed disabled:text-slate-400 disabled:no-underline ${
          tone === "danger" ? "text-red-700" : "text-brand-700"
        }`}
      >
        {label}
        {srLabel ? <span className="sr-only"> {srLabel}</span> : null}
      </button>
    </Form>
  );
}

/** A file name made safe for an object path: lower case, letters, digits, dots and dashes. */
export function safeFileName(name: string): string {
  const cleaned = name
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(-80);
  return cleaned || "image";
}

/**
 * An image of the content: its address (a site path or an https:// address) in a text field, with a preview and
 * an upload that stores the file in the products bucket and puts its address in the field.
 */
export function ImageField({
  label,
  name,
  defaultValue,
  error,
  folder,
  hint = "A site path like /placeholder/… or an https:// address, or upload a file.",
  required = true,
  testId,
}: {
  label: string;
  name: string;
  defaultValue?: string;
  error?: string;
  /** Where uploads go in the products bucket, like "content/banners". */
  folder: string;
  hint?: string;
  required?: boolean;
  testId?: string;
}) {
  const [value, setValue] = useState(defaultValue ?? "");
  const previewable = value.startsWith("/") || value.startsWith("https://");
  return (
    <div
      className="grid grid-cols-1 gap-3 rounded-xl border border-slate-200 bg-slate-50/60 p-3 sm:grid-cols-[minmax(0,1fr)_8rem]"
      data-testid={testId}
    >
      <div className="space-y-2">
        <TextField
          label={label}
          name={name}
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          error={error}
          hint={hint}
          required={required}
          maxLength={2000}
          spellCheck={false}
        />
        <FileUpload
          label={`Upload a file for “${label}”`}
          bucket="products"
          pathFor={(file) => `${folder}/${Date.now().toString(36)}-${safeFileName(file.name)}`}
          onUploaded={(object) => setValue(downloadUrl(object.bucket, object.fullPath))}
        />
      </div>
      <div className="flex h-24 items-center justify-center overflow-hidden rounded-lg border border-slate-200 bg-white sm:h-auto">
        {previewable ? (
          <img src={value} alt="" className="max-h-28 w-full object-contain" data-testid="image-preview" />
        ) : (
          <span className="px-2 text-center text-xs text-slate-500">No preview</span>
        )}
      </div>
    </div>
  );
}
