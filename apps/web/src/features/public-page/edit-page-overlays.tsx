import { Anchor, Avatar, Button, Group, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { type FormEvent, useEffect, useState } from "react";
import { ActionError, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { useAccountState } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { useSaveAccountFields } from "../profile/api.ts";
import { EditGate } from "../profile/edit-form-parts.tsx";
import { publicPageUrl, useProfileLinks, useSaveProfileLinks } from "./api.ts";
import { LinkPageForm } from "./link-page-form.tsx";

function PageAddress() {
  const { view } = useAccountState();
  const url = publicPageUrl(view.account.username);
  return (
    <Text size="sm">
      Your page:{" "}
      <Anchor href={url} target="_blank" rel="noopener">
        {url}
      </Anchor>
    </Text>
  );
}

/** `?editPage`: the link page's links (title, address, order) and whether the page is public. */
export function EditPageOverlay({ name, close }: OverlayComponentProps) {
  const overlays = useOverlays();
  return (
    <EditGate>
      <Stack gap="md">
        <PageAddress />
        <LinkPageForm showBio={false} onSaved={close} />
        <Group gap="xs">
          <Button variant="subtle" onClick={() => overlays.switch(name, "editPageProfile")}>
            Edit the page's profile
          </Button>
        </Group>
      </Stack>
    </EditGate>
  );
}

/**
 * `?editPageProfile`: what the top of the link page shows — the name, the picture, the bio and the social
 * links (the picture and social links have their own editors, one click away).
 */
export function EditPageProfileOverlay({ name, close }: OverlayComponentProps) {
  const { view } = useAccountState();
  const overlays = useOverlays();
  const links = useProfileLinks();
  const saveLinks = useSaveProfileLinks();
  const saveFields = useSaveAccountFields();
  const { account } = view;
  const [pageName, setPageName] = useState(account.displayName);
  const [bio, setBio] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);

  useEffect(() => {
    if (links.data && bio === null) setBio(links.data.linksConfig.bio);
  }, [links.data, bio]);

  if (links.isPending) return <LoadingState label="Loading your page…" />;
  if (links.isError) return <ErrorState error={links.error} onRetry={() => void links.refetch()} />;
  const current = links.data;
  const image = typeof account.details.image === "string" ? account.details.image : null;
  const social = Object.entries(account.socialLinks ?? {}).filter(([, value]) => value);
  const saving = saveLinks.isPending || saveFields.isPending;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = pageName.trim();
    if (!trimmed) {
      setNameError("A name cannot be empty.");
      return;
    }
    setNameError(null);
    try {
      if (trimmed !== account.displayName) await saveFields.mutateAsync({ name: trimmed });
      const nextBio = (bio ?? "").trim();
      if (nextBio !== current.linksConfig.bio) {
        await saveLinks.mutateAsync({
          // The links stay as they are: only the bio changes.
          links: current.links.map((l) => ({ id: l.id, title: l.title, url: l.url })),
          linksConfig: { bio: nextBio },
        });
      }
      toast.success("Page profile saved.");
      close();
    } catch {
      // Shown below the form by ActionError.
    }
  };

  return (
    <EditGate>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="md">
          <PageAddress />
          <Group gap="md" wrap="nowrap">
            <Avatar src={image} alt="" size={64} radius="xl">
              {account.displayName.slice(0, 1).toUpperCase()}
            </Avatar>
            <Button variant="light" onClick={() => overlays.switch(name, "editAvatar")}>
              Change picture
            </Button>
          </Group>
          <TextInput
            label="Name on the page"
            value={pageName}
            maxLength={120}
            error={nameError}
            onChange={(event) => setPageName(event.currentTarget.value)}
            data-autofocus
          />
          <Textarea
            label="Bio"
            description="A sentence or two under your name (at most 280 characters)."
            maxLength={280}
            autosize
            minRows={2}
            value={bio ?? ""}
            onChange={(event) => setBio(event.currentTarget.value)}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Social links
            </Text>
            <Text size="sm" c="dimmed" data-testid="page-social-links">
              {social.length === 0
                ? "None yet."
                : `${social.map(([key]) => key).join(", ")} (shown at the ${account.socialLinksPosition ?? "bottom"})`}
            </Text>
            <Button variant="subtle" w="fit-content" onClick={() => overlays.switch(name, "editSocial")}>
              Edit social links
            </Button>
          </Stack>
          <ActionError error={saveFields.error ?? saveLinks.error} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={saving}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </EditGate>
  );
}
