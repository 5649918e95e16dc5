import {
  ApiRequestError,
  type Campaign,
  type CampaignFields,
  PROMPT_REQUIRED_MESSAGE,
} from "@switchboard/api";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeCampaign } from "../../../test/campaign.ts";
import { CampaignEditor, type CampaignEditorBackend, PUBLISH_FAILED } from "./campaign-editor.ts";

const campaign = fakeCampaign;

function setup(backendOverrides: Partial<CampaignEditorBackend> = {}) {
  let serverRevision = 1;
  const saves: { fields: CampaignFields; revision: number }[] = [];
  const backend: CampaignEditorBackend = {
    load: vi.fn(async () => ({
      success: true as const,
      agentId: 7,
      staging: campaign({ revision: serverRevision }),
      production: null,
    })),
    save: vi.fn(async (fields: CampaignFields, revision: number) => {
      saves.push({ fields, revision });
      if (revision !== serverRevision) {
        throw new ApiRequestError(409, "stale", { current: campaign({ revision: serverRevision }) });
      }
      serverRevision += 1;
      return campaign({ ...fields, revision: serverRevision });
    }),
    publish: vi.fn(async () => ({
      success: true as const,
      agentId: 7,
      staging: campaign({ revision: serverRevision, published: true }),
      production: campaign({ stage: "production", revision: 1 }),
    })),
    revert: vi.fn(),
    staleCurrent: (error) =>
      error instanceof ApiRequestError && error.status === 409
        ? ((error.body as { current: Campaign }).current ?? null)
        : null,
    errorText: (error, refused) => (error instanceof Error && error.message ? error.message : refused),
    wait: vi.fn(async () => {}),
    ...backendOverrides,
  };
  const editor = new CampaignEditor(
    { success: true, agentId: 7, staging: campaign(), production: null },
    backend,
  );
  return {
    editor,
    backend,
    saves,
    bumpServer: () => {
      serverRevision += 1;
    },
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("CampaignEditor", () => {
  it("marks an edit unpublished and saves 1500 ms after the last edit, with the base revision", async () => {
    const { editor, saves } = setup();
    editor.edit({ agentInstructions: "First" });
    expect(editor.getState().draft.published).toBe(false);
    expect(editor.getState().status).toBe("pending");
    await vi.advanceTimersByTimeAsync(1000);
    editor.edit({ agentInstructions: "Second" });
    await vi.advanceTimersByTimeAsync(1499);
    expect(saves).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(saves).toEqual([
      { fields: expect.objectContaining({ agentInstructions: "Second" }), revision: 1 },
    ]);
    expect(editor.getState().status).toBe("saved");
    expect(editor.getState().staging.revision).toBe(2);
  });

  it("refuses an empty prompt with the spec's message and sends nothing", async () => {
    const { editor, saves } = setup();
    editor.edit({ agentInstructions: "  " });
    await vi.advanceTimersByTimeAsync(1500);
    expect(saves).toHaveLength(0);
    expect(editor.getState().promptError).toBe(PROMPT_REQUIRED_MESSAGE);
    editor.edit({ agentInstructions: "Back again" });
    expect(editor.getState().promptError).toBeNull();
  });

  it("turns a stale save into a conflict holding both sides; keeping mine saves over the newer revision", async () => {
    const { editor, saves, bumpServer } = setup();
    bumpServer();
    editor.edit({ agentInstructions: "Mine" });
    await vi.advanceTimersByTimeAsync(1500);
    const state = editor.getState();
    expect(state.status).toBe("conflict");
    expect(state.conflict?.mine.agentInstructions).toBe("Mine");
    expect(state.conflict?.current.revision).toBe(2);
    expect(await editor.resolveConflict("mine")).toBe(true);
    expect(saves.at(-1)?.revision).toBe(2);
    expect(editor.getState().draft.agentInstructions).toBe("Mine");
    expect(editor.getState().conflict).toBeNull();
  });

  it("taking theirs drops my draft", async () => {
    const { editor, bumpServer } = setup();
    bumpServer();
    editor.edit({ agentInstructions: "Mine" });
    await vi.advanceTimersByTimeAsync(1500);
    await editor.resolveConflict("theirs");
    expect(editor.getState().draft.agentInstructions).toBe("Answer calls for Bluebird Dental.");
    expect(editor.getState().status).toBe("saved");
  });

  it("publishes in the spec's order: wait 1.5 s, save staging unpublished, publish, reload, clear errors, wait 200 ms", async () => {
    const order: string[] = [];
    const { editor, backend } = setup();
    const { save, publish, load } = backend;
    backend.wait = vi.fn(async (ms: number) => void order.push(`wait ${ms}`));
    backend.save = vi.fn(async (fields: CampaignFields, revision: number) => {
      order.push(`save published=${fields.published}`);
      return save(fields, revision);
    });
    backend.publish = vi.fn(async (revision: number) => {
      order.push("publish");
      return publish(revision, false);
    });
    backend.load = vi.fn(async () => {
      order.push("reload");
      return load();
    });
    expect(await editor.publish()).toBe(true);
    expect(order).toEqual(["wait 1500", "save published=false", "publish", "reload", "wait 200"]);
    expect(editor.getState().errors).toEqual([]);
  });

  it("keeps the server's message first and falls back to the spec's text", async () => {
    const { editor } = setup({
      publish: vi.fn(async () => {
        throw new ApiRequestError(500, "", {});
      }),
      errorText: (_error, refused) => refused,
    });
    expect(await editor.publish()).toBe(false);
    expect(editor.getState().errors).toEqual([PUBLISH_FAILED]);
    const failing = setup({
      save: vi.fn(async () => {
        throw new ApiRequestError(500, "Disk full", { message: "Disk full" });
      }),
    });
    failing.editor.edit({ agentInstructions: "x" });
    await vi.advanceTimersByTimeAsync(1500);
    expect(failing.editor.getState().errors).toEqual(["Disk full"]);
  });

  it("keeps an edit made while a save is running and saves it next", async () => {
    const { editor, saves } = setup();
    editor.edit({ agentInstructions: "One" });
    const saving = editor.save();
    editor.edit({ agentInstructions: "Two" });
    await saving;
    expect(editor.getState().draft.agentInstructions).toBe("Two");
    expect(editor.getState().status).toBe("pending");
    await vi.advanceTimersByTimeAsync(1500);
    expect(saves.map((save) => save.fields.agentInstructions)).toEqual(["One", "Two"]);
  });

  it("keeps a publish the required tests held, and publishes anyway only when asked", async () => {
    const failing = [{ scenarioId: 3, name: "Never quotes a price", state: "failed" as const }];
    const { editor, backend } = setup({
      publish: vi.fn(async (_revision: number, overrideTests: boolean) => {
        if (!overrideTests) throw new ApiRequestError(409, "held", { failingTests: failing });
        return {
          success: true as const,
          agentId: 7,
          staging: campaign({ published: true }),
          production: campaign({ stage: "production" }),
        };
      }),
      heldByTests: (error) =>
        error instanceof ApiRequestError
          ? ((error.body as { failingTests?: typeof failing }).failingTests ?? null)
          : null,
    });
    editor.edit({ agentInstructions: "Quote nothing" });
    expect(await editor.publish()).toBe(false);
    expect(editor.getState().heldByTests).toEqual(failing);
    // Not a failed save or a stale copy: the editor's error list and status stay clean.
    expect(editor.getState().errors).toEqual([]);
    expect(editor.getState().status).toBe("saved");
    expect(await editor.publish({ overrideTests: true })).toBe(true);
    expect(vi.mocked(backend.publish).mock.calls.map((call) => call[1])).toEqual([false, true]);
    expect(editor.getState().heldByTests).toBeNull();
  });
});
