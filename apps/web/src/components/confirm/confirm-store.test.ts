import { afterEach, describe, expect, it, vi } from "vitest";
import {
  acceptConfirm,
  cancelConfirm,
  clearConfirm,
  confirm,
  getConfirmState,
  resetConfirmStore,
  subscribeConfirm,
} from "./confirm-store.ts";

function current() {
  const state = getConfirmState();
  if (!state) throw new Error("no confirm dialog");
  return state;
}

afterEach(() => {
  resetConfirmStore();
});

describe("confirm store", () => {
  it("opens a dialog and resolves true on confirm", async () => {
    const result = confirm({ title: "Delete it?" });
    expect(current()).toMatchObject({ opened: true, loading: false, error: null });
    expect(current().options.title).toBe("Delete it?");
    await acceptConfirm(current().id);
    await expect(result).resolves.toBe(true);
    expect(current().opened).toBe(false);
  });

  it("resolves false on cancel without running onConfirm", async () => {
    const onConfirm = vi.fn();
    const result = confirm({ title: "Delete it?", onConfirm });
    cancelConfirm(current().id);
    await expect(result).resolves.toBe(false);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it("shows loading while onConfirm runs and closes when it resolves", async () => {
    let finish: () => void = () => {};
    const onConfirm = vi.fn(
      () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    );
    const result = confirm({ title: "Publish?", onConfirm });
    const accepted = acceptConfirm(current().id);
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(current()).toMatchObject({ opened: true, loading: true });
    // Neither cancel nor a second click interrupts a running handler.
    cancelConfirm(current().id);
    await acceptConfirm(current().id);
    expect(current()).toMatchObject({ opened: true, loading: true });
    expect(onConfirm).toHaveBeenCalledTimes(1);
    finish();
    await accepted;
    await expect(result).resolves.toBe(true);
    expect(current()).toMatchObject({ opened: false, loading: false });
  });

  it("stays open with the error when onConfirm fails", async () => {
    const result = confirm({
      title: "Publish?",
      onConfirm: () => Promise.reject(new Error("Failed to publish campaign")),
    });
    await acceptConfirm(current().id);
    expect(current()).toMatchObject({ opened: true, loading: false, error: "Failed to publish campaign" });
    cancelConfirm(current().id);
    await expect(result).resolves.toBe(false);
  });

  it("resolves an open dialog false when another replaces it", async () => {
    const first = confirm({ title: "First" });
    const second = confirm({ title: "Second" });
    await expect(first).resolves.toBe(false);
    expect(current().options.title).toBe("Second");
    await acceptConfirm(current().id);
    await expect(second).resolves.toBe(true);
  });

  it("forgets the dialog after its exit transition and notifies subscribers", async () => {
    const listener = vi.fn();
    const unsubscribe = subscribeConfirm(listener);
    const result = confirm({ title: "Okay?" });
    const { id } = current();
    clearConfirm(id); // still open: ignored
    expect(getConfirmState()).not.toBeNull();
    await acceptConfirm(id);
    await result;
    clearConfirm(id);
    expect(getConfirmState()).toBeNull();
    expect(listener).toHaveBeenCalled();
    unsubscribe();
  });

  it("ignores actions on a stale dialog id", async () => {
    const result = confirm({ title: "Okay?" });
    const { id } = current();
    cancelConfirm(id + 100);
    await acceptConfirm(id + 100);
    expect(current().opened).toBe(true);
    cancelConfirm(id);
    await expect(result).resolves.toBe(false);
  });
});
