import { Anchor, Image, Text } from "@mantine/core";
import { isSafeMediaUrl } from "@switchboard/core";

/**
 * A message's pictures. Only https URLs and this server's own files are shown as a picture and a link;
 * anything else (a `javascript:` or `data:` URL stored before the server refused them) is plain text,
 * so a click can never run it.
 */
export function MessageMedia({
  urls,
  ownOrigin = window.location.origin,
}: {
  urls: string[];
  ownOrigin?: string;
}) {
  return urls.map((url) =>
    isSafeMediaUrl(url, ownOrigin) ? (
      <Anchor key={url} href={url} target="_blank" rel="noreferrer noopener">
        <Image src={url} alt="Attached picture" maw={240} radius="sm" mt={4} />
      </Anchor>
    ) : (
      <Text key={url} size="xs" c="dimmed" mt={4} style={{ wordBreak: "break-all" }}>
        Attachment not shown: {url}
      </Text>
    ),
  );
}
