// The Node flags the server process runs with, whoever starts it: npm start, the test stores, the benchmark and the
// chaos script (docs/decisions/0041-server-node-flags.md).
export const nodeFlags = ["--enable-source-maps", "--max-semi-space-size=16"];
