import { Button, Group, Modal, Stack, Text, ThemeIcon } from "@mantine/core";
import { DIALOG_TRANSITION_MS } from "@switchboard/core";
import {
  acceptConfirm,
  CONFIRM_DEFAULTS,
  cancelConfirm,
  clearConfirm,
  useConfirmState,
} from "./confirm-store.ts";

/** Shows the global confirm dialog; mount once, in the app providers. */
export function ConfirmHost() {
  const state = useConfirmState();
  if (!state) return null;
  const { id, options, opened, loading, error } = state;
  const hasHelp = Boolean(options.helpUrl || options.onHelp);
  return (
    <Modal
      opened={opened}
      onClose={() => cancelConfirm(id)}
      onExitTransitionEnd={() => clearConfirm(id)}
      title={options.title}
      withCloseButton={options.withCloseButton ?? false}
      closeButtonProps={{ "aria-label": "Close", disabled: loading }}
      closeOnEscape={!loading}
      closeOnClickOutside={!loading}
      transitionProps={{ duration: DIALOG_TRANSITION_MS }}
      centered
      size="sm"
      zIndex={300}
      data-testid="confirm-dialog"
    >
      <Stack gap="md">
        {options.icon ? (
          <ThemeIcon variant="light" size="xl" radius="xl">
            {options.icon}
          </ThemeIcon>
        ) : null}
        {options.details ? <Text size="sm">{options.details}</Text> : null}
        {error ? (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        ) : null}
        <Group justify={hasHelp ? "space-between" : "flex-end"} gap="sm">
          {hasHelp ? (
            <Button
              variant="subtle"
              disabled={loading}
              {...(options.helpUrl
                ? { component: "a", href: options.helpUrl, target: "_blank", rel: "noopener noreferrer" }
                : { onClick: options.onHelp })}
            >
              Help
            </Button>
          ) : null}
          <Group gap="sm">
            <Button
              variant={options.cancelColor ? "light" : "default"}
              color={options.cancelColor}
              disabled={loading}
              onClick={() => cancelConfirm(id)}
            >
              {options.cancelText ?? CONFIRM_DEFAULTS.cancelText}
            </Button>
            <Button
              color={options.confirmColor}
              loading={loading}
              onClick={() => void acceptConfirm(id)}
              data-autofocus
            >
              {options.confirmText ?? CONFIRM_DEFAULTS.confirmText}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
