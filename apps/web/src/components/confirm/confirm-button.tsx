import { Button } from "@mantine/core";
import type { ReactNode } from "react";
import { type ConfirmOptions, confirm } from "./confirm-store.ts";

/** A small row action that asks first (the confirm dialog), then runs `onConfirm`: revoke, delete, rotate. */
export function ConfirmButton({
  children,
  color,
  ...options
}: ConfirmOptions & { children: ReactNode; color?: string }) {
  return (
    <Button size="compact-xs" variant="subtle" color={color} onClick={() => void confirm(options)}>
      {children}
    </Button>
  );
}
