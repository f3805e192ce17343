import type { Attack } from "./kit";

export const platformAttacks: Attack[] = [];
