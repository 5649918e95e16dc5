import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import packageJson from "./package.json" with { type: "json" };

/** The server (apps/server) listens here in development; Vite forwards everything that is not the SPA. */
const SERVER_ORIGIN = "http://127.0.0.1:3000";

export default defineConfig({
  plugins: [react()],
  define: {
    __APP_VERSION__: JSON.stringify(packageJson.version),
    __BUILD_TIME__: JSON.stringify(new Date().toISOString()),
  },
  server: {
    host: "127.0.0.1",
    proxy: {
      "/api": { target: SERVER_ORIGIN, changeOrigin: false },
      "/healthz": { target: SERVER_ORIGIN, changeOrigin: false },
      "/readyz": { target: SERVER_ORIGIN, changeOrigin: false },
      "/ws": { target: SERVER_ORIGIN, changeOrigin: false, ws: true },
    },
  },
  preview: { host: "127.0.0.1" },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: {
      treeshake: {
        // packages/core and packages/api are pure modules (no I/O, no globals touched on import) but carry no
        // `sideEffects: false` in their package.json: without this, top-level tables of core (time zones) and
        // every zod schema of api would land in the /app shell's initial chunk whether used or not.
        moduleSideEffects: [{ test: /[\\/]packages[\\/](core|api)[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
});
