import { defineConfig } from "vite";

// Relative asset paths, so the server can serve dist/ at / (or below a prefix).
export default defineConfig({
  base: "./",
  build: { outDir: "dist", emptyOutDir: true, target: "es2022" },
  test: { include: ["test/**/*.test.ts"], environment: "node" },
} as never);
