import { Button, FileButton, Group, Image, Stack, Text } from "@mantine/core";
import { PROFILE_IMAGE_MAX_BYTES } from "@switchboard/api";
import { type FormEvent, useEffect, useState } from "react";
import { ActionError } from "../../components/query-state.tsx";
import { useAccountState } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useUploadAvatar } from "./api.ts";
import { Buttons, detail, EditGate, useBackToSettings } from "./edit-form-parts.tsx";

const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];

/** Checks a chosen image before upload (the server checks again, by content). */
export function checkAvatarFile(file: { type: string; size: number }): string | null {
  if (!IMAGE_TYPES.includes(file.type)) return "The image must be a PNG, JPEG, WebP or GIF file.";
  if (file.size > PROFILE_IMAGE_MAX_BYTES) return "The image is larger than 2 MB.";
  return null;
}

/** `?editAvatar`: upload a profile image (PNG, JPEG, WebP or GIF, at most 2 MB). */
export function EditAvatarOverlay({ name }: OverlayComponentProps) {
  const { view } = useAccountState();
  const back = useBackToSettings(name);
  const upload = useUploadAvatar();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const current = detail(view.account.details, "image");

  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const choose = (chosen: File | null) => {
    upload.reset();
    if (!chosen) return;
    const error = checkAvatarFile(chosen);
    setProblem(error);
    setFile(error ? null : chosen);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    upload.mutate(file, {
      onSuccess: () => {
        toast.success("Profile image saved.");
        back();
      },
    });
  };
  const shown = preview ?? (current || null);
  return (
    <EditGate>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {shown ? (
            <Image src={shown} alt="Profile image" h={120} w={120} radius="50%" fit="cover" />
          ) : (
            <Text size="sm" c="dimmed">
              No profile image yet.
            </Text>
          )}
          <Group>
            <FileButton onChange={choose} accept={IMAGE_TYPES.join(",")}>
              {(props) => (
                <Button variant="light" {...props}>
                  Choose an image
                </Button>
              )}
            </FileButton>
            {file ? (
              <Text size="sm" c="dimmed">
                {file.name}
              </Text>
            ) : null}
          </Group>
          {problem ? (
            <Text size="sm" c="red" role="alert">
              {problem}
            </Text>
          ) : null}
          {upload.isError ? <ActionError error={upload.error} /> : null}
          <Buttons onBack={back} submitting={upload.isPending} label="Upload" disabled={!file} />
        </Stack>
      </form>
    </EditGate>
  );
}
