// The layers of ARCHITECTURE.md ("Layers"), checked by `npm run lint:layers` (part of `npm run lint`):
//   packages (core <- api) <- server db, http, jobs, providers, audio, access, realtime <- app-context.ts
//   <- modules/<feature> <- demo, app.ts <- server.ts;   web lib <- components <- features/<feature> <- app.
// Arrows only point down. Tests are left out: they may reach anywhere.

const TEST = ["\\.(test|type-test|spec)\\.tsx?$", "^apps/web/src/test/", "^apps/server/test/"];
const SERVER = "^apps/server/src/";
const WEB = "^apps/web/src/";
/** The server's lowest layer: what every feature module may use, and that uses no feature module. */
const SERVER_BASE = [
  `${SERVER}(access|audio|db|http|jobs|providers|realtime)/`,
  `${SERVER}(api-error|config|logger|process-guard)\\.ts$`,
];
/** The app's context: the services app.ts builds from the base layer and hands every feature module. */
const SERVER_CONTEXT = `${SERVER}app-context\\.ts$`;
/** What composes the feature modules: the app, its entry point and the demo data it seeds. */
const SERVER_TOP = [`${SERVER}(app|server)\\.ts$`, `${SERVER}demo/`];
/** The web app's composition: the shell, the entry points, the registries that load features and the
 * overlay host that renders them. */
const WEB_TOP = [
  `${WEB}(app|public)/`,
  `${WEB}main\\.tsx$`,
  `${WEB}features/[^/]+\\.tsx?$`,
  `${WEB}overlays/(registry\\.ts|overlay-host\\.tsx|overlay-frame\\.tsx)$`,
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "A cycle of imports that exist at run time (static or dynamic import()). Move the shared piece " +
        "into a file both sides import. Type-only imports are erased and do not count.",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "no-circular-through-types",
      severity: "warn",
      comment:
        "A cycle closed only by a type-only import: harmless at run time, but usually a type that " +
        "belongs in a file of its own (and it could hide a run-time cycle the check above did not pick).",
      from: {},
      to: { circular: true, via: { dependencyTypes: ["type-only"] } },
    },
    {
      name: "server-modules-no-cycle",
      severity: "error",
      comment:
        "Feature modules form no cycle, not even through types: one of the two depends on the other " +
        "(or what both need moves to a module, or a layer, below them).",
      scope: "folder",
      from: { path: `${SERVER}modules/[^/]+$` },
      to: { path: `${SERVER}modules/[^/]+$`, circular: true, viaOnly: { path: `${SERVER}modules/[^/]+$` } },
    },

    // packages
    {
      name: "core-imports-nothing-of-ours",
      severity: "error",
      comment: "packages/core is pure: no other package, no app, no Node built-in (it runs in browsers).",
      from: { path: "^packages/core/" },
      to: { path: "^(packages/(?!core/)|apps/)" },
    },
    {
      name: "core-and-api-use-no-node-modules",
      severity: "error",
      comment: "packages/core and packages/api run in the browser too: no node: modules.",
      from: { path: "^packages/(core|api)/" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "api-imports-only-core",
      severity: "error",
      from: { path: "^packages/api/" },
      to: { path: "^(packages/(?!api/|core/)|apps/)" },
    },
    {
      name: "packages-through-their-entry-point",
      severity: "error",
      comment: "Use a package by its name (@switchboard/core), not a path into its files.",
      from: { path: "^((?:apps|packages)/[^/]+)/" },
      to: { path: "^packages/[^/]+/", pathNot: ["^$1/", "^packages/[^/]+/src/index\\.ts$"] },
    },

    // apps
    {
      name: "server-does-not-import-web",
      severity: "error",
      from: { path: "^apps/server/" },
      to: { path: "^apps/web/" },
    },
    {
      name: "web-does-not-import-server",
      severity: "error",
      from: { path: "^apps/web/" },
      to: { path: "^apps/server/" },
    },
    {
      name: "web-uses-no-node-modules",
      severity: "error",
      from: { path: WEB },
      to: { dependencyTypes: ["core"] },
    },

    // server layers
    {
      name: "server-base-below-modules",
      severity: "error",
      comment:
        "db, http, jobs, providers, audio, access and realtime sit below the app's context and the feature " +
        "modules: they import neither app-context.ts nor a module (take a narrow type of what is used, " +
        "declared down here, or move what both need down, e.g. into src/audio/).",
      from: { path: SERVER_BASE },
      to: { path: [SERVER_CONTEXT, `${SERVER}modules/`, ...SERVER_TOP] },
    },
    {
      name: "server-db-below-the-other-base-layers",
      severity: "error",
      comment:
        "db is the floor the rest of the base stands on (jobs run on it, access and providers read it): it " +
        "imports none of them. What runs after its migrations is called by whoever composes them (app.ts).",
      from: { path: `${SERVER}db/` },
      to: { path: `${SERVER}(access|http|jobs|providers|realtime)/` },
    },
    {
      name: "server-access-below-http",
      severity: "error",
      comment:
        "http resolves each call's access through access/: access imports nothing of http (the error it " +
        "refuses a call with is src/api-error.ts, below both).",
      from: { path: `${SERVER}access/` },
      to: { path: `${SERVER}http/` },
    },
    {
      name: "server-context-below-modules",
      severity: "error",
      comment:
        "app-context.ts names the base layer's services for the modules: it imports no module (a type it " +
        "needs from one is declared there, as VoiceWorkersView is).",
      from: { path: SERVER_CONTEXT },
      to: { path: [`${SERVER}modules/`, ...SERVER_TOP] },
    },
    {
      name: "server-modules-below-app",
      severity: "error",
      comment: "Feature modules are composed by app.ts; they never import it, server.ts or the demo seed.",
      from: { path: `${SERVER}modules/` },
      to: { path: SERVER_TOP },
    },
    {
      name: "server-only-server-ts-imports-app",
      severity: "error",
      comment:
        "Only the process entry points (server.ts, and voice-worker.ts for a voice worker) build the app.",
      from: { path: SERVER, pathNot: `${SERVER}(server|voice-worker)\\.ts$` },
      to: { path: `${SERVER}(app|server)\\.ts$` },
    },
    {
      name: "server-modules-through-their-entry-point",
      severity: "error",
      comment:
        "A module uses another only through its public entry point (modules/<feature>/index.ts), never " +
        "its repository or other files: add what it needs to that index.ts (tests may reach anywhere).",
      from: { path: `${SERVER}modules/([^/]+)/` },
      to: {
        path: `${SERVER}modules/[^/]+/`,
        pathNot: [`${SERVER}modules/$1/`, `${SERVER}modules/[^/]+/index\\.ts$`],
      },
    },

    // web layers
    {
      name: "web-lib-is-the-bottom",
      severity: "error",
      from: { path: `${WEB}lib/` },
      to: { path: `${WEB}(components|features|overlays|app|public)/` },
    },
    {
      name: "web-components-below-features",
      severity: "error",
      from: { path: `${WEB}components/` },
      to: { path: [`${WEB}features/`, ...WEB_TOP] },
    },
    {
      name: "web-features-below-app",
      severity: "error",
      comment:
        "A feature never imports the shell (app/), an entry point or a registry that loads features; " +
        "what features share lives in lib/, components/ or overlays/ (use-overlays, overlay-props).",
      from: { path: `${WEB}(features/[^/]+/|overlays/)`, pathNot: WEB_TOP },
      to: { path: WEB_TOP },
    },
    {
      name: "web-overlay-mechanism-below-features",
      severity: "error",
      comment: "overlays/ other than the registry is what features use to open overlays: it imports none.",
      from: { path: `${WEB}overlays/`, pathNot: WEB_TOP },
      to: { path: `${WEB}features/` },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: ["(^|/)(node_modules|dist)/", ...TEST] },
    moduleSystems: ["es6"],
    // Type-only imports are part of the layers (a type from above is an arrow up) but are marked, so the
    // cycle rule can leave them out.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "default"],
      extensions: [".ts", ".tsx", ".js", ".mjs"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
