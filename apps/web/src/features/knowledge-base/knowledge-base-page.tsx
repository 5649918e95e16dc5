import {
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  FileInput,
  Group,
  Progress,
  ScrollArea,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
} from "@mantine/core";
import {
  KB_FILE_MAX_BYTES,
  type KbDocument,
  type KbPassage,
  type KbProgress,
  type KnowledgeBase,
} from "@switchboard/api";
import { countOf } from "@switchboard/core";
import { type FormEvent, useState } from "react";
import { ConfirmButton } from "../../components/confirm/confirm-button.tsx";
import { ActionError, EmptyState, ErrorState, LoadingState } from "../../components/query-state.tsx";
import { usePermission } from "../../lib/account-state.ts";
import { toast } from "../../lib/toast.ts";
import { useTimeFormat } from "../../lib/use-time-format.ts";
import {
  useAddDocuments,
  useCreateKnowledgeBase,
  useDeleteDocument,
  useDeleteKnowledgeBase,
  useDiscoverSitemap,
  useKnowledgeBase,
  useKnowledgeBases,
  useQueryKnowledgeBase,
  useRefreshDocument,
  useUploadDocument,
} from "./api.ts";

const STATE_COLORS: Record<KbDocument["state"], string> = {
  queued: "gray",
  fetching: "blue",
  indexed: "green",
  failed: "red",
};

function progressText(progress: KbProgress): string {
  if (progress.total === 0) return "No documents yet";
  const parts = [`${progress.indexed} of ${progress.total} indexed`];
  const working = progress.queued + progress.fetching;
  if (working > 0) parts.push(`${working} in progress`);
  if (progress.failed > 0) parts.push(`${progress.failed} failed`);
  return parts.join(", ");
}

function ProgressLine({ progress }: { progress: KbProgress }) {
  const done = progress.indexed + progress.failed;
  const value = progress.total === 0 ? 0 : (done / progress.total) * 100;
  return (
    <Stack gap={4}>
      <Text size="sm" c="dimmed" aria-live="polite" data-testid="kb-progress">
        {progressText(progress)}
      </Text>
      {progress.total > 0 ? (
        <Progress
          value={value}
          aria-label="Indexing progress"
          color={progress.failed > 0 && done === progress.total ? "yellow" : "blue"}
          animated={done < progress.total}
        />
      ) : null}
    </Stack>
  );
}

function CreateForm({ onCreated }: { onCreated: (id: number) => void }) {
  const [title, setTitle] = useState("");
  const create = useCreateKnowledgeBase();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(title.trim(), {
      onSuccess: (answer) => {
        setTitle("");
        onCreated(answer.knowledgeBase.id);
        toast.success("Knowledge base created.");
      },
    });
  };
  return (
    <form onSubmit={submit} aria-label="Create a knowledge base">
      <Stack gap="xs">
        <Group align="flex-end" gap="xs">
          <TextInput
            label="New knowledge base"
            placeholder="Our website"
            required
            maxLength={200}
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button type="submit" loading={create.isPending} disabled={!title.trim()}>
            Create
          </Button>
        </Group>
        <ActionError error={create.error} />
      </Stack>
    </form>
  );
}

function AddByUrl({ id }: { id: number }) {
  const [url, setUrl] = useState("");
  const add = useAddDocuments(id);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ url: url.trim() }, { onSuccess: () => setUrl("") });
  };
  return (
    <form onSubmit={submit} aria-label="Add a web page">
      <Stack gap="xs">
        <Group align="flex-end" gap="xs">
          <TextInput
            label="Web page address"
            placeholder="https://example.com/faq"
            required
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button type="submit" loading={add.isPending} disabled={!url.trim()}>
            Add page
          </Button>
        </Group>
        <ActionError error={add.error} />
      </Stack>
    </form>
  );
}

function AddBySitemap({ id }: { id: number }) {
  const [url, setUrl] = useState("");
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const discover = useDiscoverSitemap();
  const add = useAddDocuments(id);
  const urls = discover.data?.urls ?? [];
  const read = (event: FormEvent) => {
    event.preventDefault();
    add.reset();
    discover.mutate(url.trim(), { onSuccess: (answer) => setPicked(new Set(answer.urls)) });
  };
  const toggle = (page: string, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(page);
    else next.delete(page);
    setPicked(next);
  };
  const addPicked = () =>
    add.mutate(
      { urls: urls.filter((page) => picked.has(page)) },
      {
        onSuccess: (answer) => {
          toast.success(`${countOf(answer.documents.length, "page")} queued.`);
          discover.reset();
          setUrl("");
        },
      },
    );
  return (
    <Stack gap="xs">
      <form onSubmit={read} aria-label="Read a sitemap">
        <Group align="flex-end" gap="xs">
          <TextInput
            label="Sitemap address"
            placeholder="https://example.com/sitemap.xml"
            required
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button type="submit" variant="light" loading={discover.isPending} disabled={!url.trim()}>
            Read sitemap
          </Button>
        </Group>
      </form>
      <ActionError error={discover.error} />
      {discover.data ? (
        <Card withBorder padding="sm">
          <Stack gap="xs">
            <Group justify="space-between">
              <Text size="sm">
                {countOf(urls.length, "page")} listed
                {discover.data.truncated ? " (only the first are shown)" : ""}; {picked.size} chosen
              </Text>
              <Group gap="xs">
                <Button size="compact-xs" variant="subtle" onClick={() => setPicked(new Set(urls))}>
                  Select all
                </Button>
                <Button size="compact-xs" variant="subtle" onClick={() => setPicked(new Set())}>
                  Select none
                </Button>
              </Group>
            </Group>
            <ScrollArea.Autosize mah={240}>
              <Stack gap={4}>
                {urls.map((page) => (
                  <Checkbox
                    key={page}
                    label={page}
                    checked={picked.has(page)}
                    onChange={(e) => toggle(page, e.currentTarget.checked)}
                  />
                ))}
              </Stack>
            </ScrollArea.Autosize>
            <Button w="fit-content" onClick={addPicked} loading={add.isPending} disabled={picked.size === 0}>
              Add {picked.size} {picked.size === 1 ? "page" : "pages"}
            </Button>
            <ActionError error={add.error} />
          </Stack>
        </Card>
      ) : null}
    </Stack>
  );
}

function AddByFile({ id }: { id: number }) {
  const [file, setFile] = useState<File | null>(null);
  const upload = useUploadDocument(id);
  const tooLarge = file !== null && file.size > KB_FILE_MAX_BYTES;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file || tooLarge) return;
    upload.mutate(file, { onSuccess: () => setFile(null) });
  };
  return (
    <form onSubmit={submit} aria-label="Upload a file">
      <Stack gap="xs">
        <Group align="flex-end" gap="xs">
          <FileInput
            label="File (PDF, text, Markdown, HTML or CSV; at most 10 MB)"
            placeholder="Choose a file"
            accept=".pdf,.txt,.md,.markdown,.html,.htm,.csv,application/pdf,text/plain,text/markdown,text/html,text/csv"
            value={file}
            onChange={setFile}
            clearable
            error={tooLarge ? "The file is larger than 10 MB." : undefined}
            style={{ flex: 1 }}
          />
          <Button type="submit" loading={upload.isPending} disabled={!file || tooLarge}>
            Upload
          </Button>
        </Group>
        <ActionError error={upload.error} />
      </Stack>
    </form>
  );
}

function AddByText({ id }: { id: number }) {
  const [title, setTitle] = useState("");
  const [text, setText] = useState("");
  const add = useAddDocuments(id);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(
      { title: title.trim(), text },
      {
        onSuccess: () => {
          setTitle("");
          setText("");
        },
      },
    );
  };
  return (
    <form onSubmit={submit} aria-label="Add text">
      <Stack gap="xs">
        <TextInput
          label="Title"
          placeholder="Opening hours"
          maxLength={300}
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
        />
        <Textarea
          label="Text"
          placeholder="Paste the text your agent should know."
          required
          autosize
          minRows={4}
          maxRows={12}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
        />
        <Button type="submit" w="fit-content" loading={add.isPending} disabled={!text.trim()}>
          Add text
        </Button>
        <ActionError error={add.error} />
      </Stack>
    </form>
  );
}

function DocumentRow({ kbId, document, canEdit }: { kbId: number; document: KbDocument; canEdit: boolean }) {
  const times = useTimeFormat();
  const refresh = useRefreshDocument(kbId);
  const remove = useDeleteDocument(kbId);
  const source =
    document.sourceKind === "url" ? "Web page" : document.sourceKind === "file" ? "File" : "Text";
  return (
    <Table.Tr data-testid="kb-document">
      <Table.Td>
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {document.title}
          </Text>
          {document.url ? (
            <Anchor href={document.url} target="_blank" rel="noreferrer" size="xs" c="dimmed">
              {document.url}
            </Anchor>
          ) : (
            <Text size="xs" c="dimmed">
              {document.fileName ?? source}
            </Text>
          )}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{source}</Text>
      </Table.Td>
      <Table.Td>
        <Stack gap={2}>
          <Badge color={STATE_COLORS[document.state]} variant="light" data-testid="kb-document-state">
            {document.state}
          </Badge>
          {document.state === "failed" && document.reason ? (
            <Text size="xs" c="red">
              {document.reason}
            </Text>
          ) : null}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{document.passages}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="xs" c="dimmed">
          {document.indexedAt ? times.format(document.indexedAt, "shortDateTime") : "—"}
        </Text>
      </Table.Td>
      {canEdit ? (
        <Table.Td>
          <Group gap={4} wrap="nowrap">
            {document.sourceKind === "url" ? (
              <Button
                size="compact-xs"
                variant="subtle"
                loading={refresh.isPending}
                onClick={() =>
                  refresh.mutate(document.id, { onError: (error) => toast.error(error.message) })
                }
              >
                Refresh
              </Button>
            ) : null}
            <ConfirmButton
              color="red"
              title={`Delete ${document.title}?`}
              details="Its passages are removed and agents no longer find them."
              confirmText="Delete"
              confirmColor="red"
              onConfirm={async () => {
                await remove.mutateAsync(document.id);
                toast.success("Document deleted.");
              }}
            >
              Delete
            </ConfirmButton>
          </Group>
        </Table.Td>
      ) : null}
    </Table.Tr>
  );
}

function Passage({ passage }: { passage: KbPassage }) {
  return (
    <Card withBorder padding="sm" data-testid="kb-passage">
      <Stack gap={4}>
        <Group justify="space-between" gap="xs">
          <Text size="sm" fw={600}>
            {passage.title}
          </Text>
          <Text size="xs" c="dimmed">
            score {passage.score.toFixed(3)}
          </Text>
        </Group>
        {passage.url ? (
          <Anchor href={passage.url} target="_blank" rel="noreferrer" size="xs">
            {passage.url}
          </Anchor>
        ) : null}
        <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
          {passage.text}
        </Text>
      </Stack>
    </Card>
  );
}

function TryQuestion({ id }: { id: number }) {
  const [question, setQuestion] = useState("");
  const search = useQueryKnowledgeBase(id);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    search.mutate(question.trim());
  };
  return (
    <Card withBorder padding="lg">
      <Stack gap="sm">
        <Title order={4}>Try a question</Title>
        <form onSubmit={submit} aria-label="Try a question">
          <Group align="flex-end" gap="xs">
            <TextInput
              label="Question"
              placeholder="What are your opening hours?"
              required
              maxLength={1000}
              value={question}
              onChange={(e) => setQuestion(e.currentTarget.value)}
              style={{ flex: 1 }}
            />
            <Button type="submit" variant="light" loading={search.isPending} disabled={!question.trim()}>
              Search
            </Button>
          </Group>
        </form>
        <ActionError error={search.error} />
        {search.data && search.data.passages.length === 0 ? (
          <Text c="dimmed">No passage matches this question.</Text>
        ) : null}
        {search.data?.passages.map((passage) => (
          <Passage key={passage.chunkId} passage={passage} />
        ))}
      </Stack>
    </Card>
  );
}

function KnowledgeBaseDetail({
  id,
  canEdit,
  onDeleted,
}: {
  id: number;
  canEdit: boolean;
  onDeleted: () => void;
}) {
  const kb = useKnowledgeBase(id);
  const remove = useDeleteKnowledgeBase();
  const refresh = useRefreshDocument(id);
  if (kb.isPending) return <LoadingState label="Loading the knowledge base…" />;
  if (kb.isError) return <ErrorState error={kb.error} onRetry={() => void kb.refetch()} />;
  const { knowledgeBase, documents } = kb.data;
  const webPages = documents.filter((document) => document.sourceKind === "url");
  const refreshAll = async () => {
    for (const document of webPages) await refresh.mutateAsync(document.id).catch(() => {});
    toast.success(`${countOf(webPages.length, "page")} queued for refresh.`);
  };
  return (
    <Stack gap="md">
      <Card withBorder padding="lg" aria-label={`Knowledge base ${knowledgeBase.title}`}>
        <Stack gap="md">
          <Group justify="space-between">
            <Title order={3}>{knowledgeBase.title}</Title>
            {canEdit ? (
              <Group gap="xs">
                {webPages.length > 0 ? (
                  <Tooltip label="Fetch every web page again; only changed pages are re-indexed">
                    <Button
                      size="xs"
                      variant="light"
                      loading={refresh.isPending}
                      onClick={() => void refreshAll()}
                    >
                      Refresh all pages
                    </Button>
                  </Tooltip>
                ) : null}
                <ConfirmButton
                  color="red"
                  title={`Delete the knowledge base ${knowledgeBase.title}?`}
                  details="Its documents and passages are removed, and agents given it no longer search it."
                  confirmText="Delete"
                  confirmColor="red"
                  onConfirm={async () => {
                    await remove.mutateAsync(id);
                    onDeleted();
                    toast.success("Knowledge base deleted.");
                  }}
                >
                  Delete knowledge base
                </ConfirmButton>
              </Group>
            ) : null}
          </Group>
          <ProgressLine progress={knowledgeBase.progress} />
          {canEdit ? (
            <Tabs defaultValue="url" keepMounted={false}>
              <Tabs.List>
                <Tabs.Tab value="url">Web page</Tabs.Tab>
                <Tabs.Tab value="sitemap">Sitemap</Tabs.Tab>
                <Tabs.Tab value="file">File</Tabs.Tab>
                <Tabs.Tab value="text">Text</Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="url" pt="sm">
                <AddByUrl id={id} />
              </Tabs.Panel>
              <Tabs.Panel value="sitemap" pt="sm">
                <AddBySitemap id={id} />
              </Tabs.Panel>
              <Tabs.Panel value="file" pt="sm">
                <AddByFile id={id} />
              </Tabs.Panel>
              <Tabs.Panel value="text" pt="sm">
                <AddByText id={id} />
              </Tabs.Panel>
            </Tabs>
          ) : null}
          {documents.length === 0 ? (
            <EmptyState>
              No documents yet. Add a web page, the pages of a sitemap, a file or some text.
            </EmptyState>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="xs" aria-label="Documents">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Document</Table.Th>
                    <Table.Th>Source</Table.Th>
                    <Table.Th>State</Table.Th>
                    <Table.Th>Passages</Table.Th>
                    <Table.Th>Indexed</Table.Th>
                    {canEdit ? <Table.Th /> : null}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {documents.map((document) => (
                    <DocumentRow key={document.id} kbId={id} document={document} canEdit={canEdit} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      </Card>
      <TryQuestion id={id} />
    </Stack>
  );
}

function KnowledgeBaseList({
  knowledgeBases,
  selected,
  onSelect,
}: {
  knowledgeBases: KnowledgeBase[];
  selected: number | null;
  onSelect: (id: number) => void;
}) {
  return (
    <Stack gap="xs" role="list" aria-label="Knowledge bases">
      {knowledgeBases.map((kb) => (
        <Card
          key={kb.id}
          withBorder
          padding="sm"
          role="listitem"
          style={{
            cursor: "pointer",
            borderColor: kb.id === selected ? "var(--mantine-color-blue-5)" : undefined,
          }}
          onClick={() => onSelect(kb.id)}
        >
          <Group justify="space-between" wrap="nowrap">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Text fw={600} truncate="end">
                {kb.title}
              </Text>
              <Text size="xs" c="dimmed">
                {progressText(kb.progress)} · {countOf(kb.passages, "passage")}
              </Text>
            </Stack>
            <Button
              size="compact-xs"
              style={{ flexShrink: 0 }}
              variant={kb.id === selected ? "filled" : "light"}
              onClick={(event) => {
                event.stopPropagation();
                onSelect(kb.id);
              }}
            >
              Open
            </Button>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

/** The organisation's knowledge bases: documents by URL, sitemap, file or text, their indexing, and a search. */
export function KnowledgeBasePage() {
  const canEdit = usePermission("canEditOrg");
  const list = useKnowledgeBases();
  const [chosen, setChosen] = useState<number | null>(null);
  const knowledgeBases = list.data?.knowledgeBases ?? [];
  const selected = knowledgeBases.some((kb) => kb.id === chosen) ? chosen : (knowledgeBases[0]?.id ?? null);
  return (
    <Stack gap="lg" p="md">
      <Stack gap={4}>
        <Title order={1}>Knowledge base</Title>
        <Text c="dimmed">
          Web pages, files and text your agents look up when they answer. Give an agent a knowledge base under
          Knowledge in the agent editor.
        </Text>
      </Stack>
      {list.isPending ? <LoadingState label="Loading the knowledge bases…" /> : null}
      {list.isError ? <ErrorState error={list.error} onRetry={() => void list.refetch()} /> : null}
      {list.data ? (
        <Group align="flex-start" gap="lg" wrap="wrap">
          <Stack gap="md" w={320} maw="100%">
            {canEdit ? <CreateForm onCreated={setChosen} /> : null}
            {knowledgeBases.length === 0 ? (
              <EmptyState>No knowledge base yet. Create one, then add your website or documents.</EmptyState>
            ) : (
              <KnowledgeBaseList knowledgeBases={knowledgeBases} selected={selected} onSelect={setChosen} />
            )}
          </Stack>
          <Stack style={{ flex: 1, minWidth: 320 }}>
            {selected !== null ? (
              <KnowledgeBaseDetail
                key={selected}
                id={selected}
                canEdit={canEdit}
                onDeleted={() => setChosen(null)}
              />
            ) : null}
          </Stack>
        </Group>
      ) : null}
    </Stack>
  );
}
