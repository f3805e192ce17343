// The ceiling of a Node process for the benchmark: a bare node:http server sending the bytes and headers the store
// sent for each page, gzip as asked for, nothing else done. Started by scripts/bench-web.ts with the port and a
// JSON file of { path: { headers, gzip (base64) } }; prints "ready" once it listens.
import { readFileSync } from "node:fs";
import http from "node:http";

const [port, file] = process.argv.slice(2);
const pages = new Map(
  Object.entries(JSON.parse(readFileSync(file, "utf8"))).map(([path, page]) => [
    path,
    { headers: page.headers, body: Buffer.from(page.gzip, "base64") },
  ]),
);
http
  .createServer((req, res) => {
    const page = pages.get(req.url ?? "");
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, page.headers);
    res.end(page.body);
  })
  .listen(Number(port), "127.0.0.1", () => console.log("ready"));
