import { NativeSelect, Stack, Text, TextInput } from "@mantine/core";
import { socialLinksSchema } from "@switchboard/api";
import { type FormEvent, useState } from "react";
import { ActionError } from "../../components/query-state.tsx";
import { useAccountState } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import type { OverlayComponentProps } from "../../overlays/overlay-props.ts";
import { useSaveSocialLinks } from "./api.ts";
import { Buttons, EditGate, useBackToSettings } from "./edit-form-parts.tsx";

const NETWORKS = [
  ["website", "Website"],
  ["facebook", "Facebook"],
  ["instagram", "Instagram"],
  ["linkedin", "LinkedIn"],
  ["x", "X (Twitter)"],
  ["youtube", "YouTube"],
  ["tiktok", "TikTok"],
] as const;

/** `?editSocial`: the account's social links and where they show on its profile. */
export function EditSocialOverlay({ name }: OverlayComponentProps) {
  const { view } = useAccountState();
  const back = useBackToSettings(name);
  const save = useSaveSocialLinks();
  const { account } = view;
  const [links, setLinks] = useState<Record<string, string>>(() => ({
    ...Object.fromEntries(NETWORKS.map(([key]) => [key, ""])),
    ...account.socialLinks,
  }));
  const [position, setPosition] = useState(account.socialLinksPosition ?? "bottom");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const present = Object.fromEntries(Object.entries(links).filter(([, value]) => value.trim() !== ""));
    const parsed = socialLinksSchema.safeParse(present);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = issue.path[0];
        if (typeof key === "string" && !next[key]) next[key] = issue.message;
        else if (!next._) next._ = issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    save.mutate(
      { socialLinks: parsed.data, socialLinksPosition: position },
      {
        onSuccess: () => {
          toast.success("Social links saved.");
          back();
        },
      },
    );
  };
  const known = new Set<string>(NETWORKS.map(([key]) => key));
  const others = Object.keys(links).filter((key) => !known.has(key));
  return (
    <EditGate>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {[...NETWORKS, ...others.map((key) => [key, key] as const)].map(([key, label]) => (
            <TextInput
              key={key}
              label={label}
              placeholder={key === "website" ? "https://example.com" : "https://… or @handle"}
              value={links[key] ?? ""}
              error={errors[key]}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setLinks((current) => ({ ...current, [key]: value }));
              }}
            />
          ))}
          <NativeSelect
            label="Position on the profile"
            data={[
              { value: "top", label: "Top" },
              { value: "bottom", label: "Bottom" },
            ]}
            value={position}
            onChange={(event) => setPosition(event.currentTarget.value)}
          />
          {errors._ ? (
            <Text size="sm" c="red">
              {errors._}
            </Text>
          ) : null}
          <ActionError error={save.error} />
          <Buttons onBack={back} submitting={save.isPending} />
        </Stack>
      </form>
    </EditGate>
  );
}
