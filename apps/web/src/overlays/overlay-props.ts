import type { OverlayName } from "./overlay-names.ts";

/** Props every overlay component receives from the OverlayHost. */
export type OverlayComponentProps = {
  name: OverlayName;
  /** The query value: "true" when opened without one. */
  value: string;
  close: () => void;
};
