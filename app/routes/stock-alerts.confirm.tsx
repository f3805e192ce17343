import { data, useNavigation } from "react-router";
import { PRIVATE_HEADERS } from "~/modules/accounts/session.server";
import {
  StockAlertButton,
  StockAlertCard,
  StockAlertMessage,
} from "~/modules/orders/components/stock-alert-pages";
import { alertOfToken, confirmStockAlert, stockAlertOf } from "~/modules/orders/stock-alerts.server";
import { privatePageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import type { Route } from "./+types/stock-alerts.confirm";

/**
 * The confirmation link of a back-in-stock request (a signed token, no sign-in). A GET only asks (mail scanners
 * open links); the button confirms.
 */

const INVALID =
  "This confirmation link is not valid. Copy the whole link from the e-mail, or ask again on the product page.";
const GONE =
  "This request is no longer waiting: it was stopped, or not confirmed in time. Ask again on the product page.";

const alertOf = (request: Request, secret: string) =>
  alertOfToken(secret, new URL(request.url).searchParams.get("token"));

export async function loader({ request, context }: Route.LoaderArgs) {
  const seo = await seoForPath(context, new URL(request.url).pathname, {
    page: { title: "Confirm your back-in-stock alert", description: "Confirm a back-in-stock e-mail." },
  });
  const id = alertOf(request, context.env.AUTH_SECRET);
  if (id === null) return data({ state: "invalid" as const, seo }, { status: 400, headers: PRIVATE_HEADERS });
  const alert = await stockAlertOf(context.db, id);
  if (!alert) return data({ state: "gone" as const, seo }, { status: 404, headers: PRIVATE_HEADERS });
  return data({ ...alert, seo }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.seo);

export async function action({ request, context }: Route.ActionArgs) {
  const id = alertOf(request, context.env.AUTH_SECRET);
  if (id === null) return data({ state: "invalid" as const }, { status: 400, headers: PRIVATE_HEADERS });
  if (!(await confirmStockAlert(context.db, id)))
    return data({ state: "gone" as const }, { status: 404, headers: PRIVATE_HEADERS });
  return data({ state: "confirmed" as const }, { headers: PRIVATE_HEADERS });
}

export default function ConfirmStockAlert({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const state = actionData?.state ?? loaderData.state;
  const name = "productName" in loaderData ? loaderData.productName : "the product";
  return (
    <StockAlertCard title="Back-in-stock alert">
      {state === "invalid" ? (
        <StockAlertMessage refused>{INVALID}</StockAlertMessage>
      ) : state === "gone" ? (
        <StockAlertMessage refused>{GONE}</StockAlertMessage>
      ) : state === "confirmed" ? (
        <StockAlertMessage>Confirmed: we e-mail you once, when {name} is back in stock.</StockAlertMessage>
      ) : state === "notified" ? (
        <StockAlertMessage>{name} is back in stock: we e-mailed you.</StockAlertMessage>
      ) : (
        <>
          <p className="text-slate-700">E-mail me once, when {name} is back in stock?</p>
          <StockAlertButton label="Confirm the alert" busy={busy} />
        </>
      )}
    </StockAlertCard>
  );
}
