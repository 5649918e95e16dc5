import {
  Alert,
  Button,
  Code,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Title,
  useComputedColorScheme,
} from "@mantine/core";
import { useViewportSize } from "@mantine/hooks";
import type { ReactNode } from "react";
import { useLocation } from "react-router";
import { confirm } from "../../components/confirm/confirm-store.ts";
import { useAccountInView } from "../../lib/account-context.ts";
import { describeAccount } from "../../lib/account-path.ts";
import { breakpointForWidth } from "../../lib/breakpoints.ts";
import { APP_VERSION, BUILD_TIME } from "../../lib/build-info.ts";
import { useEmbedded, useMobileApp } from "../../lib/environment.tsx";
import { toast } from "../../lib/toast.ts";
import { useOverlays } from "../../overlays/use-overlays.tsx";
import { useSystemInfo } from "./api.ts";

type Row = [label: string, value: ReactNode];

function Rows({ caption, rows }: { caption: string; rows: Row[] }) {
  return (
    <Stack gap={6}>
      <Title order={3} size="h5">
        {caption}
      </Title>
      <Table variant="vertical" layout="fixed" withTableBorder fz="sm">
        <Table.Tbody>
          {rows.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={150}>{label}</Table.Th>
              <Table.Td style={{ overflowWrap: "anywhere" }}>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

function ServerInfo() {
  const query = useSystemInfo();
  if (query.isPending) {
    return (
      <Group gap="xs">
        <Loader size="xs" />
        <Text size="sm">Loading server information…</Text>
      </Group>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" title="Server information could not be loaded">
        <Stack gap="xs">
          <Text size="sm">{query.error.message}</Text>
          <Button size="xs" variant="white" color="red" w="fit-content" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
  const info = query.data;
  return (
    <Rows
      caption="Server"
      rows={[
        ["Name", info.name],
        ["Version", info.version],
        ["Environment", info.environment],
        ["Database", info.database],
        ["Public URL", info.publicUrl],
        ["Instance", info.instanceId],
        ["Started", info.startedAt],
        ["Active instances", info.activeInstances],
      ]}
    />
  );
}

function yesNo(value: boolean): string {
  return value ? "yes" : "no";
}

/** `?debug`: what the app and the server report about themselves — only what the user may see. */
export function DebugOverlay() {
  const location = useLocation();
  const overlays = useOverlays();
  const account = useAccountInView();
  const embedded = useEmbedded();
  const mobileApp = useMobileApp();
  const scheme = useComputedColorScheme("light", { getInitialValueInEffect: false });
  const { width, height } = useViewportSize();

  const tryConfirm = async () => {
    const confirmed = await confirm({
      title: "Try the confirm dialog?",
      details: "Confirming waits one second, to show the loading state, then shows a toast.",
      confirmText: "Confirm",
      onConfirm: () => new Promise<void>((resolve) => window.setTimeout(resolve, 1000)),
    });
    if (confirmed) toast.success("Confirmed.");
  };

  return (
    <Stack gap="lg">
      <Rows
        caption="App"
        rows={[
          ["Version", APP_VERSION],
          ["Built", BUILD_TIME],
          ["Route", <Code key="route">{`${location.pathname}${location.search}${location.hash}`}</Code>],
          ["Account in view", account ? describeAccount(account) : "none"],
          [
            "Open overlays",
            overlays.openOverlays.map((overlay) => `${overlay.name}=${overlay.value}`).join(", ") || "none",
          ],
          ["Viewport", `${width} × ${height} px (${breakpointForWidth(width)})`],
          ["Theme", scheme],
          ["Embedded", yesNo(embedded)],
          [
            "Mobile app",
            mobileApp.isMobileApp
              ? `yes (${[
                  mobileApp.platform,
                  mobileApp.appVersion,
                  mobileApp.genericBrand ? "generic brand" : null,
                ]
                  .filter(Boolean)
                  .join(", ")})`
              : `no${mobileApp.genericBrand ? " (generic brand)" : ""}`,
          ],
        ]}
      />
      <ServerInfo />
      <Stack gap={6}>
        <Title order={3} size="h5">
          Try the shell
        </Title>
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={() => toast.info("This is a toast.")}>
            Show a toast
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            onClick={() => toast.error("This is an error toast.")}
          >
            Show an error toast
          </Button>
          <Button size="xs" variant="light" onClick={() => void tryConfirm()}>
            Try the confirm dialog
          </Button>
        </Group>
      </Stack>
    </Stack>
  );
}
