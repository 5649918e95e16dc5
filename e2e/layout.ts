import type { Page } from "@playwright/test";

// The narrow-layout check (issue #23 item 9), shared by the journeys that measure their pages at 550 px:
// no page scrolls sideways (document.scrollingElement.scrollWidth <= innerWidth), no control lies past the
// right edge of the screen, and no control is clipped
// (a button, link, label, tab or switch, or anything inside one, whose content is wider than its box; text
// ending in an ellipsis is cut on purpose and allowed).

/** What is wrong with the layout of the page as shown: sideways scrolling and clipped controls. */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > window.innerWidth)
      problems.push(`the page scrolls sideways: ${root.scrollWidth} px wide in ${window.innerWidth} px`);
    const nameOf = (element: Element) => {
      const text = (element.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      const name = element.getAttribute("aria-label") ?? element.getAttribute("data-testid") ?? "";
      const control = element.closest(
        'button, a[href], label, [role="button"], [role="tab"], [role="switch"], [role="radio"], [role="menuitem"]',
      );
      const within =
        control && control !== element
          ? ` in <${control.tagName.toLowerCase()}> "${(control.getAttribute("aria-label") ?? control.textContent ?? "").trim().slice(0, 40)}"`
          : "";
      return `<${element.tagName.toLowerCase()} class="${element.className}"${name ? ` "${name}"` : ""}> "${text}"${within}`;
    };
    const controls = document.querySelectorAll(
      'button, a[href], label, [role="button"], [role="tab"], [role="switch"], [role="radio"], [role="menuitem"]',
    );
    // A control past the right edge of the screen (a header that does not fit), unless a box that scrolls
    // or clips sideways holds it.
    const heldSideways = (element: Element) => {
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement)
        if (["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(up).overflowX)) return true;
      return false;
    };
    for (const control of Array.from(controls)) {
      const box = control.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(control).visibility === "hidden") continue;
      if (box.right > window.innerWidth + 1 && !heldSideways(control))
        problems.push(`off screen: ${nameOf(control)} reaches ${Math.round(box.right)} px`);
    }
    const seen = new Set<Element>();
    for (const control of Array.from(controls)) {
      for (const element of [control, ...Array.from(control.querySelectorAll("*"))]) {
        if (seen.has(element) || !(element instanceof HTMLElement)) continue;
        seen.add(element);
        const box = element.getBoundingClientRect();
        // Hidden (closed navbar, inactive panels) or inline boxes, which have no width of their own.
        if (box.width === 0 || box.height === 0 || element.clientWidth === 0) continue;
        if (box.right <= 0 || box.left >= window.innerWidth) continue;
        const style = getComputedStyle(element);
        if (style.visibility === "hidden") continue;
        // Text cut short on purpose with an ellipsis (message previews, long names) shows that it is cut.
        if (style.textOverflow === "ellipsis") continue;
        // The control itself, and what inside it carries text (a switch's track or an icon is drawn by
        // the component and may overhang its box by design).
        const ownText = Array.from(element.childNodes).some(
          (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? "").trim() !== "",
        );
        if (element !== control && !ownText) continue;
        if (element.scrollWidth > element.clientWidth + 1)
          problems.push(
            `clipped: ${nameOf(element)} needs ${element.scrollWidth} px, has ${element.clientWidth} px`,
          );
      }
    }
    return problems;
  });
}
