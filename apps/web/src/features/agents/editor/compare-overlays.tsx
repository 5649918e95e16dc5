import { Alert, Box, Button, Code, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { CampaignFields } from "@switchboard/api";
import { STALE_SAVE_MESSAGE } from "@switchboard/api";
import { useState } from "react";
import { ErrorState, LoadingState } from "../../../components/query-state.tsx";
import { toast } from "../../../lib/toast.ts";
import type { OverlayComponentProps } from "../../../overlays/overlay-props.ts";
import { useOverlays } from "../../../overlays/use-overlays.tsx";
import { overlayAccountId } from "../../accounts/account-kinds.ts";
import { useCampaigns, useVersions } from "../api.ts";
import { changedFields, lineDiff } from "./campaign-diff.ts";
import { type CompareSide, compareValue, parseCompareValue } from "./compare-sides.ts";
import { useEditorState, useOpenEditor } from "./use-campaign-editor.ts";

const LINE_COLORS = {
  same: undefined,
  removed: "var(--mantine-color-red-light)",
  added: "var(--mantine-color-teal-light)",
};

function TextDiff({ left, right }: { left: string; right: string }) {
  const lines = lineDiff(left, right);
  return (
    <SimpleGrid cols={2} spacing="xs">
      {(["left", "right"] as const).map((column) => (
        <Code block key={column} style={{ whiteSpace: "pre-wrap" }}>
          {lines
            .filter(
              (line) =>
                line.kind === "same" || (column === "left" ? line.kind === "removed" : line.kind === "added"),
            )
            .map((line, index) => (
              <Box
                // biome-ignore lint/suspicious/noArrayIndexKey: lines of a diff have no identity of their own
                key={index}
                component="span"
                display="block"
                bg={LINE_COLORS[line.kind]}
                data-diff={line.kind}
              >
                {line.text || " "}
              </Box>
            ))}
        </Code>
      ))}
    </SimpleGrid>
  );
}

/** Two configurations side by side, field by field: only what differs. */
export function CampaignComparison({
  left,
  right,
}: {
  left: { title: string; fields: CampaignFields };
  right: { title: string; fields: CampaignFields };
}) {
  const changes = changedFields(left.fields, right.fields);
  return (
    <Stack gap="md">
      <SimpleGrid cols={2} spacing="xs">
        <Title order={5}>{left.title}</Title>
        <Title order={5}>{right.title}</Title>
      </SimpleGrid>
      {changes.length === 0 ? <Text c="dimmed">They are the same.</Text> : null}
      {changes.map((change) => (
        <Stack key={change.field} gap={4} data-testid={`change-${change.field}`}>
          <Text fw={600}>{change.label}</Text>
          <TextDiff left={change.left} right={change.right} />
        </Stack>
      ))}
    </Stack>
  );
}

/** `?compareChanges=<agentId>:<left>:<right>`: versions, the draft, what is live or a conflict's sides. */
export function CompareChangesOverlay({ value }: OverlayComponentProps) {
  const parsed = parseCompareValue(value);
  if (!parsed) return <Text>Choose two versions to compare on the Versions panel of the agent editor.</Text>;
  return <Comparison {...parsed} />;
}

function Comparison({ agentId, left, right }: { agentId: number; left: CompareSide; right: CompareSide }) {
  const versions = useVersions(agentId, true);
  const campaigns = useCampaigns(agentId);
  const editor = useOpenEditor(agentId);
  const conflict = editor?.getState().conflict ?? null;
  if (versions.isError || campaigns.isError)
    return <ErrorState error={versions.error ?? campaigns.error} onRetry={() => void versions.refetch()} />;
  if (!versions.data || !campaigns.data) return <LoadingState label="Loading what to compare…" />;
  const resolve = (side: CompareSide): { title: string; fields: CampaignFields } | null => {
    if (side === "mine") return conflict ? { title: "Your changes", fields: conflict.mine } : null;
    if (side === "theirs") return conflict ? { title: "Saved elsewhere", fields: conflict.current } : null;
    if (side === "staging") {
      const fields = editor?.getState().draft ?? campaigns.data.staging;
      return { title: "Draft", fields };
    }
    if (side === "production")
      return campaigns.data.production ? { title: "Published", fields: campaigns.data.production } : null;
    const version = versions.data.versions.find((item) => item.id === side);
    return version?.snapshot ? { title: version.title, fields: version.snapshot } : null;
  };
  const leftSide = resolve(left);
  const rightSide = resolve(right);
  if (!leftSide || !rightSide)
    return (
      <Text>
        One of the two sides no longer exists (a resolved conflict, a deleted version, nothing published).
      </Text>
    );
  return <CampaignComparison left={leftSide} right={rightSide} />;
}

/** `?saveConflict=<agentId>`: my save was based on an older revision; keep mine, take theirs, or compare. */
export function SaveConflictOverlay({ value, close }: OverlayComponentProps) {
  const agentId = overlayAccountId(value);
  const editor = useOpenEditor(agentId ?? 0);
  if (!agentId || !editor)
    return (
      <Text>There is no save conflict to resolve: open the agent in the editor to keep working on it.</Text>
    );
  return <ConflictChoice agentId={agentId} editor={editor} close={close} />;
}

function ConflictChoice({
  agentId,
  editor,
  close,
}: {
  agentId: number;
  editor: NonNullable<ReturnType<typeof useOpenEditor>>;
  close: () => void;
}) {
  const state = useEditorState(editor);
  const overlays = useOverlays();
  const [busy, setBusy] = useState<"mine" | "theirs" | null>(null);
  const conflict = state.conflict;
  if (!conflict) return <Text>There is no save conflict any more: your changes are saved.</Text>;
  const changes = changedFields(conflict.current, conflict.mine);
  const choose = async (choice: "mine" | "theirs") => {
    setBusy(choice);
    try {
      const saved = await editor.resolveConflict(choice);
      if (saved) {
        toast.success(choice === "mine" ? "Your changes were saved." : "You now see the newer version.");
        close();
      }
    } finally {
      setBusy(null);
    }
  };
  return (
    <Stack gap="md">
      <Alert color="yellow" variant="light" title={STALE_SAVE_MESSAGE}>
        Someone saved this agent after you started editing, so your last changes were not saved.
        {changes.length > 0 ? ` They differ in: ${changes.map((change) => change.label).join(", ")}.` : null}
      </Alert>
      <Group justify="space-between">
        <Button
          variant="subtle"
          onClick={() => overlays.open("compareChanges", compareValue(agentId, "theirs", "mine"))}
        >
          Compare changes
        </Button>
        <Group gap="xs">
          <Button
            variant="default"
            loading={busy === "theirs"}
            disabled={busy !== null}
            onClick={() => void choose("theirs")}
          >
            Use their version
          </Button>
          <Button loading={busy === "mine"} disabled={busy !== null} onClick={() => void choose("mine")}>
            Keep my changes
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
