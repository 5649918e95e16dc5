import { ActionIcon } from "@mantine/core";
import { useHotkeys } from "@mantine/hooks";
import IconSearch from "@tabler/icons-react/dist/esm/icons/IconSearch.mjs";
import { useOverlays } from "../../overlays/use-overlays.tsx";

/** The header's search: opens the `search` overlay (also Ctrl+K or ⌘K). */
export function SearchButton() {
  const overlays = useOverlays();
  useHotkeys([["mod+K", () => overlays.open("search")]]);
  return (
    <ActionIcon
      variant="subtle"
      size="lg"
      aria-label="Search (Ctrl+K)"
      onClick={() => overlays.open("search")}
    >
      <IconSearch size={20} />
    </ActionIcon>
  );
}
