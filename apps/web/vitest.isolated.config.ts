import { webProject } from "./vitest.config.ts";

// The web app's tests that mock a module: see webProject in vitest.config.ts.
export default webProject(true);
