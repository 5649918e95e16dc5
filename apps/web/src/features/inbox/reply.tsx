import { ActionIcon, Button, FileButton, Group, Image, Stack, Textarea, Tooltip } from "@mantine/core";
import IconPaperclip from "@tabler/icons-react/dist/esm/icons/IconPaperclip.mjs";
import { type FormEvent, useState } from "react";
import { errorMessage } from "../../lib/shell-api.ts";
import { toast } from "../../lib/toast.ts";
import { uploadMedia, useSendMessage } from "./api.ts";

export function Reply(props: { roomId: string; disabled: boolean }) {
  const send = useSendMessage(props.roomId);
  const [text, setText] = useState("");
  const [media, setMedia] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim() && media.length === 0) return;
    send.mutate(
      { text: text.trim(), media },
      {
        onSuccess: () => {
          setText("");
          setMedia([]);
        },
        onError: (error) => toast.error(errorMessage(error)),
      },
    );
  };
  return (
    <form onSubmit={submit}>
      <Stack gap="xs" mt="sm">
        {media.length > 0 ? (
          <Group gap="xs">
            {media.map((url) => (
              <Image key={url} src={url} alt="Picture to send" h={48} w={48} radius="sm" />
            ))}
          </Group>
        ) : null}
        <Group align="flex-end" wrap="nowrap" gap="xs">
          <Textarea
            style={{ flex: 1 }}
            autosize
            minRows={1}
            maxRows={5}
            placeholder={props.disabled ? "This number is blocked." : "Write a text message"}
            aria-label="Reply"
            value={text}
            disabled={props.disabled}
            onChange={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && !e.shiftKey) submit(e);
            }}
          />
          <FileButton
            accept="image/png,image/jpeg,image/gif,image/webp"
            onChange={async (file) => {
              if (!file) return;
              setUploading(true);
              try {
                const url = await uploadMedia(file);
                setMedia((current) => [...current, url]);
              } catch (error) {
                toast.error(errorMessage(error));
              } finally {
                setUploading(false);
              }
            }}
          >
            {(buttonProps) => (
              <Tooltip label="Attach a picture">
                <ActionIcon
                  {...buttonProps}
                  size="lg"
                  variant="default"
                  loading={uploading}
                  aria-label="Attach a picture"
                  disabled={props.disabled}
                >
                  <IconPaperclip size={18} />
                </ActionIcon>
              </Tooltip>
            )}
          </FileButton>
          <Button type="submit" loading={send.isPending} disabled={props.disabled}>
            Send
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
