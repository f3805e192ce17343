import type { Database } from "~db/client.server";
import { consumeLimits, giveBackLimits, LIMITS, waitText } from "~/lib/rate-limit.server";

export type TooManyCodes = { ok: false; retryAfterSeconds: number; message: string };

export const tooManyCodes = (retryAfterSeconds: number) =>
  `Too many discount codes tried. Try again in ${waitText(retryAfterSeconds)}.`;

/**
 * Runs `check`, which tries the discount code `code` sent from `client`, under the limit on codes refused as not
 * valid (LIMITS.codeGuessesPerClient). Every try takes its point before the code is looked at, so tries sent all at
 * once cannot slip past the count; a try that was no wrong guess (the code applied, or refused for what the cart
 * lacks, or not looked at) gives it back. Over the limit no code is looked at, the right one included: an answer
 * that still told right from wrong would leave the guessing open.
 */
export async function limitCodeGuesses<T>(
  db: Database,
  client: string,
  code: string,
  check: () => Promise<T>,
  wrongGuess: (result: T) => boolean,
): Promise<{ ok: true; result: T } | TooManyCodes> {
  if (code === "") return { ok: true, result: await check() };
  const counted = { limit: LIMITS.codeGuessesPerClient, key: client };
  const limited = await consumeLimits(db, [counted]);
  if (!limited.ok)
    return {
      ok: false,
      retryAfterSeconds: limited.retryAfterSeconds,
      message: tooManyCodes(limited.retryAfterSeconds),
    };
  let wrong = false;
  try {
    const result = await check();
    wrong = wrongGuess(result);
    return { ok: true, result };
  } finally {
    // A failure on the way is not the client's guess either.
    if (!wrong) await giveBackLimits(db, [counted]);
  }
}
