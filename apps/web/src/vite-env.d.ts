/// <reference types="vite/client" />

/** Version of apps/web/package.json, set by vite.config.ts. */
declare const __APP_VERSION__: string;
/** ISO time of the build (or of the dev-server start), set by vite.config.ts. */
declare const __BUILD_TIME__: string;
