import { Avatar, UnstyledButton } from "@mantine/core";
import { forwardRef } from "react";
import type { useAccountState } from "../lib/account-state.ts";

export function initialsOf(name: string): string {
  const words = name
    .trim()
    .split(/[\s@._-]+/)
    .filter(Boolean);
  return (
    words
      .slice(0, 2)
      .map((word) => word.charAt(0).toUpperCase())
      .join("") || "?"
  );
}

/** The name the user menu shows for the signed-in person. */
export function userNameOf(view: ReturnType<typeof useAccountState>["view"]): string {
  return view.user.fullName || view.user.email || view.homeAccount?.displayName || "You";
}

/** The avatar button that opens the user menu (also the menu's target once its chunk has loaded). */
export const UserMenuButton = forwardRef<
  HTMLButtonElement,
  { name: string; onClick?: () => void; onPointerEnter?: () => void }
>(function UserMenuButton({ name, ...props }, ref) {
  return (
    // The initials shown are part of the accessible name (WCAG 2.5.3, label in name).
    <UnstyledButton ref={ref} aria-label={`${initialsOf(name)}, user menu`} title={name} {...props}>
      <Avatar radius="xl" size={34} color="indigo">
        {initialsOf(name)}
      </Avatar>
    </UnstyledButton>
  );
});
