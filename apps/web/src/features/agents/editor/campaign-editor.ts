import type { Campaign, CampaignFields, CampaignsAnswer, FailingTest } from "@switchboard/api";
import { PROMPT_REQUIRED_MESSAGE } from "@switchboard/api";
import { CAMPAIGN_AUTOSAVE_MS, PUBLISH_WAIT_AFTER_MS, PUBLISH_WAIT_BEFORE_MS } from "@switchboard/core";
import { ExternalStore } from "../../../lib/external-store.ts";

/** What the editor needs of the server; the real ones call the API, tests pass their own. */
export type CampaignEditorBackend = {
  load: () => Promise<CampaignsAnswer>;
  save: (fields: CampaignFields, revision: number) => Promise<Campaign>;
  publish: (revision: number, overrideTests: boolean) => Promise<CampaignsAnswer>;
  /** The required test scenarios of a publish the tests held, or null for any other failure. */
  heldByTests?: (error: unknown) => FailingTest[] | null;
  revert: () => Promise<CampaignsAnswer>;
  /** The current campaign of a stale save's 409, or null for any other failure. */
  staleCurrent: (error: unknown) => Campaign | null;
  /** The text of a failed call: the server's message first, else the fallback of the kind of failure. */
  errorText: (error: unknown, refused: string, unreachable: string) => string;
  wait: (ms: number) => Promise<void>;
};

export type SaveStatus = "saved" | "pending" | "saving" | "error" | "conflict";

export type CampaignEditorState = {
  /** The staging campaign as last loaded or saved. */
  staging: Campaign;
  production: Campaign | null;
  /** The configuration being edited. */
  draft: CampaignFields;
  status: SaveStatus;
  publishing: boolean;
  /** Failed saves and publishes, newest last (spec §8: shown as an alert, then in the list). */
  errors: string[];
  /** Message tied to the prompt input. */
  promptError: string | null;
  /** The required test scenarios that held the last publish (it can be published anyway), else null. */
  heldByTests: FailingTest[] | null;
  /** A save refused as stale: my draft and the newer campaign saved elsewhere. */
  conflict: { mine: CampaignFields; current: Campaign } | null;
  savedAt: number | null;
};

export const SAVE_FAILED = "Failed to save staging campaign";
export const SAVE_UNREACHABLE = "Error saving instructions";
export const PUBLISH_FAILED = "Failed to publish campaign";

/** The configuration fields of a campaign: what a save sends and a version holds. */
export const CAMPAIGN_FIELD_KEYS = [
  "agentInstructions",
  "published",
  "confirmTransfers",
  "apps",
  "enabledFunctions",
  "actions",
  "templateId",
  "timezone",
  "language",
  "voice",
  "greeting",
  "outboundGreeting",
  "variables",
  "knowledgeBaseIds",
  "voicemailAction",
  "voicemailMessage",
  "analysis",
] as const satisfies readonly (keyof CampaignFields)[];

export function fieldsOf(campaign: CampaignFields): CampaignFields {
  const fields = Object.fromEntries(CAMPAIGN_FIELD_KEYS.map((key) => [key, campaign[key]])) as CampaignFields;
  // A campaign saved before knowledge bases existed has none.
  fields.knowledgeBaseIds ??= [];
  // ... nor voicemail settings.
  fields.voicemailAction ??= "leave_message";
  fields.voicemailMessage ??= null;
  fields.outboundGreeting ??= null;
  // ... nor a call analysis.
  fields.analysis ??= { successRule: null, fields: [] };
  return fields;
}

/**
 * The editing session of one agent's staging campaign (product spec §4.4): any edit marks it unpublished
 * and saves it CAMPAIGN_AUTOSAVE_MS after the last edit; every save carries the revision it was based on,
 * and a stale one becomes a conflict the user resolves. Framework-free so its timing can be tested.
 */
export class CampaignEditor extends ExternalStore<CampaignEditorState> {
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Bumped by every edit: a save that finishes keeps edits made while it ran. */
  private editCount = 0;
  private saving: Promise<boolean> | null = null;

  constructor(
    answer: CampaignsAnswer,
    private readonly backend: CampaignEditorBackend,
  ) {
    super({
      staging: answer.staging,
      production: answer.production,
      draft: fieldsOf(answer.staging),
      status: "saved",
      publishing: false,
      errors: [],
      promptError: null,
      heldByTests: null,
      conflict: null,
      savedAt: null,
    });
  }

  /** An edit: marks the campaign unpublished and (re)schedules the auto-save. */
  edit(patch: Partial<CampaignFields>): void {
    this.editCount += 1;
    const draft = { ...this.state.draft, ...patch, published: false };
    const promptError =
      "agentInstructions" in patch && draft.agentInstructions.trim() ? null : this.state.promptError;
    this.set({ draft, promptError, status: this.state.status === "conflict" ? "conflict" : "pending" });
    if (this.state.status === "conflict") return;
    this.schedule();
  }

  private schedule(): void {
    this.cancelTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.save();
    }, CAMPAIGN_AUTOSAVE_MS);
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  get hasUnsavedChanges(): boolean {
    return (
      this.state.status === "pending" || this.state.status === "error" || this.state.status === "conflict"
    );
  }

  /** Validation of spec §5: a campaign needs its prompt. */
  private validate(): boolean {
    if (this.state.draft.agentInstructions.trim()) return true;
    this.set({ promptError: PROMPT_REQUIRED_MESSAGE, status: "error" });
    return false;
  }

  /** Saves the draft now (cancelling a scheduled save); answers whether staging now holds it. */
  async save(): Promise<boolean> {
    this.cancelTimer();
    if (this.saving) await this.saving;
    if (this.state.status === "saved") return true;
    if (this.state.status === "conflict") return false;
    if (!this.validate()) return false;
    this.saving = this.runSave();
    try {
      return await this.saving;
    } finally {
      this.saving = null;
    }
  }

  private async runSave(): Promise<boolean> {
    const editsAtStart = this.editCount;
    const sent = this.state.draft;
    this.set({ status: "saving" });
    try {
      const staging = await this.backend.save(sent, this.state.staging.revision);
      const editedSince = this.editCount !== editsAtStart;
      this.set({
        staging,
        draft: editedSince ? this.state.draft : fieldsOf(staging),
        status: editedSince ? "pending" : "saved",
        savedAt: Date.now(),
      });
      if (editedSince) this.schedule();
      return !editedSince;
    } catch (error) {
      const current = this.backend.staleCurrent(error);
      if (current) {
        this.set({ status: "conflict", conflict: { mine: this.state.draft, current } });
        return false;
      }
      this.fail(this.backend.errorText(error, SAVE_FAILED, SAVE_UNREACHABLE));
      return false;
    }
  }

  private fail(message: string): void {
    this.set({ status: "error", errors: [...this.state.errors, message] });
  }

  /**
   * Publish (spec §4.4): wait 1.5 s, validate, save as staging (published false), publish, reload, clear the
   * errors, wait 200 ms.
   */
  async publish(options: { overrideTests?: boolean } = {}): Promise<boolean> {
    if (this.state.publishing) return false;
    this.set({ publishing: true, heldByTests: null });
    try {
      await this.backend.wait(PUBLISH_WAIT_BEFORE_MS);
      if (!this.validate()) return false;
      if (this.state.status === "conflict") return false;
      this.editCount += 1;
      this.set({ draft: { ...this.state.draft, published: false }, status: "pending" });
      if (!(await this.save())) return false;
      try {
        await this.backend.publish(this.state.staging.revision, options.overrideTests ?? false);
      } catch (error) {
        const current = this.backend.staleCurrent(error);
        const held = this.backend.heldByTests?.(error) ?? null;
        if (held) this.set({ heldByTests: held });
        else if (current) this.set({ status: "conflict", conflict: { mine: this.state.draft, current } });
        else this.fail(this.backend.errorText(error, PUBLISH_FAILED, PUBLISH_FAILED));
        return false;
      }
      await this.reload();
      this.set({ errors: [], promptError: null });
      await this.backend.wait(PUBLISH_WAIT_AFTER_MS);
      return true;
    } finally {
      this.set({ publishing: false });
    }
  }

  /** Staging <- production, then reload (spec §4.4). */
  async revert(): Promise<void> {
    this.cancelTimer();
    await this.backend.revert();
    await this.reload();
  }

  /** Loads both copies again; the draft becomes the saved staging copy. */
  async reload(): Promise<void> {
    this.cancelTimer();
    this.adopt(await this.backend.load());
  }

  /** Takes a campaigns answer from elsewhere (publish, restore, detach) as the saved state. */
  adopt(answer: Pick<CampaignsAnswer, "staging"> & { production?: Campaign | null }): void {
    this.cancelTimer();
    this.editCount += 1;
    this.set({
      staging: answer.staging,
      production: answer.production === undefined ? this.state.production : answer.production,
      draft: fieldsOf(answer.staging),
      status: "saved",
      conflict: null,
      promptError: null,
    });
  }

  /** Resolves a conflict: keep mine (saved over the newer campaign) or take theirs (mine is dropped). */
  async resolveConflict(choice: "mine" | "theirs"): Promise<boolean> {
    const conflict = this.state.conflict;
    if (!conflict) return true;
    if (choice === "theirs") {
      this.adopt({ staging: conflict.current });
      return true;
    }
    this.set({
      staging: conflict.current,
      draft: { ...conflict.mine, published: false },
      conflict: null,
      status: "pending",
    });
    return this.save();
  }

  dismissError(index: number): void {
    this.set({ errors: this.state.errors.filter((_, i) => i !== index) });
  }

  /** Stops the timer; a pending edit is saved first (closing the editor loses nothing). */
  async dispose(): Promise<void> {
    if (this.timer) await this.save();
    this.cancelTimer();
  }
}
