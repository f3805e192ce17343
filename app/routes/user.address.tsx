import { data, Form, Link, redirect, useLocation, useNavigation } from "react-router";
import { refusal } from "~/lib/action-reply";
import { PostalAddress } from "~/ui/postal-address";
import { readFormBody } from "~/lib/form-data.server";
import { type FieldErrors, fieldErrors } from "~/lib/forms";
import { useFormCheck } from "~/lib/use-form-check";
import {
  addAddress,
  type AddressWrite,
  deleteAddress,
  listAddresses,
  MAX_ADDRESSES,
  setDefaultAddress,
  updateAddress,
} from "~/modules/accounts/addresses.server";
import { AccountShell } from "~/modules/accounts/components/account-shell";
import { addressIdSchema, savedAddressSchema } from "~/modules/accounts/schemas";
import { PRIVATE_HEADERS, requireUser } from "~/modules/accounts/session.server";
import { AddressFields } from "~/ui/address-fields";
import { privatePageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import type { Route } from "./+types/user.address";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const [list, seo] = await Promise.all([
    listAddresses(context.db, viewer.id),
    seoForPath(context, new URL(request.url).pathname, {
      page: {
        title: "Your address book",
        description: "The addresses you ship and bill to; the default one fills in the checkout.",
      },
    }),
  ]);
  const editId = Number(new URL(request.url).searchParams.get("edit"));
  return data(
    {
      addresses: list.map(({ userId: _userId, createdAt: _c, updatedAt: _u, ...address }) => address),
      // Only one of the customer's own addresses can be edited.
      editing: list.find((address) => address.id === editId)?.id ?? null,
      max: MAX_ADDRESSES,
      seo,
    },
    { headers: PRIVATE_HEADERS },
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.seo);

const NOT_FOUND = "Address not found: it may have been deleted already.";

function refused(write: Extract<AddressWrite, { ok: false }>, values?: Record<string, string>) {
  return write.reason === "not-found"
    ? refusal(404, { errors: { form: NOT_FOUND } })
    : refusal(400, {
        errors: { form: `Your address book is full (${MAX_ADDRESSES} addresses): delete one first.` },
        values,
      });
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireUser(request, context);
  const body = await readFormBody(request);
  if (!body.ok) return refusal(400, { errors: { form: "The form could not be read: reload the page" } });
  const { intent, id: rawId, ...values } = body.values;

  if (intent === "add" || intent === "update") {
    const parsed = savedAddressSchema.safeParse(values);
    if (!parsed.success) return refusal(400, { errors: fieldErrors(parsed.error), values, intent });
    let write: AddressWrite;
    if (intent === "add") write = await addAddress(context.db, viewer.id, parsed.data);
    else {
      const id = addressIdSchema.safeParse(rawId);
      if (!id.success) return refusal(404, { errors: { form: NOT_FOUND } });
      write = await updateAddress(context.db, viewer.id, id.data, parsed.data);
    }
    if (!write.ok) return refused(write, values);
    return redirect(`/user/address?saved=${write.id}#address-${write.id}`);
  }
  if (intent === "delete" || intent === "default") {
    const id = addressIdSchema.safeParse(rawId);
    if (!id.success) return refusal(404, { errors: { form: NOT_FOUND } });
    const write =
      intent === "delete"
        ? await deleteAddress(context.db, viewer.id, id.data)
        : await setDefaultAddress(context.db, viewer.id, id.data);
    if (!write.ok) return refused(write);
    return redirect("/user/address");
  }
  return refusal(400, { errors: { form: "Choose what to do with the form's buttons." } });
}

type SavedView = Route.ComponentProps["loaderData"]["addresses"][number];

function AddressForm({
  address,
  errors,
  values,
  onCancel,
}: {
  address: SavedView | null;
  errors: FieldErrors;
  values?: Record<string, string>;
  onCancel?: React.ReactNode;
}) {
  const navigation = useNavigation();
  const { errors: shown, onSubmit, formRef } = useFormCheck(savedAddressSchema, errors);
  const busy = navigation.state === "submitting";
  return (
    <Form
      ref={formRef}
      method="post"
      noValidate
      className="space-y-4"
      data-testid="address-form"
      onSubmit={onSubmit}
    >
      <input type="hidden" name="intent" value={address ? "update" : "add"} />
      {address ? <input type="hidden" name="id" value={address.id} /> : null}
      <AddressFields
        legend={address ? "Edit this address" : "Add an address"}
        errors={shown}
        defaults={values ?? address ?? {}}
      />
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          name="isDefault"
          defaultChecked={address?.isDefault ?? false}
          disabled={address?.isDefault}
        />
        {address?.isDefault
          ? "This is your default address"
          : "Use as my default address (fills in the checkout)"}
      </label>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          disabled={busy}
          className="rounded-lg bg-brand-700 px-5 py-2.5 text-sm font-semibold text-white hover:bg-brand-800 disabled:bg-brand-300"
        >
          {address ? "Save changes" : "Save address"}
        </button>
        {onCancel}
      </div>
    </Form>
  );
}

export default function AddressBook({ loaderData, actionData }: Route.ComponentProps) {
  const { addresses, editing } = loaderData;
  const errors = actionData?.errors ?? {};
  const editAddress = addresses.find((address) => address.id === editing) ?? null;
  const location = useLocation();
  return (
    <AccountShell
      title="Your address book"
      intro="Your default address fills in the checkout for you."
      testId="address-book"
    >
      <div className="space-y-6">
        {errors.form ? (
          <p
            className="rounded-xl border border-red-300 bg-red-50 p-4 text-sm text-red-900"
            role="alert"
            data-testid="form-error"
          >
            {errors.form}
          </p>
        ) : null}
        {addresses.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
            No addresses yet. Add one below.
          </p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2">
            {addresses.map((address) => (
              <li
                key={address.id}
                id={`address-${address.id}`}
                className={`rounded-2xl border bg-white p-5 shadow-sm ${address.isDefault ? "border-brand-500 ring-2 ring-brand-100" : "border-slate-200"}`}
                data-testid="saved-address"
                data-default={address.isDefault}
              >
                <div className="flex items-start justify-between gap-2">
                  <PostalAddress
                    address={address}
                    name={address.name}
                    phone={address.phone}
                    strongName
                    className="not-italic text-sm text-slate-700"
                  />
                  {address.isDefault ? (
                    <span className="shrink-0 rounded-full bg-brand-700 px-2.5 py-0.5 text-xs font-semibold text-white">
                      Default
                    </span>
                  ) : null}
                </div>
                <div className="mt-4 flex flex-wrap gap-x-4 gap-y-2 text-sm font-semibold">
                  <Link
                    to={`/user/address?edit=${address.id}#address-form`}
                    className="text-brand-700 hover:underline"
                  >
                    Edit<span className="sr-only"> the address of {address.name}</span>
                  </Link>
                  {address.isDefault ? null : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="default" />
                      <input type="hidden" name="id" value={address.id} />
                      <button type="submit" className="text-brand-700 hover:underline">
                        Make default
                      </button>
                    </Form>
                  )}
                  <Form
                    method="post"
                    onSubmit={(event) => {
                      if (!window.confirm(`Delete the address of ${address.name}?`)) event.preventDefault();
                    }}
                  >
                    <input type="hidden" name="intent" value="delete" />
                    <input type="hidden" name="id" value={address.id} />
                    <button type="submit" className="text-red-700 hover:underline">
                      Delete
                    </button>
                  </Form>
                </div>
              </li>
            ))}
          </ul>
        )}

        <div id="address-form">
          <section className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
            <AddressForm
              // A fresh form after every save or navigation: nothing typed before lingers.
              key={`${editAddress?.id ?? "new"}:${location.key}`}
              address={editAddress}
              errors={actionData?.intent ? errors : {}}
              values={actionData?.values}
              onCancel={
                editAddress ? (
                  <Link to="/user/address" className="text-sm font-semibold text-slate-600 hover:underline">
                    Cancel
                  </Link>
                ) : null
              }
            />
          </section>
        </div>
      </div>
    </AccountShell>
  );
}
