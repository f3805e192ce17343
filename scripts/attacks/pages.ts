import type { Attack } from "./kit";

export const pageAttacks: Attack[] = [];
