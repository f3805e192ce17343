import { data } from "react-router";
import { clientAddress } from "~/lib/client-address";
import { readFormBody } from "~/lib/form-data.server";
import { headersWithRetryAfter } from "~/lib/limit-headers";
import { retryAfterHeaders } from "~/lib/rate-limit.server";
import { PRIVATE_HEADERS } from "~/modules/accounts/session.server";
import {
  ProductLink,
  StockAlertCard,
  StockAlertMessage,
} from "~/modules/orders/components/stock-alert-pages";
import { requestStockAlert, stockAlertFormSchema } from "~/modules/orders/stock-alerts.server";
import { privatePageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import type { Route } from "./+types/stock-alerts";

/**
 * Where a product page's "E-mail me when it is back" form posts (a plain form: it works without JavaScript, and the
 * cached product page holds nothing of the visitor). The answer is this page: a link is on its way, or why not.
 */

export const headers = headersWithRetryAfter;

const seoOf = (context: Route.LoaderArgs["context"], request: Request) =>
  seoForPath(context, new URL(request.url).pathname, {
    page: { title: "Back-in-stock alert", description: "Get one e-mail when a product is back in stock." },
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  return data({ seo: await seoOf(context, request) }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.seo);

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readFormBody(request);
  const parsed = body.ok ? stockAlertFormSchema.safeParse(body.values) : null;
  if (!parsed?.success) {
    const message = parsed?.error.issues.some((issue) => issue.path[0] === "email")
      ? "Enter a valid e-mail address, then try again."
      : "The form could not be read: go back to the product page and try again.";
    return data({ ok: false as const, message }, { status: 400, headers: PRIVATE_HEADERS });
  }
  const answer = await requestStockAlert(context, clientAddress(request), parsed.data);
  if (!answer.ok)
    return data(
      { ok: false as const, message: answer.message },
      {
        status: answer.status,
        headers: { ...PRIVATE_HEADERS, ...retryAfterHeaders(answer.retryAfterSeconds) },
      },
    );
  return data(answer, { headers: PRIVATE_HEADERS });
}

export default function StockAlertRequest({ actionData }: Route.ComponentProps) {
  if (!actionData)
    return (
      <StockAlertCard title="Back-in-stock alert">
        <p className="text-slate-700">
          On the page of a product that is out of stock, leave your e-mail address: we e-mail you once when it
          is back.
        </p>
      </StockAlertCard>
    );
  return (
    <StockAlertCard title="Back-in-stock alert">
      {!actionData.ok ? (
        <StockAlertMessage refused>{actionData.message}</StockAlertMessage>
      ) : actionData.state === "available" ? (
        <StockAlertMessage>Good news: {actionData.productName} can be ordered now.</StockAlertMessage>
      ) : actionData.state === "already" ? (
        <StockAlertMessage>
          This address is already on the list for {actionData.productName}: we e-mail it once it is back.
        </StockAlertMessage>
      ) : (
        <>
          <StockAlertMessage>Check your inbox to confirm.</StockAlertMessage>
          <p className="mt-2 text-slate-700">
            We sent a link to the address you gave. Once you open it and confirm, we e-mail you once when{" "}
            {actionData.productName} is back in stock. Without the confirmation we send nothing more.
          </p>
        </>
      )}
      {actionData.ok ? <ProductLink path={actionData.productPath} name={actionData.productName} /> : null}
    </StockAlertCard>
  );
}
