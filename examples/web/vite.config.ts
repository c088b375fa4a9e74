import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// The browser app is built once into dist/ and served by examples/server (no dev server, nothing
// fetched at run time). esbuild compiles the JSX; no plugin is needed for a production build.
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  build: {
    outDir: "dist",
    emptyOutDir: true,
    chunkSizeWarningLimit: 1000,
    rollupOptions: {
      // swr (under @ai-sdk/react) marks its modules "use client", which only matters to server components.
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
    },
  },
  oxc: { jsx: { runtime: "automatic" } },
  logLevel: "warn",
});
