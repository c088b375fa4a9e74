import { useState } from "react";

/**
 * A step's reasoning: open while it streams, folded to one line once the step moves on, so a long
 * turn is not a wall of repeated thoughts. A click opens or folds it for good.
 */
export function Reasoning({ text, streaming }: { text: string; streaming: boolean }) {
  const [chosen, setChosen] = useState<boolean | undefined>();
  const open = chosen ?? streaming;
  const firstLine = text.trim().split("\n")[0] ?? "";
  return (
    <div className="reasoning" data-testid="reasoning" data-open={open}>
      <button type="button" className="reasoning-toggle" aria-expanded={open} onClick={() => setChosen(!open)}>
        <span className="chevron" aria-hidden>{open ? "▾" : "▸"}</span>
        {streaming ? "Thinking…" : "Thought"}
        {!open && <span className="reasoning-preview">{firstLine}</span>}
      </button>
      {open && <div className="reasoning-text">{text}</div>}
    </div>
  );
}
