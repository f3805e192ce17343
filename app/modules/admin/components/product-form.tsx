import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import type { ActionReply } from "~/lib/action-reply";
import { checkForm, type FieldErrors } from "~/lib/forms";
import { downloadUrl } from "~/modules/storage/client";
import { FileUpload } from "~/modules/storage/components/file-upload";
import { SelectField, TextAreaField, TextField } from "~/ui/field";
import { productImagePath } from "../product-image-path";
import type { brandGroupOptions, productForEdit } from "../products.server";
import { productFormSchema } from "../schemas";
import { BrandGroupOptions } from "./brand-group-options";

/** The form of a product's own fields on its edit page (or the new product's page). */
export function ProductForm({
  product,
  groups,
  reply,
}: {
  product: Awaited<ReturnType<typeof productForEdit>>;
  groups: Awaited<ReturnType<typeof brandGroupOptions>>;
  reply: ActionReply | undefined;
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
        <TextField
          label="Price in rupees (INR)"
          name="inrPrice"
          inputMode="decimal"
          defaultValue={defaults.inrPrice}
          error={errors.inrPrice}
          hint="Your own price for shoppers paying in rupees, like 4199.00; empty: the dollar price at the store's rate"
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
