import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The server's import graph, read from the sources (tests left out): no file may import itself through
// others, and no feature module (src/modules/<feature>/) may reach back to a module that imports it.
const src = path.resolve(import.meta.dirname, "../src");
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"(\.{1,2}\/[^"]+)"/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.(test|type-test)\.ts$/.test(entry.name) ? [full] : [];
  });
}

function importGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(src)) {
    const targets = new Set<string>();
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT))
      targets.add(path.resolve(path.dirname(file), match[1] as string));
    graph.set(file, targets);
  }
  return graph;
}

/** The feature a file belongs to (`modules/inbox`), or null outside src/modules. */
function featureOf(file: string): string | null {
  const parts = path.relative(src, file).split(path.sep);
  return parts[0] === "modules" && parts.length > 2 ? `modules/${parts[1]}` : null;
}

/** Every cycle's members, as strongly connected components of more than one node (Tarjan). */
export function cyclesOf(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next))
        low.set(node, Math.min(low.get(node) as number, indices.get(next) as number));
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.has(node)) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return cycles;
}

describe("server imports", () => {
  const files = importGraph();

  it("finds the cycles it looks for", () => {
    const graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
      ["d", new Set(["a"])],
    ]);
    expect(cyclesOf(graph)).toEqual([["a", "b", "c"]]);
  });

  it("have no cycle between files", () => {
    const relative = (file: string) => path.relative(src, file);
    expect(cyclesOf(files).map((cycle) => cycle.map(relative))).toEqual([]);
  });

  it("have no cycle between feature modules", () => {
    const modules = new Map<string, Set<string>>();
    for (const [file, targets] of files) {
      const from = featureOf(file);
      if (!from) continue;
      const edges = modules.get(from) ?? new Set<string>();
      modules.set(from, edges);
      for (const target of targets) {
        const to = featureOf(target);
        if (to && to !== from) edges.add(to);
      }
    }
    expect(modules.size).toBeGreaterThan(5);
    expect(cyclesOf(modules)).toEqual([]);
  });
});
