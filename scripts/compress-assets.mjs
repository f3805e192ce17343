// Writes a brotli (.br) and a gzip (.gz) copy beside each script, stylesheet and image of text in build/client/assets,
// compressed as hard as each format goes: the store sends them as they are (server/app.ts), so a visitor's first
// load costs the server no compressing and comes in the fewest bytes (docs/decisions/0049).
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const ASSETS = "build/client/assets";
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|xml|map)$/;
// Below this a compressed copy saves less than its headers cost; the store sends such a file as it is.
const MIN_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const names = (await readdir(ASSETS)).filter((name) => COMPRESSIBLE.test(name));
let before = 0;
let afterBrotli = 0;
let written = 0;
// zlib's work runs on libuv's thread pool: all files at once keep every core busy.
await Promise.all(
  names.map(async (name) => {
    const file = path.join(ASSETS, name);
    const body = await readFile(file);
    if (body.length < MIN_BYTES) return;
    const [br, gz] = await Promise.all([
      brotli(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
      gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
    ]);
    await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    before += body.length;
    afterBrotli += br.length;
    written += 1;
  }),
);
console.log(
  `compressed ${written} assets: ${(before / 1024).toFixed(0)} KB, ${(afterBrotli / 1024).toFixed(0)} KB in brotli`,
);
