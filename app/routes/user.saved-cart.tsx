import { data } from "react-router";
import { PRIVATE_HEADERS, requireUser } from "~/modules/accounts/session.server";
import { RestoreSavedCart } from "~/modules/cart/components/restore-saved-cart";
import { savedCartOf } from "~/modules/orders/saved-carts.server";
import { privatePageMeta } from "~/modules/seo/meta";
import { seoForPath } from "~/modules/seo/seo.server";
import type { Route } from "./+types/user.saved-cart";

/** The saved-cart reminder's link: the customer signs in (if need be), and their saved lines go back in the cart. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const [lines, seo] = await Promise.all([
    savedCartOf(context.db, viewer.id),
    seoForPath(context, new URL(request.url).pathname, {
      page: { title: "Your saved cart", description: "Put the items you left back in your cart." },
    }),
  ]);
  return data({ lines, seo }, { headers: PRIVATE_HEADERS });
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.seo);

export default function SavedCart({ loaderData }: Route.ComponentProps) {
  return <RestoreSavedCart lines={loaderData.lines} />;
}
