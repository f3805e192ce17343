import { once } from "node:events";
import type { AddressInfo } from "node:net";
import net from "node:net";

/**
 * A TCP relay in front of a server (PostgreSQL), which a test can block or silence. While blocked, every open
 * connection through it is cut and every new one is closed as soon as it arrives (and counted, as an attempt).
 * While silenced (what a dropped NAT or firewall entry does), nothing flows through open connections in either
 * direction but they stay open, and new ones connect but get no answer; resume() delivers what was held back.
 * It can also make the connections that LISTEN lag: what the server sends on them (notifications, answers) reaches
 * the client that many milliseconds later, in order, as when the client's CPU has other work first.
 */
export async function startTcpRelay(target: { host: string; port: number }) {
  const open = new Set<net.Socket>();
  let blocked = false;
  let silenced = false;
  let attempts = 0;
  let attemptsWhileBlocked = 0;
  /** What each socket was sent while silenced, in order: delivered on resume(). */
  const held = new Map<net.Socket, Buffer[]>();
  let listenerLagMs = 0;
  /** Passes `from`'s bytes on to `to`, each chunk `lag()` ms later but never before the one before it. */
  const forward = (from: net.Socket, to: net.Socket, lag: () => number = () => 0) => {
    let previous = 0;
    from.on("data", (chunk: Buffer) => {
      if (silenced) {
        const queue = held.get(to) ?? [];
        queue.push(chunk);
        held.set(to, queue);
        return;
      }
      const at = Math.max(Date.now() + lag(), previous);
      previous = at;
      if (at > Date.now()) {
        setTimeout(() => to.destroyed || to.write(chunk), at - Date.now());
      } else if (!to.write(chunk)) {
        from.pause();
        to.once("drain", () => from.resume());
      }
    });
  };
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
      held.delete(client);
      held.delete(upstream);
    };
    client.on("error", cut).on("close", cut);
    upstream.on("error", cut).on("close", cut);
    let listens = false;
    client.on("data", (chunk: Buffer) => {
      listens ||= /\blisten /i.test(chunk.toString("latin1"));
    });
    forward(client, upstream);
    forward(upstream, client, () => (listens ? listenerLagMs : 0));
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
      silenced = false;
      held.clear();
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
    /** Holds back every byte, both ways, on open connections and new ones, keeping them open. */
    silence() {
      silenced = true;
    },
    /** Delivers what was held back and lets bytes flow again. */
    resume() {
      silenced = false;
      for (const [socket, chunks] of held) for (const chunk of chunks) socket.write(chunk);
      held.clear();
    },
    attempts: () => attempts,
    attemptsWhileBlocked: () => attemptsWhileBlocked,
    async close() {
      this.block();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
