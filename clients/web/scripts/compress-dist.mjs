// Writes gzip (.gz) and Brotli (.br) copies of the built client's text files beside them, at
// the highest levels, once at build time: the server sends the copy a browser accepts
// (server/net/static_files.cpp) instead of compressing on every request. A copy that does not
// save at least a tenth of the file is not kept (small files, images already compressed).
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { extname, join } from "node:path";

const compressible = new Set([".html", ".js", ".mjs", ".css", ".json", ".svg", ".txt", ".ico", ".wasm"]);
const minimumBytes = 512;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

const root = process.argv[2] ?? "dist";
let before = 0;
let afterBrotli = 0;
for (const path of [...files(root)]) {
  if (path.endsWith(".gz") || path.endsWith(".br")) {
    rmSync(path); // a copy left from an earlier build of a file that may be gone
    continue;
  }
  if (!compressible.has(extname(path))) continue;
  const bytes = readFileSync(path);
  if (bytes.length < minimumBytes) continue;
  const copies = {
    ".gz": gzipSync(bytes, { level: 9 }),
    ".br": brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  };
  for (const [suffix, copy] of Object.entries(copies)) {
    if (copy.length <= bytes.length * 0.9) writeFileSync(path + suffix, copy);
  }
  before += bytes.length;
  afterBrotli += Math.min(bytes.length, copies[".br"].length);
}
console.log(`compressed copies: ${before} bytes of text files, ${afterBrotli} as Brotli`);
