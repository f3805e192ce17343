import { data, redirect, useSearchParams } from "react-router";
import { readFormBody } from "~/lib/form-data.server";
import { fieldErrors } from "~/lib/forms";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import {
  brandGroupOptions,
  createProduct,
  productForEdit,
  updateProduct,
} from "~/modules/admin/products.server";
import { productFormSchema } from "~/modules/admin/schemas";
import { isPhysicalSection } from "~/modules/catalogue/sections";
import { ButtonLink } from "~/ui/button";
import { refusal } from "~/lib/action-reply";
import { ProductForm } from "~/modules/admin/components/product-form";
import { VariantsSection } from "~/modules/admin/components/product-variants";
import { VARIANT_INTENTS, variantAction, variantsForEdit } from "~/modules/admin/variants.server";
import type { Route } from "./+types/admin.product";

const notFound = () =>
  data({ message: "There is no such product: it may have been deleted." }, { status: 404 });

/** "new", or the id of a product (anything else is no product). */
function productId(param: string | undefined): number | "new" | null {
  if (param === "new") return "new";
  if (!param || !/^[1-9]\d{0,9}$/.test(param)) return null;
  const id = Number(param);
  return id <= 2_147_483_647 ? id : null;
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const id = productId(params.id);
  if (id === null) throw notFound();
  const [product, groups, variants] = await Promise.all([
    id === "new" ? null : productForEdit(context.db, id),
    brandGroupOptions(context.db),
    id === "new" ? [] : variantsForEdit(context.db, id),
  ]);
  if (id !== "new" && !product) throw notFound();
  return data({ product, groups, variants }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: `${loaderData?.product ? `Edit ${loaderData.product.values.name}` : "New product"} · Store admin`,
  },
];

export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireAdmin(request, context);
  const id = productId(params.id);
  if (id === null) throw notFound();
  const body = await readFormBody(request);
  if (!body.ok) {
    return refusal(400, { errors: { form: "The form could not be read: reload the page and try again" } });
  }
  const values = body.values;
  if (id !== "new" && VARIANT_INTENTS.includes(values.intent ?? ""))
    return variantAction(context.db, id, values, viewer.email);
  const parsed = productFormSchema.safeParse(values);
  if (!parsed.success) return refusal(400, { errors: fieldErrors(parsed.error), values });
  const result =
    id === "new"
      ? await createProduct(context.db, parsed.data, viewer.email)
      : await updateProduct(context.db, id, parsed.data, viewer.email);
  if (!result.ok) {
    const gone = result.errors.form === "This product no longer exists";
    return refusal(gone ? 404 : 409, { errors: result.errors, values });
  }
  return redirect(`/admin/products/${result.id}?saved=${id === "new" ? "created" : "updated"}`);
}

export default function ProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const { product, groups, variants } = loaderData;
  // A post of the Variants section answers that section; anything else, the product's form.
  const variantReply = actionData?.intent?.startsWith("variant-") ? actionData : undefined;
  const [params] = useSearchParams();
  const saved = params.get("saved");
  return (
    <AdminPage
      title={product ? product.values.name : "New product"}
      intro={
        product
          ? `${product.values.groupKey} · last changed ${new Date(product.updatedAt).toLocaleString("en-US", { timeZone: "UTC", dateStyle: "medium", timeStyle: "short" })} UTC`
          : "A new product shows on the storefront at its address as soon as it is saved, unless it is hidden."
      }
      actions={
        product ? (
          <>
            {isPhysicalSection(product.section) ? null : (
              <ButtonLink to={`/admin/keys?product=${product.id}`} variant="secondary">
                Licence keys
              </ButtonLink>
            )}
            {product.values.hidden === "true" ? null : (
              <a
                href={product.values.route}
                target="_blank"
                rel="noreferrer"
                className="inline-flex items-center rounded-lg border border-slate-300 bg-white px-5 py-2.5 text-sm font-semibold text-ink-900 hover:bg-slate-50"
              >
                View on the storefront
              </a>
            )}
          </>
        ) : null
      }
    >
      {saved && product ? (
        <p
          role="status"
          data-testid="action-notice"
          className="mb-4 rounded-lg border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-900"
        >
          {saved === "created" ? "Product created." : "Changes saved."}{" "}
          {product.values.hidden === "true"
            ? "It is hidden from the storefront."
            : `It is on the storefront at ${product.values.route}.`}
        </p>
      ) : null}
      <ProductForm
        // A fresh form for each product and after each save.
        key={`${product?.id ?? "new"}:${product?.updatedAt ?? ""}`}
        product={product}
        groups={groups}
        reply={variantReply ? undefined : actionData}
      />
      {product ? (
        <VariantsSection
          productId={product.id}
          physical={isPhysicalSection(product.section)}
          variants={variants}
          reply={variantReply}
        />
      ) : null}
    </AdminPage>
  );
}
