import { useState } from "react";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { readFormBody } from "~/lib/form-data.server";
import { checkForm, type FieldErrors, fieldErrors } from "~/lib/forms";
import { PRIVATE_HEADERS, requireAdmin } from "~/modules/accounts/session.server";
import { AdminPage } from "~/modules/admin/components/admin-page";
import {
  brandGroupOptions,
  createProduct,
  productForEdit,
  updateProduct,
} from "~/modules/admin/products.server";
import { productImagePath } from "~/modules/admin/product-image-path";
import { productFormSchema } from "~/modules/admin/schemas";
import { isPhysicalSection } from "~/modules/catalogue/sections";
import { downloadUrl } from "~/modules/storage/client";
import { FileUpload } from "~/modules/storage/components/file-upload";
import { ButtonLink } from "~/ui/button";
import { SelectField, TextAreaField, TextField } from "~/ui/field";
import { type ActionReply, refusal } from "~/lib/action-reply";
import { BrandGroupOptions } from "~/modules/admin/components/brand-group-options";
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
  const [product, groups] = await Promise.all([
    id === "new" ? null : productForEdit(context.db, id),
    brandGroupOptions(context.db),
  ]);
  if (id !== "new" && !product) throw notFound();
  return data({ product, groups }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  {
    title: `${loaderData?.product ? `Edit ${loaderData.product.values.name}` : "New product"} · Store admin`,
  },
];

type Reply = ActionReply;

export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireAdmin(request, context);
  const id = productId(params.id);
  if (id === null) throw notFound();
  const body = await readFormBody(request);
  if (!body.ok) {
    return refusal(400, { errors: { form: "The form could not be read: reload the page and try again" } });
  }
  const values = body.values;
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

type Loaded = Route.ComponentProps["loaderData"];

function ProductForm({
  product,
  groups,
  reply,
}: {
  product: Loaded["product"];
  groups: Loaded["groups"];
  reply: Reply | undefined;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const defaults: Record<string, string> = reply?.values ?? product?.values ?? {};
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const errors = clientErrors ?? reply?.errors ?? {};
  const [img, setImg] = useState(defaults.img ?? "");
  const previewable = img.startsWith("/") || img.startsWith("https://");

  return (
    <Form
      method="post"
      noValidate
      className="space-y-6"
      data-testid="product-form"
      onSubmit={(event) => {
        const entries = Object.fromEntries(
          [...new FormData(event.currentTarget).entries()].filter(
            (entry): entry is [string, string] => typeof entry[1] === "string",
          ),
        );
        const found = checkForm(productFormSchema, entries);
        setClientErrors(found);
        if (found) {
          event.preventDefault();
          const first = Object.keys(found)[0];
          event.currentTarget.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
        }
      }}
    >
      {errors.form ? (
        <p
          role="alert"
          data-testid="form-error"
          className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900"
        >
          {errors.form}
        </p>
      ) : null}
      <section className="grid gap-4 rounded-xl border border-slate-200 bg-white p-5 md:grid-cols-2">
        <h2 className="text-base font-semibold text-ink-900 md:col-span-2">The product</h2>
        <SelectField
          label="Brand group"
          name="groupKey"
          defaultValue={defaults.groupKey ?? ""}
          error={errors.groupKey}
          required
        >
          <option value="">Choose a brand</option>
          <BrandGroupOptions groups={groups} />
        </SelectField>
        <TextField
          label="Product id"
          name="externalId"
          defaultValue={defaults.externalId}
          error={errors.externalId}
          hint="Unique within the brand; carts refer to the product by it"
          maxLength={100}
          required
        />
        <div className="md:col-span-2">
          <TextField
            label="Name"
            name="name"
            autoComplete="off"
            defaultValue={defaults.name}
            error={errors.name}
            maxLength={200}
            required
          />
        </div>
        <div className="md:col-span-2">
          <TextField
            label="Page address"
            name="route"
            defaultValue={defaults.route}
            error={errors.route}
            hint="Like /antivirus/norton/360-deluxe"
            maxLength={300}
            required
          />
        </div>
        <TextField
          label="Price (USD)"
          name="price"
          inputMode="decimal"
          defaultValue={defaults.price}
          error={errors.price}
          hint="Like 49.99"
          required
        />
        <TextField
          label="Original price (USD)"
          name="originalPrice"
          inputMode="decimal"
          defaultValue={defaults.originalPrice}
          error={errors.originalPrice}
          hint="Before the discount; leave empty when there is none"
        />
        <div className="md:col-span-2">
          <TextAreaField
            label="Description"
            name="description"
            rows={5}
            defaultValue={defaults.description}
            error={errors.description}
            maxLength={5000}
            required
          />
        </div>
        <TextField
          label="Categories"
          name="categories"
          defaultValue={defaults.categories}
          error={errors.categories}
          hint="Tags separated by commas: best-seller, top-rated"
        />
        <label className="flex items-center gap-2 self-end pb-2 text-sm font-medium text-ink-900">
          <input type="checkbox" name="hidden" value="on" defaultChecked={defaults.hidden === "true"} />
          Hidden from the storefront
        </label>
        <div className="md:col-span-2">
          <SelectField
            label="When out of stock"
            name="waitingOrders"
            defaultValue={defaults.waitingOrders ?? "wait"}
            error={errors.waitingOrders}
            hint="Software is out of stock when its licence key pool is empty; a printer or router when its stock count reaches 0."
          >
            <option value="wait">
              Take orders (backorders): keys or goods follow within the promised hours
            </option>
            <option value="refuse">Show it as unavailable: no orders beyond what is in stock</option>
          </SelectField>
        </div>
        <TextField
          label="Stock (printers and routers)"
          name="stock"
          inputMode="numeric"
          defaultValue={defaults.stock ?? ""}
          error={errors.stock}
          hint="Units on hand not yet ordered; orders take from it and cancellations give back. Empty: not counted. Software: leave empty."
        />
        <div className="md:col-span-2">
          <TextAreaField
            label="Specifications"
            name="specifications"
            rows={5}
            defaultValue={defaults.specifications}
            error={errors.specifications}
            hint='One "Label: value" per line, in the order to show them'
          />
        </div>
      </section>

      <section className="grid gap-4 rounded-xl border border-slate-200 bg-white p-5 md:grid-cols-[1fr_12rem]">
        <h2 className="text-base font-semibold text-ink-900 md:col-span-2">Image</h2>
        <div className="space-y-4">
          <FileUpload
            label="Upload an image (PNG, JPEG, WebP or GIF)"
            bucket="products"
            pathFor={(file) => productImagePath(file)}
            onUploaded={(object) => setImg(downloadUrl("products", object.fullPath))}
          />
          <TextField
            label="Image address"
            name="img"
            value={img}
            onChange={(event) => setImg(event.currentTarget.value)}
            error={errors.img}
            hint="Filled in by the upload; or a site path or https:// address"
            maxLength={2000}
            required
          />
        </div>
        <div className="flex h-48 items-center justify-center rounded-lg border border-dashed border-slate-300 bg-slate-50">
          {previewable ? (
            <img
              src={img}
              alt="Preview, as the storefront shows it"
              className="max-h-44 max-w-full object-contain"
              data-testid="image-preview"
            />
          ) : (
            <span className="text-sm text-slate-600">No image yet</span>
          )}
        </div>
      </section>

      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          disabled={busy}
          className="rounded-lg bg-brand-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-800 disabled:bg-brand-300"
        >
          {busy ? "Saving…" : product ? "Save changes" : "Create product"}
        </button>
        <Link to="/admin/products" className="text-sm font-semibold text-slate-600 hover:underline">
          Back to the products
        </Link>
      </div>
    </Form>
  );
}

export default function ProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const { product, groups } = loaderData;
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
        reply={actionData}
      />
    </AdminPage>
  );
}
