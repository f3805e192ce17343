/**
 * What a licence line earned the store: what the buyer paid for it (after its discount, before tax) minus what its
 * keys cost, as the owner imported them. A key imported without a cost makes the margin unknown, never a guess.
 */
import { linePaidCents } from "./invoice-document";

export type LineMargin =
  | { known: true; costCents: number; marginCents: number }
  | { known: false; uncostedKeys: number };

export function lineMargin(
  line: { lineTotalCents: number; discountCents: number; taxCents: number; refundedAt: Date | string | null },
  pricesIncludeTax: boolean,
  /** The costs of the keys the line holds now (revoked ones are not its any more); null: not said. */
  keyCosts: Array<number | null>,
): LineMargin | null {
  // Nothing delivered yet, or refunded: there is no sale to earn on.
  if (keyCosts.length === 0 || line.refundedAt !== null) return null;
  const uncostedKeys = keyCosts.filter((cost) => cost === null).length;
  if (uncostedKeys > 0) return { known: false, uncostedKeys };
  const costCents = keyCosts.reduce<number>((sum, cost) => sum + cost!, 0);
  // What the buyer paid for it, less the tax collected for someone else.
  const netCents = linePaidCents(line, pricesIncludeTax) - line.taxCents;
  return { known: true, costCents, marginCents: netCents - costCents };
}

/** An order's margin over its licence lines: known only when every line's is. */
export function orderMargin(margins: Array<LineMargin | null>): LineMargin | null {
  const present = margins.filter((margin) => margin !== null);
  if (present.length === 0) return null;
  const unknown = present.filter((margin) => !margin.known);
  if (unknown.length > 0) {
    return { known: false, uncostedKeys: unknown.reduce((sum, margin) => sum + margin.uncostedKeys, 0) };
  }
  return present.reduce<LineMargin>(
    (sum, margin) =>
      sum.known && margin.known
        ? {
            known: true,
            costCents: sum.costCents + margin.costCents,
            marginCents: sum.marginCents + margin.marginCents,
          }
        : sum,
    { known: true, costCents: 0, marginCents: 0 },
  );
}
