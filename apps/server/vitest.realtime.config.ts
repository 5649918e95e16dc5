import { serverProject } from "./vitest.config.ts";

// The server's real-time tests: see serverProject in vitest.config.ts.
export default serverProject(true);
