import { useRef, useState } from "react";
import { data, Form, Link, redirect, useLocation } from "react-router";
import { fieldErrors, formToObject } from "~/lib/forms";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage, Panel } from "~/modules/admin/components/admin-page";
import { FIX_FIELDS, readContentForm, reply } from "~/modules/admin/form-actions.server";
import { DoneNotice, FormButtons, FormMessage, formatWhen, ImageField } from "~/modules/admin/content-fields";
import { asList } from "~/modules/admin/content-schemas";
import { getBrandContent, saveBrandContent } from "~/modules/admin/content.server";
import {
  BRAND_LIMITS,
  brandBenefit,
  brandContentFormSchema,
  brandFeature,
  brandTestimonial,
} from "~/modules/admin/schemas";
import { fieldLimits, type FieldLimits, limitsOf } from "~/lib/field-limits";
import { Button } from "~/ui/button";
import { TextAreaField, TextField } from "~/ui/field";
import { useFormCheck } from "~/lib/use-form-check";
import type { Route } from "./+types/admin.brand-content-edit";

const NOT_FOUND = "No such brand content entry.";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const found = await getBrandContent(context.db, params.key);
  if (!found) throw data({ message: NOT_FOUND }, { status: 404 });
  // /admin/brand-content/windows is the Windows entry: one address per entry.
  if (found.entry.key !== params.key)
    throw redirect(`/admin/brand-content/${encodeURIComponent(found.entry.key)}`);
  return data(found, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.entry.title ?? "Brand content"} · Store admin` },
  { name: "robots", content: "noindex, nofollow" },
];

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const body = await readContentForm(request);
  if (!body.ok) return body.response;
  const parsed = brandContentFormSchema.safeParse(formToObject(body.values));
  if (!parsed.success)
    return reply(400, { message: FIX_FIELDS, errors: fieldErrors(parsed.error), values: body.values });
  if (!(await saveBrandContent(context.db, params.key, parsed.data, admin.email)))
    return reply(404, { message: NOT_FOUND });
  return redirect(`/admin/brand-content/${encodeURIComponent(params.key)}?done=saved`);
}

/** The brand's pictures: each an address, with its preview and an upload. */
const IMAGES = [
  { label: "Banner image", name: "bannerImg", hint: "Wide, about 1600 × 500, behind the title." },
  { label: "Logo", name: "logo" },
  {
    label: "Background image (optional)",
    name: "backgroundImage",
    required: false,
    hint: "Empty for every brand of the demo store.",
  },
] as const;

type Entry = Route.ComponentProps["loaderData"]["entry"];
type Testimonial = { quote: string; author: string };

/** A list the form can grow and shrink; each row keeps its own React key while the field names follow the order. */
function useRows<Item>(initial: Item[]) {
  const next = useRef(initial.length);
  const [rows, setRows] = useState(() => initial.map((value, index) => ({ key: index, value })));
  return {
    rows,
    add: (value: Item) => setRows((all) => [...all, { key: next.current++, value }]),
    remove: (key: number) => setRows((all) => all.filter((row) => row.key !== key)),
  };
}

const strings = (value: unknown): string[] =>
  (asList(value) as unknown[] | undefined)?.map((item) => (typeof item === "string" ? item : "")) ?? [];

/** What the form starts with: the posted values after a refusal, else the stored entry. */
function startingValues(entry: Entry, posted?: Record<string, string>) {
  if (!posted) return { ...entry, ...entry.contact };
  const form = formToObject(posted) as Record<string, unknown>;
  const text = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");
  const benefits = (asList(form.benefits) as Array<Record<string, string>> | undefined) ?? [];
  return {
    title: text("title"),
    bannerImg: text("bannerImg"),
    backgroundImage: text("backgroundImage"),
    logo: text("logo"),
    whyChoose: text("whyChoose"),
    supportPhone: text("supportPhone"),
    supportEmail: text("supportEmail"),
    website: text("website"),
    sample: form.sample === "on",
    benefits: [0, 1, 2].map((index) => ({
      title: benefits[index]?.title ?? "",
      desc: benefits[index]?.desc ?? "",
      icon: benefits[index]?.icon ?? "",
    })),
    features: strings(form.features),
    testimonials: ((asList(form.testimonials) as Array<Record<string, string>> | undefined) ?? []).map(
      (item) => ({ quote: item?.quote ?? "", author: item?.author ?? "" }),
    ),
  };
}

/**
 * A panel of a list the admin grows and shrinks (features, testimonials): the list's own message, a row per item
 * with its fields and a Remove button, and the button that adds an empty one up to the most a brand may have.
 */
function GrowingList<Item>({
  title,
  description,
  error,
  noun,
  list,
  empty,
  max,
  onChange,
  listClassName,
  rowClassName,
  removeClassName,
  children,
  after,
}: {
  title: string;
  description: string;
  error?: string;
  /** What one item is called: "feature" gives "Add a feature", "Remove feature 2" and the test id "feature-list". */
  noun: string;
  list: ReturnType<typeof useRows<Item>>;
  empty: Item;
  max: number;
  /** Told when a row is added or removed. */
  onChange: () => void;
  listClassName: string;
  rowClassName: string;
  removeClassName: string;
  /** The fields of one row. */
  children: (item: Item, index: number) => React.ReactNode;
  after?: React.ReactNode;
}) {
  return (
    <Panel title={title} description={description}>
      {error ? (
        <p className="mb-3 text-sm text-red-700" role="alert">
          {error}
        </p>
      ) : null}
      <ol className={listClassName} data-testid={`${noun}-list`}>
        {list.rows.map((row, index) => (
          <li key={row.key} className={rowClassName}>
            {children(row.value, index)}
            <div className={removeClassName}>
              <button
                type="button"
                onClick={() => {
                  list.remove(row.key);
                  onChange();
                }}
                className="shrink-0 rounded-md px-2 py-1 text-sm font-semibold text-red-700 hover:bg-red-50"
                aria-label={`Remove ${noun} ${index + 1}`}
              >
                Remove
              </button>
            </div>
          </li>
        ))}
      </ol>
      <Button
        variant="secondary"
        className="mt-3"
        disabled={list.rows.length >= max}
        onClick={() => {
          list.add(empty);
          onChange();
        }}
      >
        Add a {noun}
      </Button>
      {after}
    </Panel>
  );
}

function BrandContentForm({ entry, reply }: { entry: Entry; reply?: Route.ComponentProps["actionData"] }) {
  const start = startingValues(entry, reply?.values);
  const { errors, onSubmit, onChange, reset, formRef, field } = useFormCheck(
    brandContentFormSchema,
    reply?.errors,
    reply?.values ?? { title: entry.title, whyChoose: entry.whyChoose, ...entry.contact },
  );
  // Adding or removing a row renumbers the rows after it: messages about numbered rows no longer fit.
  const [listErrors, setListErrors] = useState(true);
  const shown = listErrors
    ? errors
    : Object.fromEntries(Object.entries(errors).filter(([key]) => !/^(features|testimonials)\./.test(key)));
  const features = useRows<string>(start.features);
  const testimonials = useRows<Testimonial>(start.testimonials);
  const changed = () => {
    setListErrors(false);
    reset();
  };
  const featureCount = features.rows.length;
  /** A field of a list's row: its name, the limits its row's schema gives, its value and its message. */
  const rowField = (name: string, limits: FieldLimits, value: string) => ({
    name,
    ...limits,
    defaultValue: value,
    error: shown[name],
  });
  return (
    <Form
      ref={formRef}
      method="post"
      noValidate
      onSubmit={(event) => {
        setListErrors(true);
        onSubmit(event);
      }}
      onChange={onChange}
      className="space-y-6"
      data-testid="brand-content-form"
    >
      <FormMessage message={reply?.message} />
      <Panel title="Heading and text">
        <div className="space-y-4">
          <TextField
            label="Page title"
            {...field("title")}
            hint="Like “Norton Antivirus Support” or “HP Printer Support”."
          />
          <TextAreaField label="Why choose this brand" rows={6} {...field("whyChoose")} />
        </div>
      </Panel>

      <Panel title="Images">
        <div className="space-y-4">
          {IMAGES.map((image) => (
            <ImageField
              key={image.name}
              folder="content/brands"
              defaultValue={start[image.name]}
              error={shown[image.name]}
              {...image}
            />
          ))}
        </div>
      </Panel>

      <Panel title="Contact block">
        <div className="grid gap-4 md:grid-cols-3">
          <TextField
            label="Support phone"
            type="tel"
            {...field("supportPhone")}
            hint="A US number, like +1 (212) 555-0105."
          />
          {/* The schema checks the address itself, not its presence: the browser is told it is needed. */}
          <TextField label="Support e-mail" type="email" required {...field("supportEmail")} />
          <TextField label="Support website" type="url" required {...field("website")} />
        </div>
      </Panel>

      <Panel title="Three benefits" description="Every brand page shows exactly three.">
        {shown.benefits ? (
          <p className="mb-3 text-sm text-red-700" role="alert">
            {shown.benefits}
          </p>
        ) : null}
        <div className="space-y-4">
          {start.benefits.map((benefit, index) => (
            <fieldset
              key={index}
              className="grid min-w-0 grid-cols-1 gap-4 rounded-xl border border-slate-200 p-4 lg:grid-cols-2"
              data-testid="benefit-fields"
            >
              <legend className="px-1 text-sm font-semibold text-ink-900">Benefit {index + 1}</legend>
              <div className="space-y-3">
                <TextField
                  label="Title"
                  {...rowField(`benefits.${index}.title`, fieldLimits(brandBenefit).title, benefit.title)}
                />
                <TextAreaField
                  label="Description"
                  rows={3}
                  {...rowField(`benefits.${index}.desc`, fieldLimits(brandBenefit).desc, benefit.desc)}
                />
              </div>
              <ImageField
                label="Icon"
                name={`benefits.${index}.icon`}
                folder="content/icons"
                defaultValue={benefit.icon}
                error={shown[`benefits.${index}.icon`]}
                hint="A square image."
              />
            </fieldset>
          ))}
        </div>
      </Panel>

      <GrowingList
        title="Features"
        description={`${featureCount} ${featureCount === 1 ? "feature" : "features"}; brand pages usually list 10 to 14 (at most ${BRAND_LIMITS.features}).`}
        error={shown.features}
        noun="feature"
        list={features}
        empty=""
        max={BRAND_LIMITS.features}
        onChange={changed}
        listClassName="space-y-2"
        rowClassName="flex items-start gap-2"
        removeClassName="mt-6"
      >
        {(feature, index) => (
          <div className="min-w-0 flex-1">
            <TextField
              label={`Feature ${index + 1}`}
              {...rowField(`features.${index}`, limitsOf(brandFeature), feature)}
            />
          </div>
        )}
      </GrowingList>

      <GrowingList
        title="Testimonials"
        description={`${testimonials.rows.length} shown; brand pages usually have 7 to 10 (at most ${BRAND_LIMITS.testimonials}).`}
        error={shown.testimonials}
        noun="testimonial"
        list={testimonials}
        empty={{ quote: "", author: "" }}
        max={BRAND_LIMITS.testimonials}
        onChange={changed}
        listClassName="space-y-3"
        rowClassName="grid gap-3 rounded-xl border border-slate-200 p-3 md:grid-cols-[minmax(0,1fr)_14rem_auto]"
        removeClassName="md:mt-6"
        after={
          <label className="mt-4 flex items-start gap-2 text-sm text-ink-900">
            <input type="checkbox" name="sample" defaultChecked={start.sample} className="mt-0.5 h-4 w-4" />
            <span>
              These testimonials are sample content: the page labels them “Sample reviews”. Untick only for
              statements of real customers.
            </span>
          </label>
        }
      >
        {(testimonial, index) => (
          <>
            <TextAreaField
              label={`Quote ${index + 1}`}
              rows={2}
              {...rowField(
                `testimonials.${index}.quote`,
                fieldLimits(brandTestimonial).quote,
                testimonial.quote,
              )}
            />
            <TextField
              label={`Author ${index + 1}`}
              {...rowField(
                `testimonials.${index}.author`,
                fieldLimits(brandTestimonial).author,
                testimonial.author,
              )}
              hint="A short name, like Sam P."
            />
          </>
        )}
      </GrowingList>

      <FormButtons label="Save brand content" cancelTo="/admin/brand-content" />
    </Form>
  );
}

export default function BrandContentEdit({ loaderData, actionData }: Route.ComponentProps) {
  const { entry, usedBy } = loaderData;
  const location = useLocation();
  return (
    <AdminPage
      title={entry.title}
      intro={`Brand content entry ${entry.key}, last saved ${formatWhen(entry.updatedAt)}.`}
      actions={
        <Link to="/admin/brand-content" className="text-sm font-semibold text-brand-700 hover:underline">
          All brand content
        </Link>
      }
    >
      <DoneNotice messages={{ saved: "Brand content saved: every page below shows it now." }} />
      <div className="mb-6 rounded-xl border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700">
        <p data-testid="used-by">
          <span className="font-semibold text-ink-900">Shown on: </span>
          {usedBy.length === 0
            ? "no brand page."
            : usedBy.map((brand, index) => (
                <span key={brand.key}>
                  {index > 0 ? ", " : null}
                  <a href={brand.path} target="_blank" rel="noreferrer" className="text-brand-700 underline">
                    {brand.name} ({brand.path})<span className="sr-only"> (opens in a new tab)</span>
                  </a>
                </span>
              ))}
          {usedBy.length > 1 ? " — one edit changes all of them." : null}
        </p>
        <p className="mt-1">
          Every brand page also shows the independent-reseller notice with a link to the brand&apos;s official
          website. It is part of the page template, not of this content, and cannot be removed.
        </p>
      </div>
      <BrandContentForm key={`${entry.updatedAt}:${location.key}`} entry={entry} reply={actionData} />
    </AdminPage>
  );
}
