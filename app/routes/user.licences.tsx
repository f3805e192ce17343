import { data } from "react-router";
import { z } from "zod";
import { readFormBody } from "~/lib/form-data.server";
import { LicencesPage } from "~/modules/accounts/components/licences-page";
import { licencesForUser, revealLicenceKey } from "~/modules/accounts/licences.server";
import { PRIVATE_HEADERS, requireUser } from "~/modules/accounts/session.server";
import { privatePageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import type { Route } from "./+types/user.licences";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const [licences, seo] = await Promise.all([
    licencesForUser(context.db, viewer.id, new Date()),
    seoForPath(context, new URL(request.url).pathname, {
      page: {
        title: "My licences",
        description: "Your licence keys, when they expire and how to renew them.",
      },
    }),
  ]);
  return data({ licences, seo }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.seo);

const revealForm = z.object({
  intent: z.literal("reveal"),
  keyId: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1),
});

/** Reveal: one key, in full, to its owner only (another customer's key is not found); each reveal is audited. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireUser(request, context);
  const body = await readFormBody(request);
  const form = revealForm.safeParse(body.ok ? body.values : {});
  if (!form.success)
    throw data("Choose a key to reveal with its Reveal button.", { status: 400, headers: PRIVATE_HEADERS });
  const key = await revealLicenceKey(context, viewer, form.data.keyId);
  if (key === null)
    throw data("No such licence key in your account.", { status: 404, headers: PRIVATE_HEADERS });
  return data({ revealed: { id: form.data.keyId, key } }, { headers: PRIVATE_HEADERS });
}

export default function UserLicences({ loaderData, actionData }: Route.ComponentProps) {
  return <LicencesPage licences={loaderData.licences} revealed={actionData?.revealed ?? null} />;
}
