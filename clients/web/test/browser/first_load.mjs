// The web client's first load over HTTP against the real server (no browser needed): every file
// the build wrote is fetched as a browser that accepts Brotli and gzip would, and as one that
// accepts neither. Each answer must decode to the built file's bytes, name its coding and Vary,
// and carry the caching its name allows. Prints the bytes of a first visit (index.html and what
// it loads) sent plain, as gzip and as Brotli.
// Usage: node first_load.mjs <duelhall binary> <dist folder>
import http from "node:http";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { startServer } from "./server.mjs";

const [binary, dist] = process.argv.slice(2);
const failures = [];
const check = (ok, what) => { if (!ok) failures.push(what); };

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (!path.endsWith(".gz") && !path.endsWith(".br")) yield path;
  }
}

// node:http, not fetch(): fetch decodes the body and would hide the coding sent.
function get(url, acceptEncoding) {
  return new Promise((resolve, reject) => {
    http.get(url, { headers: { "accept-encoding": acceptEncoding } }, (response) => {
      const chunks = [];
      response.on("data", (c) => chunks.push(c));
      response.on("end", () => resolve({ response, body: Buffer.concat(chunks) }));
      response.on("error", reject);
    }).on("error", reject);
  });
}

const decoders = { br: brotliDecompressSync, gzip: gunzipSync, "": (b) => b };
const server = await startServer(binary, dist);
const sent = { plain: 0, gzip: 0, br: 0 };
try {
  const index = readFileSync(join(dist, "index.html"), "utf8");
  const firstVisit = new Set(["index.html",
    ...[...index.matchAll(/(?:src|href)="\.?\/?([^"]+)"/g)].map((m) => m[1])]);
  for (const path of files(dist)) {
    const name = relative(dist, path);
    const url = server.url + name;
    const built = readFileSync(path);
    const hasCopies = statSync(path + ".br", { throwIfNoEntry: false }) !== undefined;
    for (const [accept, label] of [["br, gzip", "br"], ["gzip", "gzip"], ["identity", "plain"]]) {
      const { response, body } = await get(url, accept);
      check(response.statusCode === 200, `${name} (${accept}): status ${response.statusCode}`);
      const coding = response.headers["content-encoding"] ?? "";
      check(decoders[coding] !== undefined, `${name} (${accept}): unknown coding ${coding}`);
      const decoded = decoders[coding]?.(body) ?? body;
      check(Buffer.compare(decoded, built) === 0, `${name} (${accept}, ${coding}): bytes differ`);
      if (hasCopies) {
        check(coding === (label === "plain" ? "" : label), `${name} (${accept}): coding '${coding}'`);
        check(response.headers.vary === "Accept-Encoding", `${name}: no Vary`);
      }
      const cache = response.headers["cache-control"];
      const wanted = name.startsWith("assets/") ? "public, max-age=31536000, immutable" : "no-cache";
      check(cache === wanted, `${name}: Cache-Control '${cache}'`);
      if (firstVisit.has(name)) sent[label] += body.length;
    }
  }
  check(sent.br < sent.plain, "Brotli saved nothing on the first visit");
} finally {
  await server.stop();
}
const kib = (n) => (n / 1024).toFixed(1);
console.log(`first visit (index.html and what it loads): ${kib(sent.plain)} KiB plain, ` +
  `${kib(sent.gzip)} KiB gzip, ${kib(sent.br)} KiB Brotli ` +
  `(${kib(sent.plain - sent.br)} KiB saved, ${(sent.br / sent.plain).toFixed(2)}x)`);
if (failures.length > 0) {
  console.error(failures.join("\n"));
  process.exit(1);
}
