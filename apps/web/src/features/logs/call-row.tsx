import { Button, Menu, Table } from "@mantine/core";
import { memo, useState } from "react";
import { type CellContext, formatCell, keepsOnOneLine } from "./log-format.ts";
import type { Dialog, Row } from "./row-dialog.tsx";

type DialogKind = NonNullable<Dialog>["kind"];

const ONE_LINE = { whiteSpace: "nowrap" } as const;

type CallRowProps = {
  row: Row;
  columns: string[];
  cellContext: (field: string, row: Row) => CellContext;
  canInspectJSON: boolean;
  openTranscript: (row: Row) => void;
  openDialog: (kind: DialogKind, row: Row) => void;
};

/**
 * A row of the Calls table. Memoised: the page re-renders when the agents' time zones or the query state
 * change, and a page has up to 250 rows (issue #23: total blocking time).
 */
export const CallRow = memo(function CallRow({
  row,
  columns,
  cellContext,
  canInspectJSON,
  openTranscript,
  openDialog,
}: CallRowProps) {
  return (
    <Table.Tr>
      {columns.map((column) => {
        const context = cellContext(column, row);
        return (
          <Table.Td key={column} style={keepsOnOneLine(column, context) ? ONE_LINE : undefined}>
            {formatCell(column, row[column], context)}
          </Table.Td>
        );
      })}
      <Table.Td style={ONE_LINE}>
        <Button size="compact-xs" variant="light" disabled={!row.roomId} onClick={() => openTranscript(row)}>
          Transcript
        </Button>{" "}
        <CallMenu row={row} canInspectJSON={canInspectJSON} openDialog={openDialog} />
      </Table.Td>
    </Table.Tr>
  );
});

/**
 * The row's "More" menu. Its popover is built on the first click, not with the row: a hundred menus, each
 * with its floating position, focus trap and transition, were most of the page's first render.
 */
function CallMenu({
  row,
  canInspectJSON,
  openDialog,
}: {
  row: Row;
  canInspectJSON: boolean;
  openDialog: (kind: DialogKind, row: Row) => void;
}) {
  const [opened, setOpened] = useState(false);
  const [built, setBuilt] = useState(false);
  const trigger = (
    <Button
      size="compact-xs"
      variant="subtle"
      aria-label="More about this call"
      aria-haspopup="menu"
      aria-expanded={opened}
      onClick={
        built
          ? undefined
          : () => {
              setBuilt(true);
              setOpened(true);
            }
      }
    >
      More
    </Button>
  );
  if (!built) return trigger;
  return (
    <Menu opened={opened} onChange={setOpened} position="bottom-end" withinPortal>
      <Menu.Target>{trigger}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => openDialog("details", row)}>Call details</Menu.Item>
        <Menu.Item onClick={() => openDialog("stats", row)}>Call stats</Menu.Item>
        <Menu.Item onClick={() => openDialog("data", row)}>Collected data</Menu.Item>
        {canInspectJSON ? <Menu.Item onClick={() => openDialog("json", row)}>View JSON</Menu.Item> : null}
      </Menu.Dropdown>
    </Menu>
  );
}
