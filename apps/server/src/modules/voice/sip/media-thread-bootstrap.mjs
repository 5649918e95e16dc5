// The media thread's entry point: Node 20 resolves a worker's entry before any --import hook of its own,
// so the thread registers tsx (the server runs TypeScript through it, tests through vitest) and then loads
// its TypeScript module.
import { register } from "tsx/esm/api";

register();
await import("./media-thread.ts");
