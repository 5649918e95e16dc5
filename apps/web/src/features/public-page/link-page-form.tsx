import { ActionIcon, Button, Group, Stack, Switch, Text, Textarea, TextInput, Title } from "@mantine/core";
import IconArrowDown from "@tabler/icons-react/dist/esm/icons/IconArrowDown.mjs";
import IconArrowUp from "@tabler/icons-react/dist/esm/icons/IconArrowUp.mjs";
import IconTrash from "@tabler/icons-react/dist/esm/icons/IconTrash.mjs";
import { useEffect, useRef, useState } from "react";
import { ActionError, EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useAccountState } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import { useProfileLinks, useSaveProfileLinks } from "./api.ts";

type DraftLink = { key: string; id?: number; title: string; url: string; clicks: number };

let nextKey = 0;
const keyOf = () => `new-${nextKey++}`;

/**
 * The link page's editor (Settings → Public page, and the editPage overlay): whether the page is public, its
 * bio, and its ordered links (title, address, clicks so far) — added, moved, removed, then saved at once.
 */
export function LinkPageForm({ showBio = true, onSaved }: { showBio?: boolean; onSaved?: () => void }) {
  const { view } = useAccountState();
  const canEdit = view.permissions.canEditOrg;
  const links = useProfileLinks();
  const save = useSaveProfileLinks();
  const [draft, setDraft] = useState<DraftLink[] | null>(null);
  const [bio, setBio] = useState("");
  const [published, setPublished] = useState(true);
  // Once the owner has changed something, data arriving later (a background refetch of a cached page) must
  // not reset the form: it would silently drop a link just added.
  const edited = useRef(false);

  useEffect(() => {
    if (!links.data || edited.current) return;
    setDraft(links.data.links.map((l) => ({ key: `link-${l.id}`, ...l })));
    setBio(links.data.linksConfig.bio);
    setPublished(links.data.linksConfig.published);
  }, [links.data]);

  const edit = (change: (all: DraftLink[] | null) => DraftLink[] | null) => {
    edited.current = true;
    setDraft(change);
  };
  const update = (key: string, patch: Partial<DraftLink>) =>
    edit((all) => all?.map((l) => (l.key === key ? { ...l, ...patch } : l)) ?? all);
  const move = (index: number, by: number) =>
    edit((all) => {
      if (!all) return all;
      const next = [...all];
      const [item] = next.splice(index, 1);
      if (item) next.splice(index + by, 0, item);
      return next;
    });
  const submit = () => {
    if (!draft) return;
    save.mutate(
      {
        links: draft.map((l) => ({ ...(l.id ? { id: l.id } : {}), title: l.title, url: l.url })),
        linksConfig: showBio ? { bio, published } : { published },
      },
      {
        onSuccess: () => {
          edited.current = false;
          toast.success("Public page saved.");
          onSaved?.();
        },
      },
    );
  };

  if (links.isPending) return <LoadingState label="Loading links…" />;
  if (links.isError) return <ErrorState error={links.error} onRetry={() => void links.refetch()} />;
  if (!draft) return null;
  return (
    <Stack gap="sm">
      <Switch
        label="Public: anyone with the link can see the page"
        checked={published}
        disabled={!canEdit}
        onChange={(event) => {
          edited.current = true;
          setPublished(event.currentTarget.checked);
        }}
      />
      {showBio ? (
        <Textarea
          label="Bio"
          description="A sentence or two under your name (at most 280 characters)."
          maxLength={280}
          autosize
          minRows={2}
          value={bio}
          disabled={!canEdit}
          onChange={(event) => {
            edited.current = true;
            setBio(event.currentTarget.value);
          }}
        />
      ) : null}
      <Title order={3} size="h5">
        Links
      </Title>
      {draft.length === 0 ? <EmptyState>No links yet. Add the pages your visitors need.</EmptyState> : null}
      {draft.map((link, index) => (
        <Group key={link.key} gap="xs" align="flex-end" wrap="wrap" data-testid="profile-link-row">
          <TextInput
            label={`Link ${index + 1} title`}
            value={link.title}
            disabled={!canEdit}
            onChange={(event) => update(link.key, { title: event.currentTarget.value })}
            style={{ flex: "1 1 10rem" }}
          />
          <TextInput
            label={`Link ${index + 1} address`}
            value={link.url}
            disabled={!canEdit}
            placeholder="https://"
            onChange={(event) => update(link.key, { url: event.currentTarget.value })}
            style={{ flex: "2 1 14rem" }}
          />
          <Group gap="xs" wrap="nowrap" pb={4}>
            <Text size="sm" w={72} ta="right" aria-label={`Link ${index + 1} clicks`}>
              {link.clicks} {link.clicks === 1 ? "click" : "clicks"}
            </Text>
            {canEdit ? (
              <Group gap={2} wrap="nowrap">
                <ActionIcon
                  variant="subtle"
                  aria-label={`Move link ${index + 1} up`}
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                >
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  aria-label={`Move link ${index + 1} down`}
                  disabled={index === draft.length - 1}
                  onClick={() => move(index, 1)}
                >
                  <IconArrowDown size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove link ${index + 1}`}
                  onClick={() => edit((all) => all?.filter((l) => l.key !== link.key) ?? all)}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ) : null}
          </Group>
        </Group>
      ))}
      {canEdit ? (
        <Group>
          <Button
            variant="default"
            onClick={() => edit((all) => [...(all ?? []), { key: keyOf(), title: "", url: "", clicks: 0 }])}
          >
            Add link
          </Button>
          <Button onClick={submit} loading={save.isPending}>
            Save public page
          </Button>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          Editing is not available for the account in view.
        </Text>
      )}
      <ActionError error={save.error} />
    </Stack>
  );
}
