import { once } from "node:events";
import type { AddressInfo } from "node:net";
import net from "node:net";

/**
 * A TCP relay in front of a server (PostgreSQL), which a test can block: while blocked, every open connection
 * through it is cut and every new one is closed as soon as it arrives (and counted, as an attempt). It can also
 * make the connections that LISTEN lag: what the server sends on them (notifications, answers) reaches the client
 * that many milliseconds later, in order, as when the client's CPU has other work first.
 */
export async function startTcpRelay(target: { host: string; port: number }) {
  const open = new Set<net.Socket>();
  let blocked = false;
  let attempts = 0;
  let attemptsWhileBlocked = 0;
  let listenerLagMs = 0;
  const server = net.createServer((client) => {
    attempts++;
    if (blocked) {
      attemptsWhileBlocked++;
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    const cut = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", cut).on("close", cut);
    upstream.on("error", cut).on("close", cut);
    client.pipe(upstream);
    let listens = false;
    client.on("data", (chunk: Buffer) => {
      listens ||= /\blisten /i.test(chunk.toString("latin1"));
    });
    // Each chunk leaves no earlier than the one before it, whatever the lag was when that one came.
    let previous = 0;
    upstream.on("data", (chunk: Buffer) => {
      const at = Math.max(Date.now() + (listens ? listenerLagMs : 0), previous);
      previous = at;
      if (at <= Date.now()) client.write(chunk);
      else setTimeout(() => client.destroyed || client.write(chunk), at - Date.now());
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    /** `url` with its host and port replaced by the relay's. */
    through(url: string) {
      const relayed = new URL(url);
      relayed.hostname = "127.0.0.1";
      relayed.port = String(port);
      return relayed.toString();
    },
    block() {
      blocked = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    unblock() {
      blocked = false;
    },
    /** What the server sends on connections that LISTEN reaches the client `ms` later from now on (0: at once). */
    lagListeners(ms: number) {
      listenerLagMs = ms;
    },
    attempts: () => attempts,
    attemptsWhileBlocked: () => attemptsWhileBlocked,
    async close() {
      this.block();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
