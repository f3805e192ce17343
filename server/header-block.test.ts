import net from "node:net";
import { describe, expect, it } from "vitest";
import { serverFor } from "../tests/support/http-server";
import { headerBlock, headerBlocksWork, sendWithHeaderBlock } from "./header-block";

/** Sends `requests` on one connection and resolves to every byte that came back once the server closed it. */
function exchange(port: number, requests: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
    socket.write(requests);
  });
}

/** The answers in `raw`, each as its status line, its header lines (Date's value left out) and its body. */
function answers(raw: string) {
  const found: Array<{ status: string; lines: string[]; body: string }> = [];
  let rest = raw;
  while (rest.length > 0) {
    const headEnd = rest.indexOf("\r\n\r\n");
    const [status, ...lines] = rest.slice(0, headEnd).split("\r\n");
    const length = Number(lines.find((line) => /^content-length:/i.test(line))?.split(": ")[1] ?? 0);
    const hasBody = !lines.includes("x-head: 1") && !status!.includes(" 304 ");
    const body = hasBody ? rest.slice(headEnd + 4, headEnd + 4 + length) : "";
    found.push({
      status: status!,
      lines: lines.map((line) => (line.startsWith("Date: ") ? "Date: (now)" : line)).sort(),
      body,
    });
    rest = rest.slice(headEnd + 4 + body.length);
  }
  return found;
}

const page = Buffer.from("<!doctype html><p>kept</p>");
const headers = {
  "content-security-policy": "script-src 'self' 'sha256-abc='; object-src 'none'",
  "cache-control": "public, max-age=0, s-maxage=60",
  "content-type": "text/html; charset=utf-8",
  etag: 'W/"abc"',
  vary: "Accept-Encoding, Cookie",
  "content-encoding": "gzip",
  "content-length": String(page.length),
  "x-cache": "hit",
};
const block = headerBlock(headers);
const notModifiedBlock = headerBlock({ etag: 'W/"abc"', vary: "Accept-Encoding, Cookie", "x-cache": "hit" });

describe("a kept page's headers written once", () => {
  it("works on this Node, whose responses keep their header block as text until the body goes out", () => {
    expect(headerBlocksWork).toBe(true);
  });

  // /node sends the same page Node's own way, to compare with.
  const { port } = serverFor(
    (req, res) => {
      const head = req.method === "HEAD" ? { "x-head": "1" } : {};
      if (req.url === "/node") {
        res.writeHead(200, { ...headers, ...head }).end(page);
      } else if (req.url === "/not-modified") {
        if (!sendWithHeaderBlock(res, 304, notModifiedBlock, undefined)) res.writeHead(500).end();
      } else if (req.url === "/closing") {
        res.setHeader("Connection", "close");
        const sent = sendWithHeaderBlock(res, 200, block, page);
        res.end(`sent with the block: ${sent}`);
      } else {
        const sent = sendWithHeaderBlock(
          res,
          200,
          req.method === "HEAD" ? headerBlock({ ...headers, ...head }) : block,
          page,
        );
        if (!sent) res.writeHead(500).end();
      }
    },
    { HEADERS_TIMEOUT_SECONDS: 5, REQUEST_TIMEOUT_SECONDS: 5, KEEP_ALIVE_TIMEOUT_SECONDS: 5 },
  );
  const get = (path: string, extra = "") => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}\r\n`;

  it("sends the headers, Date, the connection's headers and the body as Node does, and keeps the connection", async () => {
    const raw = await exchange(port(), get("/kept") + get("/kept") + get("/node", "Connection: close\r\n"));
    const [first, second, node] = answers(raw);
    expect(first!.status).toBe("HTTP/1.1 200 OK");
    expect(first!.lines).toContain("Connection: keep-alive");
    expect(first!.lines).toContain("Keep-Alive: timeout=5");
    expect(first!.lines).toContain("Date: (now)");
    expect(first!.body).toBe(page.toString("latin1"));
    expect(second).toEqual(first);
    // The same lines as Node's own way, but for the connection's end that the last request asked for.
    expect(
      first!.lines.filter((line) => !line.startsWith("Connection") && !line.startsWith("Keep-Alive")),
    ).toEqual(node!.lines.filter((line) => !line.startsWith("Connection") && !line.startsWith("Keep-Alive")));
  });

  it("sends a HEAD its headers without the body, and the next answer right after", async () => {
    const raw = await exchange(
      port(),
      `HEAD /kept HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n${get("/kept", "Connection: close\r\n")}`,
    );
    const [head, next] = answers(raw);
    expect(head!.lines).toContain(`content-length: ${page.length}`);
    expect(head!.body).toBe("");
    expect(next!.status).toBe("HTTP/1.1 200 OK");
    expect(next!.body).toBe(page.toString("latin1"));
  });

  it("closes an HTTP/1.0 client's connection after the answer, as Node does", async () => {
    const raw = await exchange(port(), "GET /kept HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
    const [only, ...more] = answers(raw);
    expect(only!.status).toBe("HTTP/1.1 200 OK");
    expect(only!.lines).toContain("Connection: close");
    expect(only!.body).toBe(page.toString("latin1"));
    expect(more).toEqual([]);
  });

  it("sends a 304 with its headers and no body", async () => {
    const raw = await exchange(port(), get("/not-modified", "Connection: close\r\n"));
    const [only] = answers(raw);
    expect(only!.status).toBe("HTTP/1.1 304 Not Modified");
    expect(only!.lines).toEqual(
      expect.arrayContaining(['etag: W/"abc"', "x-cache: hit", "Connection: close"]),
    );
    expect(raw.endsWith("\r\n\r\n")).toBe(true);
  });

  it("sends nothing and says so when a header is already set, for the caller to answer Node's way", async () => {
    const raw = await exchange(port(), get("/closing"));
    const [only] = answers(raw);
    expect(only!.body).toBe("sent with the block: false");
  });
});

describe("headerBlock", () => {
  it("refuses a value Node would refuse, when the page is kept rather than at a hit", () => {
    expect(() => headerBlock({ "x-bad": "a\r\nSet-Cookie: x=1" })).toThrow(
      expect.objectContaining({ code: "ERR_INVALID_CHAR" }),
    );
    expect(() => headerBlock({ "bad name": "a" })).toThrow(
      expect.objectContaining({ code: "ERR_INVALID_HTTP_TOKEN" }),
    );
  });

  it("writes several values as several lines, and leaves to Node the headers it decides by", () => {
    expect(
      headerBlock({
        link: ["</a>; rel=preload", "</b>; rel=preload"],
        "content-length": "12",
        Connection: "close",
        "x-cache": "hit",
      }),
    ).toEqual({
      lines: "link: </a>; rel=preload\r\nlink: </b>; rel=preload\r\nx-cache: hit\r\n",
      forNode: { "content-length": "12", Connection: "close" },
    });
  });
});
