// Generates the TypeScript message types from ../../proto/*.proto with Debian's protoc and
// protoc-gen-es, so the client never carries a hand-written copy of a message format. Every
// ruleset's proto file present in the tree is compiled; the client finds the views by name.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..");
const protoDir = resolve(root, "../../proto");
const outDir = join(root, "src/gen");
const plugin = join(root, "node_modules/.bin/protoc-gen-es");

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const files = readdirSync(protoDir).filter((f) => f.endsWith(".proto")).sort();
execFileSync(
  "protoc",
  [`--plugin=protoc-gen-es=${plugin}`, `--es_out=${outDir}`, "--es_opt=target=ts",
   `-I${protoDir}`, ...files.map((f) => join(protoDir, f))],
  { stdio: "inherit" },
);
console.log(`generated ${files.length} proto files into src/gen`);
