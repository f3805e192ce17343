import { useState } from "react";
import { Link, useFetcher, useNavigate } from "react-router";
import { addToCart } from "~/modules/cart/cart";
import { updateCart } from "~/modules/cart/cart-store";
import { licenceExpiryText } from "../licences";
import type { OwnedLicence } from "../licences.server";
import { AccountShell, Card } from "./account-shell";

type Revealed = { id: number; key: string };
type ReportProblem = { id: number; message: string };

const BUTTON =
  "inline-flex items-center justify-center rounded-lg px-3 py-2 text-sm font-semibold disabled:cursor-not-allowed";
const PRIMARY = `${BUTTON} bg-brand-700 text-white hover:bg-brand-800 disabled:bg-brand-300`;
const SECONDARY = `${BUTTON} border border-slate-300 bg-white text-ink-800 hover:bg-brand-50`;

/** The customer's licence keys: each hidden until revealed, with its expiry, its brand's links and a way to renew. */
export function LicencesPage({
  licences,
  reminders,
  revealed,
  reportProblem,
}: {
  licences: OwnedLicence[];
  reminders: boolean;
  revealed: Revealed | null;
  reportProblem: ReportProblem | null;
}) {
  return (
    <AccountShell
      title="My licences"
      intro="Every licence key you own, newest first. Keys stay hidden until you reveal them."
      testId="user-licences"
    >
      {licences.length === 0 ? (
        <Card title="No licences yet">
          <p className="text-sm text-slate-600">
            When you buy software, its licence keys appear here with their expiry dates.{" "}
            <Link to="/categories" className="font-semibold text-brand-700 hover:underline">
              Browse the catalogue
            </Link>
          </p>
        </Card>
      ) : (
        <ol className="space-y-4">
          {licences.map((licence) => (
            <LicenceItem
              key={licence.id}
              licence={licence}
              revealed={revealed?.id === licence.id ? revealed.key : null}
              reportProblem={reportProblem?.id === licence.id ? reportProblem.message : null}
            />
          ))}
        </ol>
      )}
      <RenewalReminders on={reminders} />
    </AccountShell>
  );
}

function LicenceItem({
  licence,
  revealed,
  reportProblem,
}: {
  licence: OwnedLicence;
  revealed: string | null;
  reportProblem: string | null;
}) {
  // With JavaScript the fetcher reveals in place; without it the form posts and the page comes back with the key.
  const fetcher = useFetcher<{ revealed: Revealed }>();
  const key = fetcher.data?.revealed.id === licence.id ? fetcher.data.revealed.key : revealed;
  const headingId = `licence-${licence.id}`;
  return (
    <li
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      aria-labelledby={headingId}
      data-testid="licence"
      data-key-id={licence.id}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={headingId} className="font-bold text-ink-900">
            {licence.productName}
          </h2>
          {licence.variantLabel ? (
            <p className="text-sm text-slate-600" data-testid="licence-variant">
              {licence.variantLabel}
            </p>
          ) : null}
        </div>
        <Link
          to={`/order/${licence.orderNumber}`}
          className="text-sm font-semibold text-brand-700 hover:underline"
          data-testid="licence-order"
        >
          Order #{licence.orderNumber}
        </Link>
      </div>
      <p
        className={`mt-2 text-sm ${licence.expiry.kind === "expired" ? "font-semibold text-rose-800" : "text-slate-700"}`}
        data-testid="licence-expiry"
      >
        {licenceExpiryText(licence.expiry)}
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code
          className="break-all rounded bg-brand-50 px-2 py-1 font-mono text-sm text-ink-900"
          data-testid={key === null ? "licence-hint" : "licence-key"}
        >
          {key ?? licence.hint}
        </code>
        {key === null ? (
          <span className="sr-only">(the key is hidden: only its last characters show)</span>
        ) : null}
        {key === null ? (
          <fetcher.Form method="post">
            <input type="hidden" name="intent" value="reveal" />
            <input type="hidden" name="keyId" value={licence.id} />
            <button
              type="submit"
              className={SECONDARY}
              disabled={fetcher.state !== "idle"}
              data-testid="licence-reveal"
            >
              Reveal<span className="sr-only"> the key for {licence.productName}</span>
            </button>
          </fetcher.Form>
        ) : (
          <CopyButton text={key} />
        )}
      </div>
      {licence.reported ? (
        <p className="mt-3 text-sm font-semibold text-amber-900" data-testid="licence-reported">
          Reported: we are checking it
        </p>
      ) : (
        <>
          {licence.rejectedReply !== null ? (
            <div
              className="mt-3 rounded-lg bg-slate-50 p-3 text-sm text-ink-900"
              data-testid="licence-report-reply"
            >
              <p className="font-semibold">We checked your report and did not replace the key. Our reply:</p>
              <p className="mt-1 whitespace-pre-line break-words">{licence.rejectedReply}</p>
            </div>
          ) : null}
          <ReportForm licence={licence} problem={reportProblem} />
        </>
      )}
      <div className="mt-4 flex flex-wrap items-center gap-x-4 gap-y-2 border-t border-slate-100 pt-3 text-sm">
        {licence.renew ? <RenewButton renew={licence.renew} /> : null}
        {licence.brandWebsite ? (
          <a
            href={licence.brandWebsite}
            className="font-semibold text-brand-700 hover:underline"
            rel="noopener noreferrer"
            target="_blank"
            data-testid="licence-download"
          >
            Download and activation<span className="sr-only"> (opens in a new tab)</span>
          </a>
        ) : null}
        {licence.supportPath ? (
          <Link to={licence.supportPath} className="font-semibold text-brand-700 hover:underline">
            Support
          </Link>
        ) : null}
      </div>
    </li>
  );
}

/** Whether the customer gets e-mails before a licence expires, and the button that switches them. */
function RenewalReminders({ on }: { on: boolean }) {
  const fetcher = useFetcher<{ reminders?: boolean }>();
  const pending = fetcher.formData?.get("reminders");
  const now = pending ? pending === "on" : (fetcher.data?.reminders ?? on);
  return (
    <div className="mt-6">
      <Card title="Renewal reminders" testId="renewal-reminders">
        <p className="text-sm text-slate-700" data-testid="renewal-reminders-state">
          {now
            ? "On: we e-mail you before a licence expires, with a link to renew it."
            : "Off: you get no e-mails before your licences expire."}
        </p>
        <fetcher.Form method="post" className="mt-3">
          <input type="hidden" name="intent" value="reminders" />
          <input type="hidden" name="reminders" value={now ? "off" : "on"} />
          <button type="submit" className={now ? SECONDARY : PRIMARY} disabled={fetcher.state !== "idle"}>
            {now ? "Stop renewal reminders" : "Turn renewal reminders on"}
          </button>
        </fetcher.Form>
      </Card>
    </div>
  );
}

/** "This key does not work": folded away until asked for; open again, with the problem, when the reason was refused. */
function ReportForm({ licence, problem: posted }: { licence: OwnedLicence; problem: string | null }) {
  const fetcher = useFetcher<{ reportProblem?: ReportProblem }>();
  const problem = fetcher.data?.reportProblem?.message ?? posted;
  const fieldId = `licence-report-${licence.id}`;
  return (
    <details className="mt-3 text-sm" open={problem !== null || undefined} data-testid="licence-report">
      <summary className="cursor-pointer font-semibold text-ink-800">This key does not work</summary>
      <fetcher.Form method="post" className="mt-2 space-y-2">
        <input type="hidden" name="intent" value="report" />
        <input type="hidden" name="keyId" value={licence.id} />
        <label htmlFor={fieldId} className="block text-slate-700">
          What happens when you use it? (10 to 500 characters)
        </label>
        <textarea
          id={fieldId}
          name="reason"
          required
          minLength={10}
          maxLength={500}
          rows={3}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${fieldId}-problem` : undefined}
          className={`block w-full rounded-lg border px-3 py-2 ${problem ? "border-red-500" : "border-slate-300"}`}
        />
        {problem ? (
          <p id={`${fieldId}-problem`} className="text-red-700" role="alert">
            {problem}
          </p>
        ) : null}
        <button type="submit" className={SECONDARY} disabled={fetcher.state !== "idle"}>
          Report it<span className="sr-only"> ({licence.productName})</span>
        </button>
      </fetcher.Form>
    </details>
  );
}

function CopyButton({ text }: { text: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <>
      <button
        type="button"
        className={SECONDARY}
        data-testid="licence-copy"
        onClick={() => {
          navigator.clipboard.writeText(text).then(
            () => setState("copied"),
            // Some browsers refuse the clipboard (permissions, insecure page): the key is on screen to select.
            () => setState("failed"),
          );
        }}
      >
        Copy
      </button>
      <span role="status" className="text-sm text-slate-600">
        {state === "copied" ? "Copied" : state === "failed" ? "Could not copy: select the key instead" : ""}
      </span>
    </>
  );
}

/**
 * Renew puts the same variant into the cart (which lives in the browser) and opens the cart. Without JavaScript the
 * link still leads to the product page with that variant chosen, to add it from there.
 */
function RenewButton({ renew }: { renew: NonNullable<OwnedLicence["renew"]> }) {
  const navigate = useNavigate();
  return (
    <a
      href={renew.productPath}
      className={PRIMARY}
      data-testid="licence-renew"
      onClick={(event) => {
        event.preventDefault();
        const { productPath: _path, ...product } = renew;
        updateCart((lines) => addToCart(lines, product, 1));
        navigate("/cart");
      }}
    >
      Renew<span className="sr-only"> {renew.name}</span>
    </a>
  );
}
