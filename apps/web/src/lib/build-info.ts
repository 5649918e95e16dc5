/** Version and build time of the web app, baked in by vite.config.ts. */
export const APP_VERSION: string = __APP_VERSION__;
export const BUILD_TIME: string = __BUILD_TIME__;
