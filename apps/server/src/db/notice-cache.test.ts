import { describe, expect, it } from "vitest";
import { createNoticeCache } from "./notice-cache.ts";

/** A read the test finishes when it wants, counting how often the database would have been asked. */
function reader(text: string) {
  let reads = 0;
  let finish: (() => void) | null = null;
  return {
    read: () => {
      reads++;
      return Promise.resolve(text);
    },
    held: () => {
      reads++;
      return new Promise<string>((resolve) => {
        finish = () => resolve(text);
      });
    },
    finish: () => finish?.(),
    get reads() {
      return reads;
    },
  };
}

function listeningCache(options: Parameters<typeof createNoticeCache<string>>[0] = {}) {
  const cache = createNoticeCache<string>(options);
  cache.setListening(true);
  return cache;
}

describe("a cache kept by database notices", () => {
  it("answers a value again without reading it until its group changes", async () => {
    const cache = listeningCache();
    const page = reader('{"rooms":[]}');
    expect(await cache.get(1, "p1", page.read)).toBe('{"rooms":[]}');
    expect(await cache.get(1, "p1", page.read)).toBe('{"rooms":[]}');
    expect(page.reads).toBe(1);

    cache.changed(2); // another group
    await cache.get(1, "p1", page.read);
    expect(page.reads).toBe(1);

    cache.changed(1);
    await cache.get(1, "p1", page.read);
    expect(page.reads).toBe(2);
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 2 });
  });

  it("does not keep a value read while its group changed", async () => {
    const cache = listeningCache();
    const page = reader("old");
    const answer = cache.get(1, "p1", page.held);
    cache.changed(1); // a message arrived while the page was being read
    page.finish();
    expect(await answer).toBe("old");
    await cache.get(1, "p1", page.read);
    expect(page.reads).toBe(2);
  });

  it("keeps nothing while change notices are not heard, and drops everything when they stop", async () => {
    const cache = createNoticeCache<string>();
    const page = reader("x");
    await cache.get(1, "p1", page.read);
    await cache.get(1, "p1", page.read);
    expect(page.reads).toBe(2);

    cache.setListening(true);
    await cache.get(1, "p1", page.read);
    await cache.get(1, "p1", page.read);
    expect(page.reads).toBe(3);

    cache.setListening(false);
    await cache.get(1, "p1", page.read);
    expect(page.reads).toBe(4);
    expect(cache.stats().entries).toBe(0);
  });

  it("does not keep a value whose read began before a gap in hearing", async () => {
    const cache = listeningCache();
    const page = reader("x");
    const answer = cache.get(1, "p1", page.held);
    cache.setListening(false);
    cache.setListening(true);
    page.finish();
    await answer;
    await cache.get(1, "p1", page.read);
    expect(page.reads).toBe(2);
  });

  it("shares one read among concurrent requests of the same key", async () => {
    const cache = listeningCache();
    const page = reader("x");
    const answers = [cache.get(1, "p1", page.held), cache.get(1, "p1", page.held)];
    page.finish();
    expect(await Promise.all(answers)).toEqual(["x", "x"]);
    expect(page.reads).toBe(1);
  });

  it("drops the least recently used value beyond its size, and any value past its age", async () => {
    let clock = 1000;
    const cache = listeningCache({ maxEntries: 2, maxAgeMs: 1000, now: () => clock });
    const page = reader("x");
    await cache.get(1, "a", page.read);
    await cache.get(1, "b", page.read);
    await cache.get(1, "a", page.read); // a is now the most recent
    await cache.get(1, "c", page.read); // b goes
    expect(page.reads).toBe(3);
    await cache.get(1, "a", page.read);
    expect(page.reads).toBe(3);
    await cache.get(1, "b", page.read);
    expect(page.reads).toBe(4);

    clock = 2500;
    await cache.get(1, "a", page.read);
    expect(page.reads).toBe(5);
  });

  it("drops everything when everything changed, and keeps only what `keep` accepts", async () => {
    const cache = listeningCache({ keep: (value) => value !== "nobody" });
    const page = reader("x");
    await cache.get(1, "a", page.read);
    await cache.get(2, "b", page.read);
    cache.changedAll();
    await cache.get(1, "a", page.read);
    await cache.get(2, "b", page.read);
    expect(page.reads).toBe(4);

    const unknown = reader("nobody");
    await cache.get(1, "c", unknown.read);
    await cache.get(1, "c", unknown.read);
    expect(unknown.reads).toBe(2);
  });

  it("does not keep a failed read", async () => {
    const cache = listeningCache();
    await expect(cache.get(1, "p1", () => Promise.reject(new Error("database down")))).rejects.toThrow(
      "database down",
    );
    const page = reader("x");
    expect(await cache.get(1, "p1", page.read)).toBe("x");
    expect(page.reads).toBe(1);
  });
});
