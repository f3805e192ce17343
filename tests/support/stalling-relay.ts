import { once } from "node:events";
import type { AddressInfo } from "node:net";
import net from "node:net";

/**
 * A TCP relay in front of a server that a test can make go silent: from stall() on, each connection passes at most
 * `afterBytes` more of the server's answer on to the client, then nothing, and stays open for the client even if the
 * server closes its side. What the client sends still reaches the server. resume() passes answers again.
 */
export async function startStallingRelay(target: { host: string; port: number }) {
  type Connection = { client: net.Socket; upstream: net.Socket; allowance: number };
  const connections = new Set<Connection>();
  let allowance = Infinity;

  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    const connection: Connection = { client, upstream, allowance };
    connections.add(connection);
    const cut = () => {
      client.destroy();
      upstream.destroy();
      connections.delete(connection);
    };
    client.on("error", cut).on("close", cut);
    // A stalled connection stays open for the client even when the server closes its side.
    upstream
      .on("error", () => undefined)
      .on("close", () => {
        if (connection.allowance === Infinity) cut();
      });
    client.pipe(upstream);
    upstream.on("data", (chunk: Buffer) => {
      const passed = chunk.subarray(0, Math.min(chunk.length, connection.allowance));
      connection.allowance -= passed.length;
      if (passed.length > 0) client.write(passed);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    stall({ afterBytes = 0 }: { afterBytes?: number } = {}) {
      allowance = afterBytes;
      for (const connection of connections) connection.allowance = afterBytes;
    },
    resume() {
      allowance = Infinity;
      for (const connection of connections) connection.allowance = Infinity;
    },
    async close() {
      for (const connection of connections) {
        connection.client.destroy();
        connection.upstream.destroy();
      }
      connections.clear();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
