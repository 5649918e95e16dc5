/** Spec §8: a template save refused without a message, and one that never reached the server. */
export const TEMPLATE_SAVE_FAILED = "Failed to save template";
export const TEMPLATE_SAVE_UNREACHABLE = "Error saving template";
