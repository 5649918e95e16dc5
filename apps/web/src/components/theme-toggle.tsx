import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from "@mantine/core";
import IconMoon from "@tabler/icons-react/dist/esm/icons/IconMoon.mjs";
import IconSun from "@tabler/icons-react/dist/esm/icons/IconSun.mjs";

/** Switches between the light and dark theme; the choice is kept in localStorage `theme`. */
export function ThemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme("light", { getInitialValueInEffect: false });
  const dark = scheme === "dark";
  return (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label="Dark theme"
      aria-pressed={dark}
      title={dark ? "Use the light theme" : "Use the dark theme"}
      onClick={() => setColorScheme(dark ? "light" : "dark")}
    >
      {dark ? <IconSun size={18} stroke={1.6} /> : <IconMoon size={18} stroke={1.6} />}
    </ActionIcon>
  );
}
