/** The Node major version the store is built, tested and measured on (docs/decisions/0028-node-24-installed-with-the-packages.md). */
export const TESTED_NODE_MAJOR = 24;

/**
 * What to tell the owner when the server runs on an older Node than the one it is tested on (it runs, untested and
 * slower), or undefined. `npm start` runs on the Node that `npm ci` installs; this is for a server started otherwise.
 */
export function olderNodeNotice(version: string): string | undefined {
  const major = Number(version.replace(/^v/, "").split(".")[0]);
  if (!Number.isInteger(major) || major >= TESTED_NODE_MAJOR) return undefined;
  return (
    `This server runs on Node ${version.replace(/^v/, "")}, older than the Node ${TESTED_NODE_MAJOR} the store is ` +
    `tested on: start it with npm start, which uses the Node that npm ci installed, or install Node ${TESTED_NODE_MAJOR}`
  );
}
