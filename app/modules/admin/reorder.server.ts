import { asc, eq, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Transaction } from "~db/client.server";
import { recordAudit } from "~/lib/audit-log.server";

/** A table whose rows are listed in the order of a position column (ties by id): banners, tax rules. */
type OrderedTable = PgTable & { id: PgColumn; position: PgColumn };

/**
 * Moves one row a place up or down among the rows `where` selects (all of the table without it), inside the
 * caller's transaction: they are numbered 0, 1, 2... again in the order they show, so ties left by hand-typed
 * positions stop mattering, and the move is audited as `{entity}.move_{direction}`. False when the row is not
 * among them; the first moved up or the last moved down stays where it is (true, nothing written).
 */
export async function moveRow(
  tx: Transaction,
  table: OrderedTable,
  move: { id: number; direction: "up" | "down"; where?: SQL; actor: string; entity: string },
): Promise<boolean> {
  const rows = (await tx
    .select({ id: table.id, position: table.position })
    .from(table as PgTable)
    .where(move.where)
    .orderBy(asc(table.position), asc(table.id))
    .for("update")) as Array<{ id: number; position: number }>;
  const from = rows.findIndex((row) => row.id === move.id);
  if (from === -1) return false;
  const to = move.direction === "up" ? from - 1 : from + 1;
  if (to < 0 || to >= rows.length) return true;
  const order = rows.map((row) => row.id);
  [order[from], order[to]] = [order[to]!, order[from]!];
  const after = order.map((id, position) => ({ id, position }));
  for (const row of after) {
    if (rows.find((old) => old.id === row.id)!.position !== row.position)
      await tx
        .update(table)
        .set({ position: row.position } as never)
        .where(eq(table.id, row.id));
  }
  await recordAudit(tx, {
    actor: move.actor,
    action: `${move.entity}.move_${move.direction}`,
    entity: move.entity,
    entityId: move.id,
    before: rows,
    after,
  });
  return true;
}
