import { Text } from "@mantine/core";
import type { OverlayComponentProps } from "../../overlays/registry.ts";

export function OnboardingOverlay(_props: OverlayComponentProps) {
  return <Text>The onboarding wizard is being built.</Text>;
}
