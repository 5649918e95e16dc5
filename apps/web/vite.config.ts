import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { clientRouteSchemas } from "./build/client-route-schemas.ts";
import { signedInChunks } from "./build/signed-in-chunks.ts";
import packageJson from "./package.json" with { type: "json" };

/** The server (apps/server) listens here in development; Vite forwards everything that is not the SPA. */
const SERVER_ORIGIN = "http://127.0.0.1:3000";

export default defineConfig(async ({ command }) => ({
  plugins: [react(), clientRouteSchemas()],
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
      output: {
        codeSplitting: {
          groups: command === "build" ? await signedInChunks() : undefined,
          // Each group holds only what it names: a shared module the first load uses stays in it.
          includeDependenciesRecursively: false,
        },
      },
    },
  },
}));
