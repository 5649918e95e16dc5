import { defineConfig } from "vite";

/**
 * The small scripts served beside the app, each one plain-DOM file without React: `--mode widget` builds
 * `dist/widget.js` (the website widget), `--mode page` builds `dist/public-page.js` (the public page's
 * chat), `--mode call` builds `dist/public-call.js` (its "Talk" call, loaded on the first click). Run after
 * the app's build (which empties dist).
 */
const ENTRIES = {
  widget: { entry: "src/public/widget.ts", name: "SwitchboardWidgetBundle", file: "widget.js" },
  page: { entry: "src/public/public-page.ts", name: "SwitchboardPublicPage", file: "public-page.js" },
  call: { entry: "src/public/public-call.ts", name: "SwitchboardPublicCallBundle", file: "public-call.js" },
} as const;

export default defineConfig(({ mode }) => {
  const bundle = ENTRIES[mode as keyof typeof ENTRIES] ?? ENTRIES.page;
  return {
    publicDir: false,
    build: {
      outDir: "dist",
      emptyOutDir: false,
      copyPublicDir: false,
      sourcemap: false,
      lib: {
        entry: bundle.entry,
        formats: ["iife"],
        name: bundle.name,
        fileName: () => bundle.file,
      },
    },
  };
});
