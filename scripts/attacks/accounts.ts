import type { Attack } from "./kit";

export const accountAttacks: Attack[] = [];
