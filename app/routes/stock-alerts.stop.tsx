import { data, useNavigation } from "react-router";
import { PRIVATE_HEADERS } from "~/modules/accounts/session.server";
import {
  StockAlertButton,
  StockAlertCard,
  StockAlertMessage,
} from "~/modules/orders/components/stock-alert-pages";
import { addressOfToken, stopStockAlerts } from "~/modules/orders/stock-alerts.server";
import { privatePageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import type { Route } from "./+types/stock-alerts.stop";

/**
 * The way out of back-in-stock e-mails (a signed token naming the address, no sign-in): a GET only asks; the button,
 * or a mail program's one-click POST (RFC 8058), drops every request the address has waiting.
 */

const INVALID = "This link is not valid. Copy the whole link from the e-mail, or write to us.";

const addressOf = (request: Request, secret: string) =>
  addressOfToken(secret, new URL(request.url).searchParams.get("token"));

export async function loader({ request, context }: Route.LoaderArgs) {
  const seo = await seoForPath(context, new URL(request.url).pathname, {
    page: { title: "Stop back-in-stock e-mails", description: "Stop back-in-stock e-mails to your address." },
  });
  const state =
    addressOf(request, context.env.AUTH_SECRET) === null ? ("invalid" as const) : ("ask" as const);
  return data({ state, seo }, { status: state === "invalid" ? 400 : 200, headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.seo);

export async function action({ request, context }: Route.ActionArgs) {
  const address = addressOf(request, context.env.AUTH_SECRET);
  if (address === null) return data({ state: "invalid" as const }, { status: 400, headers: PRIVATE_HEADERS });
  await stopStockAlerts(context.db, address);
  return data({ state: "stopped" as const }, { headers: PRIVATE_HEADERS });
}

export default function StopStockAlerts({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const state = actionData?.state ?? loaderData.state;
  return (
    <StockAlertCard title="Back-in-stock e-mails">
      {state === "invalid" ? (
        <StockAlertMessage refused>{INVALID}</StockAlertMessage>
      ) : state === "stopped" ? (
        <StockAlertMessage>Done: we send this address no back-in-stock e-mails.</StockAlertMessage>
      ) : (
        <>
          <p className="text-slate-700">
            Stop every back-in-stock e-mail to this address? Products you asked about are forgotten.
          </p>
          <StockAlertButton label="Stop back-in-stock e-mails" busy={busy} />
        </>
      )}
    </StockAlertCard>
  );
}
