import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderAt } from "../../test/render.tsx";
import { MessageMedia } from "./message-media.tsx";

describe("a message's pictures", () => {
  it("shows https pictures and the server's own files as links, script and data URLs only as text", () => {
    const own = `${window.location.origin}/files/media/a.png`;
    const urls = [
      "https://cdn.example.com/a.png",
      own,
      "javascript:alert(document.cookie)",
      "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
      "http://tracker.example/pixel.png",
    ];
    renderAt("/", <MessageMedia urls={urls} />);
    const links = screen.getAllByRole("link").map((link) => link.getAttribute("href"));
    expect(links).toEqual(["https://cdn.example.com/a.png", own]);
    expect(screen.getAllByRole("img").map((img) => img.getAttribute("src"))).toEqual([
      "https://cdn.example.com/a.png",
      own,
    ]);
    expect(screen.getByText("Attachment not shown: javascript:alert(document.cookie)")).toBeTruthy();
    expect(
      document.querySelector('[href^="javascript:"], [src^="javascript:"], [href^="data:"], [src^="data:"]'),
    ).toBeNull();
  });
});
