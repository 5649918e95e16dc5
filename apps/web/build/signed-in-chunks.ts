import path from "node:path";
import type { CodeSplittingGroup, OutputChunk, RolldownOutput } from "rolldown";
import { build } from "vite";

const SRC = path.resolve(import.meta.dirname, "../src");
/** Loaded on every signed-in visit, beside the page's own chunk. */
const SIGNED_IN_ROOTS = [path.join(SRC, "app/signed-in-shell.tsx"), path.join(SRC, "app/app-page.tsx")];
/** The product areas' pages (features/feature-pages.ts): what a signed-in visit opens first. */
const PAGE = /[\\/]src[\\/]features[\\/][\w-]+[\\/][\w-]+-page\.tsx$/;
/** Set in the first pass, which builds with the bundler's own chunks. */
const FIRST_PASS = "SWITCHBOARD_WEB_FIRST_PASS";

/**
 * The modules a signed-in visit loads beyond the first load (the shell's and the page frame's chunks and
 * what they import), and those two or more pages load beyond both, from a build with the bundler's own
 * chunks. The module graph alone cannot tell: a library's index imports every component,
 * and tree-shaking keeps only the ones a chunk uses.
 */
async function loadedModules(): Promise<{ signedIn: Set<string>; pages: Set<string> }> {
  process.env[FIRST_PASS] = "1";
  try {
    const result = (await build({
      root: path.resolve(import.meta.dirname, ".."),
      logLevel: "silent",
      build: { write: false, sourcemap: false, minify: false },
    })) as RolldownOutput | RolldownOutput[];
    const chunks = new Map<string, OutputChunk>();
    for (const output of [result].flat())
      for (const item of output.output) if (item.type === "chunk") chunks.set(item.fileName, item);
    const loadedWith = (roots: OutputChunk[]) => {
      const modules = new Set<string>();
      const stack = roots.map((chunk) => chunk.fileName);
      const seen = new Set<string>();
      while (stack.length) {
        const chunk = chunks.get(stack.pop() as string);
        if (!chunk || seen.has(chunk.fileName)) continue;
        seen.add(chunk.fileName);
        for (const id of chunk.moduleIds) modules.add(id);
        stack.push(...chunk.imports);
      }
      return modules;
    };
    const all = [...chunks.values()];
    const firstLoad = loadedWith(all.filter((chunk) => chunk.isEntry));
    const signedIn = loadedWith(
      all.filter((chunk) => chunk.facadeModuleId && SIGNED_IN_ROOTS.includes(chunk.facadeModuleId)),
    );
    for (const id of firstLoad) signedIn.delete(id);
    const pageCount = new Map<string, number>();
    for (const page of all.filter((chunk) => chunk.facadeModuleId && PAGE.test(chunk.facadeModuleId)))
      for (const id of loadedWith([page]))
        if (!firstLoad.has(id) && !signedIn.has(id)) pageCount.set(id, (pageCount.get(id) ?? 0) + 1);
    const pages = new Set([...pageCount].filter(([, count]) => count >= 2).map(([id]) => id));
    return { signedIn, pages };
  } finally {
    delete process.env[FIRST_PASS];
  }
}

/**
 * Code-splitting groups for the signed-in app (issue #23). Left to itself the bundler makes a chunk for
 * every set of pages that shares a module: a signed-in page then loads about 60 small files, six at a
 * time over HTTP/1.1, each a round trip on a phone network. These groups leave the first load (the
 * sign-in page) as the bundler makes it and gather the rest into two chunks: what every signed-in visit
 * loads (the shell and the page frame), and the code two or more pages share.
 * Undefined in the first pass.
 */
export async function signedInChunks(): Promise<CodeSplittingGroup[] | undefined> {
  if (process.env[FIRST_PASS]) return undefined;
  const { signedIn, pages } = await loadedModules();
  if (signedIn.size === 0)
    throw new Error("signed-in-chunks: the shell's chunk was not found in the first pass");
  return [
    { name: "signed-in", test: (id) => signedIn.has(id), priority: 2 },
    { name: "pages", test: (id) => pages.has(id), priority: 1 },
  ];
}
