/**
 * npm run db:seed                       imports the demo store (idempotent)
 * npm run db:seed -- --file my.json     imports your own catalogue file
 */
import { seedCommand } from "./seed-command";

process.exitCode = await seedCommand(process.argv.slice(2), process.env, console);
