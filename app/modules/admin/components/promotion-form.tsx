import { useId, useState } from "react";
import { Form, Link } from "react-router";
import type { ActionReply } from "~/lib/action-reply";
import { type Currency, formatMoney } from "~/lib/money";
import { useFormCheck } from "~/lib/use-form-check";
import { SECTION_ORDER, SECTIONS } from "~/modules/catalogue/sections";
import { TextAreaField, TextField } from "~/ui/field";
import { FormButtons, FormMessage, RowAction } from "../content-fields";
import type { PromotionOptions } from "../promotions.server";
import { CODE_LIMITS, promotionFormSchema, type PromotionStatus } from "../promotions-schemas";
import { AdminPage, Panel } from "./admin-page";
import { OrderStatusBadge, When } from "./orders-parts";
import { PromotionStatusBadge, usesText } from "./promotions-list";
import { Checkbox } from "./settings-forms";

type Figures = {
  status: PromotionStatus;
  terms: string;
  uses: number;
  usageLimit: number | null;
  orders: number;
  /** What revenueCents and discountCents are in: the code's currency. */
  currency: Currency;
  revenueCents: number;
  discountCents: number;
  ordersPlaced: number;
  latestOrders: Array<{
    number: number;
    email: string;
    status: string;
    totalCents: number;
    currency: Currency;
    discountCents: number;
    createdAt: string;
  }>;
};

/** One choice of several, as radio buttons, with the message for a refused choice. */
function ChoiceGroup({
  legend,
  name,
  choices,
  value,
  onChange,
  error,
}: {
  legend: string;
  name: string;
  choices: Array<{ value: string; label: string }>;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}) {
  const id = useId();
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium text-ink-800">{legend}</legend>
      <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
        {choices.map((choice) => (
          <label key={choice.value} className="flex items-center gap-2 text-sm text-ink-900">
            <input
              type="radio"
              name={name}
              value={choice.value}
              checked={value === choice.value}
              onChange={() => onChange(choice.value)}
              className="h-4 w-4"
            />
            {choice.label}
          </label>
        ))}
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

type TickItem = { value: string; label: string; group: string };

/**
 * Boxes to tick (what a code applies to), in groups, with the message for a refused choice. With `filter`, a search
 * box hides what does not match; hidden boxes stay ticked and are sent.
 */
function TickList({
  legend,
  field,
  items,
  values,
  error,
  filter = false,
}: {
  legend: string;
  field: string;
  items: TickItem[];
  values: Record<string, string>;
  error?: string;
  filter?: boolean;
}) {
  const id = useId();
  const [search, setSearch] = useState("");
  const [ticked, setTicked] = useState(
    () => items.filter((item) => values[`${field}.${item.value}`] === "on").length,
  );
  const groups = [...new Set(items.map((item) => item.group))];
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = (item: TickItem) =>
    words.every((word) => `${item.label} ${item.group}`.toLowerCase().includes(word));
  return (
    <fieldset
      aria-describedby={error ? `${id}-error` : `${id}-count`}
      data-testid={`scope-${field}`}
      onChange={(event) =>
        setTicked(
          event.currentTarget.querySelectorAll<HTMLInputElement>("input[type=checkbox]:checked").length,
        )
      }
    >
      <legend className="text-sm font-medium text-ink-800">{legend}</legend>
      <p id={`${id}-count`} className="text-xs text-slate-600">
        {ticked} ticked
      </p>
      {filter ? (
        <div className="mt-2 max-w-sm">
          <TextField
            label="Find a product"
            type="search"
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            // Enter searches the list; it must not send the whole form.
            onKeyDown={(event) => {
              if (event.key === "Enter") event.preventDefault();
            }}
            placeholder="Name or brand"
            maxLength={100}
          />
        </div>
      ) : null}
      <div className="mt-2 max-h-80 space-y-3 overflow-y-auto rounded-xl border border-slate-200 p-3">
        {groups.map((group) => {
          const members = items.filter((item) => item.group === group);
          const visible = members.some(shown);
          return (
            <div key={group} hidden={!visible}>
              {groups.length > 1 ? (
                <p className="text-xs font-semibold uppercase tracking-wide text-slate-600">{group}</p>
              ) : null}
              <ul className="mt-1 grid grid-cols-1 gap-x-4 gap-y-1 sm:grid-cols-2 xl:grid-cols-3">
                {members.map((item) => (
                  <li key={item.value} hidden={!shown(item)}>
                    <label className="flex items-start gap-2 text-sm text-ink-900">
                      <input
                        type="checkbox"
                        name={`${field}.${item.value}`}
                        defaultChecked={values[`${field}.${item.value}`] === "on"}
                        className="mt-0.5 h-4 w-4 shrink-0"
                      />
                      <span className="min-w-0 break-words">{item.label}</span>
                    </label>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

const SCOPES = [
  { value: "order", label: "The whole order" },
  { value: "section", label: "Sections" },
  { value: "brands", label: "Brands" },
  { value: "products", label: "Products" },
];

function PromotionFields({
  values,
  options,
  reply,
  isNew,
}: {
  values: Record<string, string>;
  options: PromotionOptions;
  reply?: ActionReply;
  isNew: boolean;
}) {
  const { errors, onSubmit, onChange, formRef, field } = useFormCheck(
    promotionFormSchema,
    reply?.errors,
    values,
  );
  const [kind, setKind] = useState(values.kind === "fixed" ? "fixed" : "percent");
  const [currency, setCurrency] = useState(values.currency === "INR" ? "INR" : "USD");
  const [scope, setScope] = useState(values.scope ?? "order");
  return (
    <Form
      method="post"
      noValidate
      ref={formRef}
      onSubmit={onSubmit}
      onChange={onChange}
      className="space-y-6"
      data-testid="promotion-form"
    >
      <FormMessage message={reply?.message} />
      <Panel title="Code and description">
        <div className="space-y-4">
          <TextField
            label="Code"
            {...field("code")}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            hint={`What customers type: letters, digits, - and _, ${CODE_LIMITS.min} to ${CODE_LIMITS.max} characters. Case does not matter: SAVE10 and save10 are the same code.`}
          />
          <TextAreaField
            label="Description (optional)"
            {...field("description")}
            rows={2}
            hint="For you and the other admins; customers never see it."
          />
        </div>
      </Panel>
      <Panel title="Discount">
        <div className="space-y-4">
          <ChoiceGroup
            legend="Kind"
            name="kind"
            value={kind}
            onChange={setKind}
            error={errors.kind}
            choices={[
              { value: "percent", label: "Percentage off" },
              { value: "fixed", label: "Fixed amount off" },
            ]}
          />
          <ChoiceGroup
            legend="Currency"
            name="currency"
            value={currency}
            onChange={setCurrency}
            error={errors.currency}
            choices={[
              { value: "USD", label: "US dollars (USD)" },
              { value: "INR", label: "Indian rupees (INR)" },
            ]}
          />
          <p className="-mt-2 text-xs text-slate-600">
            A fixed amount applies only to orders in its currency; a percentage in dollars works in rupees too
            (its minimum at the store&rsquo;s rate).
          </p>
          <div className="max-w-xs">
            <TextField
              label={kind === "percent" ? "Percentage off (%)" : `Amount off (${currency})`}
              {...field("value")}
              required
              inputMode="decimal"
              autoComplete="off"
              hint={
                kind === "percent"
                  ? "From 0.01 to 100, like 10 or 12.5."
                  : "More than 0 and at most 100,000.00, like 5.00. Never more than what it applies to."
              }
            />
          </div>
          <Checkbox
            name="includesShipping"
            label="Discount shipping too"
            defaultChecked={values.includesShipping === "on"}
            hint="A percentage comes off shipping as well; a fixed amount takes what is left of it off shipping."
          />
        </div>
      </Panel>
      <Panel title="Applies to">
        <div className="space-y-4">
          <ChoiceGroup
            legend="The discount applies to"
            name="scope"
            value={scope}
            onChange={setScope}
            error={errors.scope}
            choices={SCOPES}
          />
          {scope === "section" ? (
            <TickList
              legend="Sections"
              field="sections"
              values={values}
              error={errors.sections}
              items={SECTION_ORDER.map((section) => ({
                value: section,
                label: SECTIONS[section].label,
                group: "Sections",
              }))}
            />
          ) : null}
          {scope === "brands" ? (
            <TickList
              legend="Brands"
              field="brands"
              values={values}
              error={errors.brands}
              items={options.brands.map((brand) => ({
                value: brand.key,
                label: brand.name,
                group: SECTIONS[brand.section].label,
              }))}
            />
          ) : null}
          {scope === "products" ? (
            <TickList
              legend="Products"
              field="products"
              values={values}
              error={errors.products}
              filter
              items={options.products.map((product) => ({
                value: product.id,
                label: product.hidden ? `${product.name} (hidden)` : product.name,
                group: product.brandName,
              }))}
            />
          ) : null}
        </div>
      </Panel>
      <Panel title="Conditions" description="All optional. Times are UTC, like every time in the admin.">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={`Minimum subtotal (${currency})`}
            {...field("minSubtotal")}
            inputMode="decimal"
            autoComplete="off"
            hint="The cart's subtotal before the discount must reach it. Empty: any."
          />
          <div className="hidden sm:block" />
          <TextField
            label="Starts (UTC)"
            {...field("startsAt")}
            type="datetime-local"
            hint="Empty: at once."
          />
          <TextField label="Ends (UTC)" {...field("endsAt")} type="datetime-local" hint="Empty: never." />
          <TextField
            label="Total uses"
            {...field("usageLimit")}
            inputMode="numeric"
            autoComplete="off"
            hint="Orders that may use it in all. Empty: no limit."
          />
          <TextField
            label="Uses per customer"
            {...field("perCustomerLimit")}
            inputMode="numeric"
            autoComplete="off"
            hint="Orders one e-mail address may use it for. Empty: no limit."
          />
        </div>
      </Panel>
      <Checkbox
        name="paused"
        label="Paused"
        defaultChecked={values.paused === "on"}
        hint="Checkout refuses a paused code until it is resumed."
      />
      <FormButtons label={isNew ? "Add discount code" : "Save discount code"} cancelTo="/admin/promotions" />
    </Form>
  );
}

function CodeFigures({ id, code, figures }: { id: number; code: string; figures: Figures }) {
  const used = figures.ordersPlaced > 0 || figures.uses > 0;
  return (
    <div className="space-y-6">
      <Panel title="Now" testId="promotion-figures">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-slate-600">Status</dt>
          <dd>
            <PromotionStatusBadge status={figures.status} />
          </dd>
          <dt className="text-slate-600">Terms</dt>
          <dd>{figures.terms}</dd>
          <dt className="text-slate-600">Uses</dt>
          <dd>{usesText(figures.uses, figures.usageLimit)}</dd>
          <dt className="text-slate-600">Revenue</dt>
          <dd>
            {formatMoney(figures.revenueCents, figures.currency)} from {figures.orders}{" "}
            {figures.orders === 1 ? "order" : "orders"}
          </dd>
          <dt className="text-slate-600">Discount given</dt>
          <dd>{formatMoney(figures.discountCents, figures.currency)}</dd>
        </dl>
        <div className="mt-4 flex flex-wrap items-center gap-2">
          <RowAction
            action="/admin/promotions"
            intent={figures.status === "paused" ? "resume" : "pause"}
            id={id}
            label={figures.status === "paused" ? "Resume code" : "Pause code"}
          />
          {used ? null : (
            <RowAction
              action="/admin/promotions"
              intent="delete"
              id={id}
              label="Delete code"
              tone="danger"
              confirm={`Delete the discount code ${code}?`}
            />
          )}
        </div>
        {used ? (
          <p className="mt-2 text-xs text-slate-600">
            Orders used this code, so it cannot be deleted: its figures and its text stay. Pause it to stop
            it.
          </p>
        ) : null}
      </Panel>
      <Panel title="Latest orders with it">
        {figures.latestOrders.length === 0 ? (
          <p className="text-sm text-slate-600">No order has used it yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm" data-testid="promotion-orders">
            {figures.latestOrders.map((order) => (
              <li key={order.number} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  <Link
                    to={`/admin/orders/${order.number}`}
                    className="font-semibold text-brand-700 hover:underline"
                  >
                    #{order.number}
                  </Link>{" "}
                  <When iso={order.createdAt} form="short" />
                </span>
                <span className="flex items-center gap-2 tabular-nums">
                  <OrderStatusBadge status={order.status} />
                  {formatMoney(order.totalCents, order.currency)}
                  <span className="text-xs text-slate-600">
                    ({formatMoney(order.discountCents, order.currency)} off)
                  </span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}

/** The page of one discount code (/admin/promotions/{id}) or a new one (/admin/promotions/new). */
export function PromotionEditor({
  id,
  values,
  figures,
  options,
  reply,
  formKey,
}: {
  id: number | null;
  values: Record<string, string>;
  figures: Figures | null;
  options: PromotionOptions;
  reply?: ActionReply;
  formKey: string;
}) {
  const shown = reply?.values ?? values;
  return (
    <AdminPage
      title={id === null ? "New discount code" : `Discount code ${values.code}`}
      intro="Checkout takes one code per order; the server works out every discount from these terms."
      actions={
        <Link
          to="/admin/promotions"
          className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold hover:bg-slate-50"
        >
          All discount codes
        </Link>
      }
    >
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <PromotionFields key={formKey} values={shown} options={options} reply={reply} isNew={id === null} />
        {id !== null && figures ? <CodeFigures id={id} code={values.code ?? ""} figures={figures} /> : null}
      </div>
    </AdminPage>
  );
}
