import { Link, useSearchParams } from "react-router";
import type { ActionReply } from "~/lib/action-reply";
import { formatMoney } from "~/lib/money";
import { termText } from "~/modules/catalogue/variants";
import { DoneNotice, FormMessage, RowAction } from "../content-fields";
import { variantFormSchema } from "../schemas";
import { Panel } from "./admin-page";
import { cellClass, HeadCell, ListTable } from "./list-controls";
import { RecordFields, RecordForm, useRecordCheckbox } from "./record-form";

type Variant = {
  id: number;
  priceCents: number;
  originalPriceCents: number;
  inrPriceCents: number | null;
  stock: number | null;
  termMonths: number | null;
  values: Record<string, string>;
};

const NOTICES = {
  "variant-created": "Variant added.",
  "variant-saved": "Variant saved.",
  "variant-deleted": "Variant deleted.",
  "variant-hidden": "Variant hidden: it is no longer sold.",
  "variant-shown": "Variant shown: it is on sale again.",
};

/**
 * The Variants section of a product's edit page: its variants in the shop's order, each to edit or delete, and the
 * form of the one open (?variant=12, or ?variant=new to add one). A product with any variant is sold only as one
 * of them.
 */
export function VariantsSection({
  productId,
  physical,
  variants,
  reply,
}: {
  productId: number;
  /** A printer or router: its variants count stock; software's count their key pools. */
  physical: boolean;
  variants: Variant[];
  reply: ActionReply | undefined;
}) {
  const [params] = useSearchParams();
  const path = `/admin/products/${productId}`;
  const open = params.get("variant");
  const editing = variants.find((variant) => String(variant.id) === open) ?? null;
  const formOpen = open === "new" || editing !== null;
  const columns = physical ? 8 : 7;
  return (
    <div id="variants" className="mt-8">
      <Panel
        title="Variants"
        testId="variants"
        description="Each way the product is sold (“1 device, 1 year”, “Retail”), with its own SKU, price and key pool. A product with variants is sold only as one of them; set the product's price to its first variant's, which its page shows chosen."
      >
        <DoneNotice messages={NOTICES} />
        {reply && !reply.errors ? <FormMessage message={reply.message} /> : null}
        {formOpen ? (
          <div className="mb-6 rounded-xl border border-slate-200 p-4">
            <VariantForm
              // A fresh form for each variant and after each post.
              key={`${open}:${reply ? "reply" : ""}`}
              variant={editing}
              physical={physical}
              reply={reply?.errors ? reply : undefined}
              cancelTo={`${path}#variants`}
            />
          </div>
        ) : (
          <Link
            to={`${path}?variant=new#variants`}
            className="inline-flex items-center rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
            data-testid="add-variant"
          >
            Add a variant
          </Link>
        )}
        <ListTable
          caption="The product's variants"
          head={
            <>
              <HeadCell>SKU</HeadCell>
              <HeadCell>Label</HeadCell>
              <HeadCell className="text-right">Price</HeadCell>
              <HeadCell className="text-right">Original price</HeadCell>
              {physical ? <HeadCell className="text-right">Stock</HeadCell> : null}
              <HeadCell>Term</HeadCell>
              <HeadCell>Shown</HeadCell>
              <HeadCell>
                <span className="sr-only">Actions</span>
              </HeadCell>
            </>
          }
        >
          {variants.length === 0 ? (
            <tr>
              <td colSpan={columns} className={`${cellClass} py-6 text-center text-slate-600`}>
                No variants: the product is sold as itself, at its own price.
              </td>
            </tr>
          ) : (
            variants.map((variant) => (
              <tr key={variant.id} data-testid="variant-row">
                <td className={`${cellClass} font-mono`}>{variant.values.sku}</td>
                <td className={cellClass}>{variant.values.label}</td>
                <td className={`${cellClass} text-right`}>
                  {formatMoney(variant.priceCents)}
                  {variant.inrPriceCents !== null ? (
                    <span className="block text-xs text-slate-600" data-testid="variant-inr-price">
                      {formatMoney(variant.inrPriceCents, "INR")}
                    </span>
                  ) : null}
                </td>
                <td className={`${cellClass} text-right`}>
                  {variant.originalPriceCents === variant.priceCents
                    ? "—"
                    : formatMoney(variant.originalPriceCents)}
                </td>
                {physical ? (
                  <td className={`${cellClass} text-right`}>{variant.stock ?? "Not counted"}</td>
                ) : null}
                <td className={cellClass}>{termText(variant.termMonths)}</td>
                <td className={cellClass}>{variant.values.hidden ? "Hidden" : "On sale"}</td>
                <td className={`${cellClass} whitespace-nowrap text-right`}>
                  <Link
                    to={`${path}?variant=${variant.id}#variants`}
                    className="rounded-md px-2 py-1 text-sm font-semibold text-brand-700 hover:underline"
                  >
                    Edit<span className="sr-only"> {variant.values.sku}</span>
                  </Link>
                  <RowAction
                    intent={variant.values.hidden ? "variant-show" : "variant-hide"}
                    id={variant.id}
                    label={variant.values.hidden ? "Show" : "Hide"}
                    srLabel={variant.values.sku}
                  />
                  <RowAction
                    intent="variant-delete"
                    id={variant.id}
                    label="Delete"
                    srLabel={variant.values.sku}
                    tone="danger"
                    confirm={`Delete the variant ${variant.values.sku}? This cannot be undone.`}
                  />
                </td>
              </tr>
            ))
          )}
        </ListTable>
      </Panel>
    </div>
  );
}

function VariantForm({
  variant,
  physical,
  reply,
  cancelTo,
}: {
  variant: Variant | null;
  physical: boolean;
  reply: ActionReply | undefined;
  cancelTo: string;
}) {
  const stored = variant?.values ?? {};
  return (
    <RecordForm
      schema={variantFormSchema}
      reply={reply}
      intent={variant ? "variant-update" : "variant-create"}
      id={variant?.id}
      label={variant ? "Save variant" : "Add variant"}
      cancelTo={cancelTo}
      testId="variant-form"
      heading={
        <h3 className="text-base font-semibold text-ink-900">
          {variant ? `Edit ${stored.sku}` : "New variant"}
        </h3>
      }
    >
      <RecordFields
        autoComplete="off"
        fields={[
          {
            name: "sku",
            label: "SKU",
            stored: stored.sku ?? "",
            spellCheck: false,
            hint: "Letters, digits and dashes, unique in the store: BD-TS-1D-1Y",
          },
          { name: "label", label: "Label", stored: stored.label ?? "", hint: "Like 1 device, 1 year" },
          { name: "price", label: "Price (USD)", stored: stored.price ?? "", hint: "Like 49.99" },
          {
            name: "originalPrice",
            label: "Original price (USD)",
            stored: stored.originalPrice ?? "",
            hint: "Before the discount; leave empty when there is none",
          },
          {
            name: "inrPrice",
            label: "Price in rupees (INR)",
            stored: stored.inrPrice ?? "",
            hint: "Your own price in rupees; empty: the dollar price at the store's rate",
          },
          {
            name: "termMonths",
            label: "Term (months)",
            stored: stored.termMonths ?? "",
            hint: "How long a key lasts from the payment, 1 to 120; empty: perpetual",
          },
          ...(physical
            ? [
                {
                  name: "stock",
                  label: "Stock",
                  stored: stored.stock ?? "",
                  hint: "Units on hand not yet ordered; empty: not counted",
                },
              ]
            : []),
        ]}
      />
      <HiddenBox stored={stored.hidden === "true"} />
    </RecordForm>
  );
}

/** Inside the record form, to read what was just posted. */
function HiddenBox({ stored }: { stored: boolean }) {
  return (
    <label className="flex items-center gap-2 text-sm font-medium text-ink-900">
      <input
        type="checkbox"
        name="hidden"
        defaultChecked={useRecordCheckbox("hidden", stored)}
        className="h-4 w-4"
      />
      Hidden: not sold, and not shown on the product's page
    </label>
  );
}
