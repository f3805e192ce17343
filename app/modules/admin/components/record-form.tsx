import { createContext, Fragment, useContext, type ComponentProps } from "react";
import { Form, useLocation } from "react-router";
import type { z } from "zod";
import type { ActionReply } from "~/lib/action-reply";
import { fieldLimits, type FieldLimits } from "~/lib/field-limits";
import type { FieldErrors } from "~/lib/forms";
import { useFormCheck } from "~/lib/use-form-check";
import { ButtonLink } from "~/ui/button";
import { TextAreaField, TextField } from "~/ui/field";
import { DoneNotice, FormButtons, FormMessage, ImageField, RowAction } from "../content-fields";
import { AdminPage, Panel } from "./admin-page";
import { cellClass, ListSearch, ListTable, Pagination, withParams } from "./list-controls";

/** What a record form's fields read: the refused answer to show again, its messages, the schema's limits. */
const RecordFormContext = createContext<{
  reply?: ActionReply;
  errors: FieldErrors;
  limits: Record<string, FieldLimits | undefined>;
}>({ errors: {}, limits: {} });

/**
 * The form of one record (or one settings section) of the admin: checked in the browser with the schema the action
 * uses, posting its intent (and the record's id), with the refusal's message on top and the Save row below.
 * `children` are the fields; a function of the messages for a form that shows some itself.
 */
export function RecordForm({
  schema,
  reply,
  intent,
  id,
  label,
  cancelTo,
  testId,
  onEdit,
  heading,
  className = "space-y-4",
  children,
}: {
  schema: z.ZodType;
  reply?: ActionReply;
  intent: string;
  id?: number | string;
  label: string;
  cancelTo?: string;
  testId: string;
  /** Told on every change of a field (after the form's own check). */
  onEdit?: () => void;
  /** A title above the form's message, inside the form. */
  heading?: React.ReactNode;
  className?: string;
  children: React.ReactNode | ((errors: FieldErrors) => React.ReactNode);
}) {
  const { errors, onSubmit, onChange, formRef } = useFormCheck(schema, reply?.errors);
  return (
    <Form
      method="post"
      noValidate
      ref={formRef}
      onSubmit={onSubmit}
      onChange={(event) => {
        onChange(event);
        onEdit?.();
      }}
      className={className}
      data-testid={testId}
    >
      {heading}
      <input type="hidden" name="intent" value={intent} />
      {id === undefined ? null : <input type="hidden" name="id" value={id} />}
      <FormMessage message={reply?.message} />
      <RecordFormContext value={{ reply, errors, limits: fieldLimits(schema) }}>
        {typeof children === "function" ? children(errors) : children}
      </RecordFormContext>
      <FormButtons label={label} cancelTo={cancelTo} />
    </Form>
  );
}

/** A field of the record form around it: the value just posted (a refused form) or else the stored one, and its message. */
export function useRecordField(name: string, stored: string) {
  const { reply, errors, limits } = useContext(RecordFormContext);
  return { defaultValue: reply?.values?.[name] ?? stored, error: errors[name], limits: limits[name] };
}

/** Whether a checkbox of the record form is ticked: as just posted (a refused form), or else as stored. */
export function useRecordCheckbox(name: string, stored: boolean) {
  const { reply } = useContext(RecordFormContext);
  return reply?.values ? reply.values[name] === "on" : stored;
}

/**
 * A text field of the record form around it, with the limits its schema gives (required, maxLength, inputMode).
 * With `rows`, a text area.
 */
export function RecordField({
  name,
  stored,
  rows,
  ...props
}: { name: string; label: string; stored: string; rows?: number } & Omit<
  ComponentProps<typeof TextField>,
  "name" | "defaultValue" | "error"
>) {
  const { defaultValue, error, limits } = useRecordField(name, stored);
  const shared = { name, ...limits, defaultValue, error };
  if (rows)
    return <TextAreaField rows={rows} {...(props as ComponentProps<typeof TextAreaField>)} {...shared} />;
  return <TextField {...props} {...shared} />;
}

/**
 * Text fields of the record form around it, in two columns on a wide screen unless `className` says otherwise;
 * `autoComplete` is given to each.
 */
export function RecordFields({
  fields,
  className = "grid gap-4 sm:grid-cols-2",
  autoComplete,
}: {
  fields: Array<ComponentProps<typeof RecordField>>;
  className?: string;
  autoComplete?: "off";
}) {
  return (
    <div className={className}>
      {fields.map((field) => (
        <RecordField key={field.name} autoComplete={autoComplete} {...field} />
      ))}
    </div>
  );
}

/**
 * A card around one of a page's record forms (a settings section, the company's phone), with what the card says
 * before and after the form. `panelTestId` is the card's test id, `testId` the form's.
 */
export function FormPanel({
  title,
  description,
  panelTestId,
  before,
  after,
  ...form
}: ComponentProps<typeof RecordForm> & {
  title: string;
  description: React.ReactNode;
  panelTestId: string;
  before?: React.ReactNode;
  after?: React.ReactNode;
}) {
  return (
    <Panel title={title} testId={panelTestId} description={description}>
      {before}
      <RecordForm {...form} />
      {after}
    </Panel>
  );
}

/** An image field (address, preview and upload) of the record form around it. */
export function RecordImageField({
  name,
  stored,
  ...props
}: { name: string; stored: string } & Omit<
  ComponentProps<typeof ImageField>,
  "name" | "defaultValue" | "error"
>) {
  const { defaultValue, error } = useRecordField(name, stored);
  return <ImageField name={name} defaultValue={defaultValue} error={error} {...props} />;
}

/**
 * A list page's own address without its open form (and the notice of the last write), and a link to it with one
 * parameter set (?edit=12, ?new=1).
 */
export function useListUrl(path: string, formKeys: readonly string[] = ["edit", "new"]) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  for (const key of [...formKeys, "done"]) params.delete(key);
  return {
    location,
    listUrl: `${path}${params.size ? `?${params}` : ""}`,
    withParam: (key: string, value: string) => withParams(params, { [key]: value }),
  };
}

/**
 * An admin list of records edited on the page itself: the New button, the notice of the last write, the form of
 * the open (or new) record above the searchable, sortable, paged table.
 */
export function RecordListPage({
  path,
  formKeys,
  title,
  intro,
  newLabel,
  newTestId,
  notices,
  editing,
  creating,
  reply,
  formTitle,
  form,
  search,
  beforeTable,
  caption,
  head,
  columns,
  query,
  page,
  empty,
  children,
}: {
  path: string;
  formKeys?: readonly string[];
  title: string;
  intro: string;
  newLabel: string;
  newTestId: string;
  notices: Record<string, string>;
  editing: { id: number } | null;
  creating: boolean;
  reply?: ActionReply;
  formTitle: string;
  /** The record's form, given where its Cancel goes. */
  form: (cancelTo: string) => React.ReactNode;
  search: { label: string; placeholder: string };
  beforeTable?: React.ReactNode;
  caption: string;
  head: React.ReactNode;
  columns: number;
  query: { q: string; page: number; pageSize: number };
  page: { rows: unknown[]; total: number };
  /** What the table says without rows: for a search, and for none at all. */
  empty: { search: string; none: string };
  children: React.ReactNode;
}) {
  const { location, listUrl, withParam } = useListUrl(path, formKeys);
  const formOpen = Boolean(editing) || creating || reply?.intent === "create";
  const rowMessage = reply && !reply.errors && !formOpen ? reply : null;
  return (
    <AdminPage
      title={title}
      intro={intro}
      actions={
        formOpen ? null : (
          <ButtonLink to={withParam("new", "1")} data-testid={newTestId}>
            {newLabel}
          </ButtonLink>
        )
      }
    >
      <DoneNotice messages={notices} />
      {rowMessage ? <FormMessage message={rowMessage.message} /> : null}
      {formOpen ? (
        <div className="mb-8">
          <Panel title={formTitle}>
            <Fragment key={`${editing?.id ?? "new"}:${location.key}`}>{form(listUrl)}</Fragment>
          </Panel>
        </div>
      ) : null}
      <ListSearch label={search.label} placeholder={search.placeholder} />
      {beforeTable}
      <ListTable caption={caption} head={head}>
        {page.rows.length === 0 ? (
          <tr>
            <td colSpan={columns} className={`${cellClass} py-6 text-center text-slate-600`}>
              {query.q ? empty.search : empty.none}
            </td>
          </tr>
        ) : (
          children
        )}
      </ListTable>
      <Pagination page={query.page} pageSize={query.pageSize} total={page.total} />
    </AdminPage>
  );
}

/**
 * The ▲ and ▼ buttons of a row in an ordered list (banners, tax rules): each posts the intent (`move` unless told)
 * with the row's id and a direction; the first row cannot go up, nor the last down.
 */
export function MoveButtons({
  intent = "move",
  id,
  name,
  first,
  last,
}: {
  intent?: string;
  id: number;
  /** Which row, for screen readers: "Move {name} up". */
  name: string;
  first: boolean;
  last: boolean;
}) {
  return (
    <>
      {(["up", "down"] as const).map((direction) => (
        <RowAction
          key={direction}
          intent={intent}
          id={id}
          fields={{ direction }}
          label={<span aria-hidden="true">{direction === "up" ? "▲" : "▼"}</span>}
          srLabel={`Move ${name} ${direction}`}
          disabled={direction === "up" ? first : last}
        />
      ))}
    </>
  );
}
