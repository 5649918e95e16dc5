import { Center, Stack, Text, Title } from "@mantine/core";

/** /mobile/start: where the mobile app lands after signing out (spec §2.2). */
export function MobileStartPage() {
  return (
    <Center mih="100vh" p="md">
      <Stack align="center" gap="sm" maw={420} ta="center">
        <Title order={1}>Switchboard</Title>
        <Text>You are signed out. Sign in again from the app to continue.</Text>
      </Stack>
    </Center>
  );
}
