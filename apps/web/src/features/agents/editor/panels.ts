import type { CampaignEditor, CampaignEditorState } from "./campaign-editor.ts";

/** The panels of the agent editor (product spec §2.1), in the order the navigation shows them. */
export const EDITOR_PANELS = [
  { id: "prompt", label: "Prompt" },
  { id: "publish", label: "Publish" },
  { id: "tests", label: "Tests" },
  { id: "fields", label: "Fields" },
  { id: "variables", label: "Variables" },
  { id: "actions", label: "Actions" },
  { id: "knowledge", label: "Knowledge" },
  { id: "analysis", label: "Analysis" },
  { id: "routes", label: "Routes" },
  { id: "timezone", label: "Time zone" },
  { id: "language", label: "Language" },
  { id: "voices", label: "Voices" },
  { id: "suggestions", label: "Suggestions" },
  { id: "versions", label: "Versions" },
  { id: "template", label: "Template" },
  { id: "links", label: "Links" },
  { id: "campaignId", label: "Campaign id" },
  { id: "advanced", label: "Advanced" },
  { id: "settings", label: "Settings" },
] as const;

export type EditorPanelId = (typeof EDITOR_PANELS)[number]["id"];

const PANEL_IDS = new Set<string>(EDITOR_PANELS.map((panel) => panel.id));

/** The panel named by an editAgent value `<agentId>/<panel>`; the prompt panel by default. */
export function panelFromValue(value: string): EditorPanelId {
  const name = value.split("/")[1] ?? "";
  return PANEL_IDS.has(name) ? (name as EditorPanelId) : "prompt";
}

export function panelValue(agentId: number, panel: EditorPanelId): string {
  return panel === "prompt" ? String(agentId) : `${agentId}/${panel}`;
}

/** The `{key}` template variables a text uses, in order of first use. */
export function templateVariables(...texts: (string | null | undefined)[]): string[] {
  const keys: string[] = [];
  for (const text of texts)
    for (const match of (text ?? "").matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g))
      if (match[1] && !keys.includes(match[1])) keys.push(match[1]);
  return keys;
}

/** What every panel of the editor is given. */
export type PanelProps = { agentId: number; editor: CampaignEditor; state: CampaignEditorState };
