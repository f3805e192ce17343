import type { ServerContext } from "~/context";
import { callAuth } from "./auth.server";

/** Sends (again) the link that confirms the account's e-mail address; rate-limited like every auth request. */
export async function sendVerificationLink(
  context: Pick<ServerContext, "auth" | "env">,
  request: Request,
  email: string,
): Promise<"sent" | "too-many" | "failed"> {
  const reply = await callAuth(context, request, "/send-verification-email", {
    email,
    callbackURL: "/user/orders?verified=1",
  });
  if (reply.status === 200) return "sent";
  return reply.status === 429 ? "too-many" : "failed";
}
