// Starts the real duelhall binary on a free loopback port (port 0, read back from its log) with
// a fresh data folder, serving the built client.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function startServer(binary, webRoot, extraArgs = []) {
  const data = mkdtempSync(join(tmpdir(), "duelhall-web-data-"));
  const proc = spawn(binary, ["--bind", "127.0.0.1", "--port", "0", "--web-root", webRoot,
    "--data", data, "--threads", "2", "--grace", "60",
    "--provisional-rd", "350", ...extraArgs], { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${log}`)), 15_000);
    const onData = (chunk) => {
      log += chunk;
      const m = /listening on [^ ]*:(\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    proc.stdout.on("data", onData);
    proc.stderr.on("data", onData);
    proc.on("exit", (code) => reject(new Error(`the server exited with ${code}:\n${log}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    data, // the data folder, for commands that work on it (duelhall admin grant)
    log: () => log,
    stop: async () => {
      proc.kill("SIGTERM");
      await new Promise((r) => (proc.exitCode !== null ? r() : proc.on("exit", r)));
      rmSync(data, { recursive: true, force: true });
    },
  };
}
