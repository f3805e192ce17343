import type { Attack } from "./kit";

export const commerceAttacks: Attack[] = [];
