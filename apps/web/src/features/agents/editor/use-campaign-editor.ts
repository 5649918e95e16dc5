import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, useSyncExternalStore } from "react";
import {
  campaignErrorText,
  campaignsKey,
  heldByTests,
  loadCampaigns,
  publishStaging,
  revertStaging,
  saveStagingCampaign,
  staleCurrent,
  useCampaigns,
} from "../api.ts";
import { CampaignEditor, type CampaignEditorState } from "./campaign-editor.ts";

/**
 * The editors open in this tab, by agent id: the editAgent overlay owns one; the saveConflict and
 * compareChanges overlays reach the same one to show and resolve its conflict.
 */
const openEditors = new Map<number, CampaignEditor>();
const registryListeners = new Set<() => void>();

function announce(): void {
  for (const listener of registryListeners) listener();
}

export function findOpenEditor(agentId: number): CampaignEditor | undefined {
  return openEditors.get(agentId);
}

/** The open editor of an agent (undefined while none is open), re-rendering when it opens or closes. */
export function useOpenEditor(agentId: number): CampaignEditor | undefined {
  return useSyncExternalStore(
    (listener) => {
      registryListeners.add(listener);
      return () => registryListeners.delete(listener);
    },
    () => openEditors.get(agentId),
  );
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Loads the agent's campaigns and keeps one CampaignEditor for it while the caller is mounted. */
export function useCampaignEditor(agentId: number) {
  const queryClient = useQueryClient();
  const campaigns = useCampaigns(agentId);
  const [editor, setEditor] = useState<CampaignEditor | null>(null);
  const loaded = campaigns.data;

  useEffect(() => {
    if (!loaded || editor) return;
    const created = new CampaignEditor(loaded, {
      load: async () => {
        const answer = await loadCampaigns(agentId);
        queryClient.setQueryData(campaignsKey(agentId), answer);
        return answer;
      },
      save: (fields, revision) => saveStagingCampaign(agentId, fields, revision),
      publish: (revision, overrideTests) => publishStaging(agentId, revision, overrideTests),
      heldByTests,
      revert: () => revertStaging(agentId),
      staleCurrent,
      errorText: campaignErrorText,
      wait,
    });
    openEditors.set(agentId, created);
    announce();
    setEditor(created);
  }, [agentId, loaded, editor, queryClient]);

  useEffect(() => {
    if (!editor) return;
    return () => {
      if (openEditors.get(agentId) === editor) openEditors.delete(agentId);
      announce();
      void editor.dispose().finally(() => {
        void queryClient.invalidateQueries({ queryKey: campaignsKey(agentId) });
        void queryClient.invalidateQueries({ queryKey: ["agent-versions", agentId] });
      });
    };
  }, [agentId, editor, queryClient]);

  return { campaigns, editor };
}

/** The editor's state, re-rendering on every change. */
export function useEditorState(editor: CampaignEditor): CampaignEditorState {
  return useSyncExternalStore(editor.subscribe, editor.getState);
}
