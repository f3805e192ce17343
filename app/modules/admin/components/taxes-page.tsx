import { useState } from "react";
import { Form, Link, useLocation } from "react-router";
import type { ActionReply } from "~/lib/action-reply";
import type { TaxProductKind } from "~db/schema/pricing";
import { COUNTRIES } from "~/lib/address";
import { regionLabel, regionsOf } from "~/lib/regions";
import { fieldLimits } from "~/lib/field-limits";
import { ButtonLink } from "~/ui/button";
import { SelectField, TextField } from "~/ui/field";
import { DoneNotice, FormButtons, FormMessage, RowAction } from "../content-fields";
import { formatBasisPoints } from "../pricing-fields";
import { TAX_KIND_LABELS, taxRegistrationFormSchema, taxRuleFormSchema } from "../tax-schemas";
import { AdminPage, Panel } from "./admin-page";
import { cellClass, HeadCell, ListTable, withParams } from "./list-controls";
import { MoveButtons, RecordForm } from "./record-form";
import { Checkbox } from "./settings-forms";

export const TAX_DONE_MESSAGES = {
  prices: "Saved: checkout works tax out this way for orders placed from now on.",
  "rule-created": "Tax rule added: checkout charges it on orders placed from now on.",
  "rule-saved":
    "Tax rule saved: orders placed from now on use it; placed orders keep what they were charged.",
  "rule-deleted": "Tax rule deleted: orders placed with it keep what they were charged.",
  "rule-moved": "Tax rule moved.",
  "registration-created": "Registration added: invoices print it from now on.",
  "registration-saved": "Registration saved: invoices print it from now on.",
  "registration-deleted": "Registration deleted.",
};

type Rule = {
  id: number;
  country: string;
  region: string;
  productKind: TaxProductKind;
  name: string;
  rateBasisPoints: number;
  appliesToShipping: boolean;
};

type Registration = { country: string; label: string; number: string; regions: string[] };

/** The answer to one of the page's forms, if the last post was that form's. */
const replyFor = (reply: ActionReply | undefined, intent: string) =>
  reply?.intent === intent ? reply : undefined;

const where = (country: string, region: string) =>
  `${COUNTRIES[country] ?? country} · ${region ? regionLabel(country, region) : "whole country"}`;

function CountrySelect({
  value,
  onChange,
  error,
  hint,
}: {
  value: string;
  onChange: (country: string) => void;
  error?: string;
  hint?: string;
}) {
  return (
    <SelectField
      label="Country"
      name="country"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
      hint={hint}
    >
      {Object.entries(COUNTRIES).map(([code, name]) => (
        <option key={code} value={code}>
          {name}
        </option>
      ))}
    </SelectField>
  );
}

function PricesPanel({ pricesIncludeTax, reply }: { pricesIncludeTax: boolean; reply?: ActionReply }) {
  return (
    <Panel
      title="Prices and tax"
      testId="tax-prices"
      description="Whether the prices in the catalogue already hold the tax, or checkout adds the tax to them."
    >
      <Form method="post" className="space-y-4" data-testid="tax-prices-form">
        <input type="hidden" name="intent" value="prices" />
        <FormMessage message={reply?.message} />
        <Checkbox
          name="pricesIncludeTax"
          label="Catalogue prices include tax"
          defaultChecked={pricesIncludeTax}
          hint="Ticked: a $100.00 price is what the buyer pays, and the tax is worked out of it. Not ticked: checkout adds the tax to $100.00."
        />
        <FormButtons label="Save" />
      </Form>
    </Panel>
  );
}

function RegionField({
  country,
  defaultValue,
  error,
}: {
  country: string;
  defaultValue: string;
  error?: string;
}) {
  const states = regionsOf(country);
  if (states)
    return (
      <SelectField
        label="State"
        name="region"
        defaultValue={defaultValue}
        error={error}
        hint="A rule for the whole country applies where no rule names the buyer's state."
      >
        <option value="">The whole country</option>
        {Object.entries(states).map(([code, name]) => (
          <option key={code} value={code}>
            {code} · {name}
          </option>
        ))}
      </SelectField>
    );
  return (
    <TextField
      label="Region (optional)"
      name="region"
      autoComplete="off"
      defaultValue={defaultValue}
      error={error}
      hint="The region's code, like BC. Empty: the whole country."
    />
  );
}

/** The look of the tax rule and registration forms: a box above the list they add to. */
const BOXED_FORM = "mb-6 space-y-4 rounded-xl border border-slate-200 bg-slate-50/60 p-4";

function RuleForm({
  rule,
  reply,
  cancelTo,
}: {
  rule: { id: number | null; values: Record<string, string> };
  reply?: ActionReply;
  cancelTo: string;
}) {
  const values = reply?.values ?? rule.values;
  const limits = fieldLimits(taxRuleFormSchema);
  const [country, setCountry] = useState(values.country ?? "US");
  return (
    <RecordForm
      schema={taxRuleFormSchema}
      reply={reply}
      intent="rule-save"
      id={rule.id ?? undefined}
      label={rule.id === null ? "Add rule" : "Save rule"}
      cancelTo={cancelTo}
      testId="tax-rule-form"
      className={BOXED_FORM}
      heading={
        <h3 className="font-bold text-ink-900">{rule.id === null ? "New tax rule" : "Edit tax rule"}</h3>
      }
    >
      {(errors) => (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <CountrySelect value={country} onChange={setCountry} error={errors.country} />
            <RegionField
              key={country}
              country={country}
              defaultValue={country === values.country ? (values.region ?? "") : ""}
              error={errors.region}
            />
            <SelectField
              label="Taxes"
              name="productKind"
              defaultValue={values.productKind ?? "all"}
              error={errors.productKind}
            >
              {Object.entries(TAX_KIND_LABELS).map(([kind, label]) => (
                <option key={kind} value={kind}>
                  {label}
                </option>
              ))}
            </SelectField>
            <TextField
              label="Name"
              name="name"
              {...limits.name}
              autoComplete="off"
              defaultValue={values.name ?? ""}
              error={errors.name}
              hint="As checkout, e-mails and invoices print it: CGST, NY sales tax."
            />
            <TextField
              label="Rate (%)"
              name="rate"
              inputMode="decimal"
              autoComplete="off"
              required
              defaultValue={values.rate ?? ""}
              error={errors.rate}
              hint="From 0 to 100, to a hundredth of a percent: 18, 8.25."
            />
          </div>
          <Checkbox
            name="appliesToShipping"
            label="Tax shipping at this rate too"
            defaultChecked={values.appliesToShipping === "on"}
          />
        </>
      )}
    </RecordForm>
  );
}

function RulesPanel({
  rules,
  rule,
  reply,
  link,
}: {
  rules: Rule[];
  rule: { id: number | null; values: Record<string, string> } | null;
  reply?: ActionReply;
  link: (changes: Record<string, string | undefined>) => string;
}) {
  const saveReply = replyFor(reply, "rule-save");
  const rowReply = replyFor(reply, "rule-delete") ?? replyFor(reply, "rule-move");
  const samePlace = (a?: Rule, b?: Rule) => a && b && a.country === b.country && a.region === b.region;
  return (
    <Panel
      title="Tax rules"
      testId="tax-rules"
      description="What checkout charges, by the buyer's country and state. Where rules name the buyer's state, those apply; otherwise the country's. Every rule that applies is charged (CGST and SGST), in this order. A change applies to orders placed after it: placed orders keep what they were charged."
    >
      {rule || saveReply ? (
        <RuleForm
          rule={rule ?? { id: null, values: {} }}
          reply={saveReply}
          cancelTo={link({ rule: undefined })}
        />
      ) : (
        <ButtonLink to={link({ rule: "new" })} data-testid="new-tax-rule">
          Add a tax rule
        </ButtonLink>
      )}
      <FormMessage message={rowReply?.message} />
      <ListTable
        caption="Tax rules"
        head={
          <>
            <HeadCell>Name</HeadCell>
            <HeadCell className="text-right">Rate</HeadCell>
            <HeadCell>Where</HeadCell>
            <HeadCell>Taxes</HeadCell>
            <HeadCell>Shipping</HeadCell>
            <HeadCell>
              <span className="sr-only">Order and actions</span>
            </HeadCell>
          </>
        }
      >
        {rules.length === 0 ? (
          <tr>
            <td colSpan={6} className={`${cellClass} py-6 text-center text-slate-600`}>
              No tax rules: checkout charges no tax.
            </td>
          </tr>
        ) : (
          rules.map((row, index) => (
            <tr
              key={row.id}
              data-testid="tax-rule-row"
              data-name={row.name}
              className={rule?.id === row.id ? "bg-brand-50" : ""}
            >
              <td className={`${cellClass} font-semibold`}>{row.name}</td>
              <td className={`${cellClass} text-right tabular-nums`} data-testid="tax-rule-rate">
                {formatBasisPoints(row.rateBasisPoints)}
              </td>
              <td className={`${cellClass} min-w-40`}>{where(row.country, row.region)}</td>
              <td className={cellClass}>{TAX_KIND_LABELS[row.productKind]}</td>
              <td className={cellClass}>{row.appliesToShipping ? "Taxed" : "Not taxed"}</td>
              <td className={`${cellClass} whitespace-nowrap text-right`}>
                <MoveButtons
                  intent="rule-move"
                  id={row.id}
                  name={row.name}
                  first={!samePlace(rules[index - 1], row)}
                  last={!samePlace(rules[index + 1], row)}
                />
                <Link
                  to={link({ rule: String(row.id) })}
                  className="rounded-md px-2 py-1 text-sm font-semibold text-brand-700 hover:underline"
                >
                  Edit<span className="sr-only"> {row.name}</span>
                </Link>
                <RowAction
                  intent="rule-delete"
                  id={row.id}
                  label="Delete"
                  srLabel={row.name}
                  tone="danger"
                  confirm={`Delete the tax rule “${row.name}” (${where(row.country, row.region)})?`}
                />
              </td>
            </tr>
          ))
        )}
      </ListTable>
    </Panel>
  );
}

function RegistrationForm({
  registration,
  reply,
  cancelTo,
}: {
  registration: { index: number | null; was: string; values: Record<string, string> };
  reply?: ActionReply;
  cancelTo: string;
}) {
  const values = reply?.values ?? registration.values;
  const limits = fieldLimits(taxRegistrationFormSchema);
  const [country, setCountry] = useState(values.country ?? "US");
  const states = regionsOf(country);
  return (
    <RecordForm
      schema={taxRegistrationFormSchema}
      reply={reply}
      intent="registration-save"
      label={registration.index === null ? "Add registration" : "Save registration"}
      cancelTo={cancelTo}
      testId="tax-registration-form"
      className={BOXED_FORM}
      heading={
        <h3 className="font-bold text-ink-900">
          {registration.index === null ? "New registration" : "Edit registration"}
        </h3>
      }
    >
      {(errors) => (
        <>
          {registration.index !== null ? (
            <>
              <input type="hidden" name="index" value={registration.index} />
              <input type="hidden" name="was" value={registration.was} />
            </>
          ) : null}
          <div className="grid gap-4 sm:grid-cols-3">
            <CountrySelect value={country} onChange={setCountry} error={errors.country} />
            <TextField
              label="Kind of number"
              name="label"
              {...limits.label}
              autoComplete="off"
              defaultValue={values.label ?? ""}
              error={errors.label}
              hint="EIN, GSTIN, VAT..."
            />
            <TextField
              label="Number"
              name="number"
              {...limits.number}
              autoComplete="off"
              spellCheck={false}
              defaultValue={values.number ?? ""}
              error={errors.number}
            />
          </div>
          {states ? (
            <fieldset
              key={country}
              aria-describedby={errors.regions ? "registration-regions-error" : "registration-regions-hint"}
            >
              <legend className="text-sm font-medium text-ink-800">States it collects tax in</legend>
              <p id="registration-regions-hint" className="text-xs text-slate-600">
                None ticked: the whole country.
              </p>
              <div className="mt-2 grid max-h-64 grid-cols-1 gap-x-4 gap-y-1 overflow-y-auto rounded-xl border border-slate-200 bg-white p-3 min-[420px]:grid-cols-2 lg:grid-cols-4">
                {Object.entries(states).map(([code, name]) => (
                  <label key={code} className="flex items-start gap-2 text-sm text-ink-900">
                    <input
                      type="checkbox"
                      name={`regions.${code}`}
                      defaultChecked={country === values.country && values[`regions.${code}`] === "on"}
                      className="mt-0.5 h-4 w-4 shrink-0"
                    />
                    <span>
                      {code} · {name}
                    </span>
                  </label>
                ))}
              </div>
              {errors.regions ? (
                <p id="registration-regions-error" role="alert" className="mt-1 text-sm text-red-700">
                  {errors.regions}
                </p>
              ) : null}
            </fieldset>
          ) : (
            <div className="max-w-md">
              <TextField
                label="Regions it collects tax in (optional)"
                name="regionCodes"
                {...limits.regionCodes}
                autoComplete="off"
                defaultValue={country === values.country ? (values.regionCodes ?? "") : ""}
                error={errors.regionCodes}
                hint="Codes separated by commas, like BC, ON. Empty: the whole country."
              />
            </div>
          )}
        </>
      )}
    </RecordForm>
  );
}

function RegistrationsPanel({
  registrations,
  registration,
  reply,
  link,
}: {
  registrations: Registration[];
  registration: { index: number | null; was: string; values: Record<string, string> } | null;
  reply?: ActionReply;
  link: (changes: Record<string, string | undefined>) => string;
}) {
  const saveReply = replyFor(reply, "registration-save");
  const rowReply = replyFor(reply, "registration-delete");
  return (
    <Panel
      title="Tax registrations"
      testId="tax-registrations"
      description="Where the store is registered to collect tax, printed on invoices: a US EIN with the states where it collects sales tax, an Indian GSTIN with its state. The tax rules above say what is charged."
    >
      {registration || saveReply ? (
        <RegistrationForm
          registration={registration ?? { index: null, was: "", values: {} }}
          reply={saveReply}
          cancelTo={link({ registration: undefined })}
        />
      ) : (
        <ButtonLink to={link({ registration: "new" })} data-testid="new-tax-registration">
          Add a registration
        </ButtonLink>
      )}
      <FormMessage message={rowReply?.message} />
      <ListTable
        caption="Tax registrations"
        head={
          <>
            <HeadCell>Country</HeadCell>
            <HeadCell>Number</HeadCell>
            <HeadCell>Collects in</HeadCell>
            <HeadCell>
              <span className="sr-only">Actions</span>
            </HeadCell>
          </>
        }
      >
        {registrations.length === 0 ? (
          <tr>
            <td colSpan={4} className={`${cellClass} py-6 text-center text-slate-600`}>
              No registrations yet: invoices print none.
            </td>
          </tr>
        ) : (
          registrations.map((row, index) => (
            <tr
              key={`${row.country}-${row.number}`}
              data-testid="tax-registration-row"
              data-number={row.number}
            >
              <td className={cellClass}>{COUNTRIES[row.country] ?? row.country}</td>
              <td className={`${cellClass} whitespace-nowrap`}>
                <span className="text-slate-600">{row.label}</span>{" "}
                <span className="font-mono font-semibold">{row.number}</span>
              </td>
              <td className={`${cellClass} min-w-40`}>
                {row.regions.length === 0
                  ? "The whole country"
                  : row.regions.map((code) => regionLabel(row.country, code)).join(", ")}
              </td>
              <td className={`${cellClass} whitespace-nowrap text-right`}>
                <Link
                  to={link({ registration: String(index) })}
                  className="rounded-md px-2 py-1 text-sm font-semibold text-brand-700 hover:underline"
                >
                  Edit<span className="sr-only"> {row.number}</span>
                </Link>
                <RowAction
                  intent="registration-delete"
                  id={index}
                  fields={{ index: String(index), was: row.number }}
                  label="Delete"
                  srLabel={row.number}
                  tone="danger"
                  confirm={`Delete the registration ${row.label} ${row.number}?`}
                />
              </td>
            </tr>
          ))
        )}
      </ListTable>
    </Panel>
  );
}

/** The taxes page (/admin/taxes): prices with or without tax, the tax rules and the store's registrations. */
export function TaxesScreen({
  pricesIncludeTax,
  registrations,
  rules,
  rule,
  registration,
  reply,
  formKey,
}: {
  pricesIncludeTax: boolean;
  registrations: Registration[];
  rules: Rule[];
  rule: { id: number | null; values: Record<string, string> } | null;
  registration: { index: number | null; was: string; values: Record<string, string> } | null;
  reply?: ActionReply;
  formKey: string;
}) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.delete("done");
  const link = (changes: Record<string, string | undefined>) => `/admin/taxes${withParams(params, changes)}`;
  return (
    <AdminPage
      title="Taxes"
      intro="How checkout works out tax: whether prices include it, the rules by country and state, and the registrations invoices print. Every change is recorded in the audit log."
    >
      <DoneNotice messages={TAX_DONE_MESSAGES} />
      {reply && !reply.intent ? <FormMessage message={reply.message} /> : null}
      <div className="space-y-6" key={formKey}>
        <PricesPanel pricesIncludeTax={pricesIncludeTax} reply={replyFor(reply, "prices")} />
        <RulesPanel rules={rules} rule={rule} reply={reply} link={link} />
        <RegistrationsPanel
          registrations={registrations}
          registration={registration}
          reply={reply}
          link={link}
        />
      </div>
    </AdminPage>
  );
}
