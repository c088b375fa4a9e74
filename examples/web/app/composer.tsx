import { useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import type { WhileBusy } from "./api.ts";

/**
 * The prompt box: Enter sends, Shift+Enter starts a new line. While a run streams the box stays
 * open: Enter steers the message into the running turn (the agent reads it at its next step), or —
 * with the switch on "Queue", or Alt+Enter — queues it for a turn of its own after this one; the
 * Stop button (Esc too, handled by the chat) stops the run. The box grows with its text up to a few lines.
 */
export function Composer(props: {
  /** The text in the box, kept by the chat (an example or an unsent message can be put back). */
  text: string;
  onText: (text: string) => void;
  busy: boolean;
  disabled?: boolean;
  placeholder?: string;
  onSend: (text: string) => void;
  /** A message typed while the run streams, and whether it steers the run or queues after it. */
  onSendWhileBusy?: (text: string, whileBusy: WhileBusy) => void;
  onStop: () => void;
}) {
  const { text, onText: setText } = props;
  const [mode, setMode] = useState<WhileBusy>("steer");
  const box = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${Math.min(element.scrollHeight, 200)}px`;
  }, [text]);

  const send = (whileBusy: WhileBusy = mode) => {
    if (!text.trim() || props.disabled) return;
    if (!props.busy) props.onSend(text);
    else if (props.onSendWhileBusy) props.onSendWhileBusy(text, whileBusy);
    else return;
    setText("");
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // An IME composing a character uses Enter to accept it: that is not a send.
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send(event.altKey ? "queue" : mode);
    }
  };
  const busyPlaceholder =
    mode === "steer" ? "Steer: the agent reads this at its next step (Alt+Enter queues it for after)" : "Queue: sent as the next prompt once this turn ends";

  return (
    <form className="composer" onSubmit={submit}>
      <textarea
        ref={box}
        data-testid="prompt"
        rows={1}
        value={text}
        aria-label="Message"
        placeholder={props.busy ? busyPlaceholder : (props.placeholder ?? "Ask Lathe to change something…")}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={keyDown}
      />
      {props.busy ? (
        <>
          <button
            type="button"
            className="secondary mode"
            data-testid="while-busy-mode"
            data-mode={mode}
            aria-pressed={mode === "queue"}
            title={mode === "steer" ? "Messages join the running turn. Click to queue them for after it instead." : "Messages wait for their own turn. Click to steer the running turn instead."}
            onClick={() => setMode(mode === "steer" ? "queue" : "steer")}
          >
            {mode === "steer" ? "Steer" : "Queue"}
          </button>
          <button
            type="submit"
            className="send-busy"
            data-testid="send-while-busy"
            title={mode === "steer" ? "Send now: the agent reads it at its next step (Enter)" : "Send after: its own turn once this one ends (Enter)"}
            disabled={props.disabled || !text.trim()}
          >
            Send
          </button>
          <button type="button" className="danger" data-testid="stop" title="Stop the run (Esc)" onClick={props.onStop}>
            Stop
          </button>
        </>
      ) : (
        <button type="submit" data-testid="send" disabled={props.disabled || !text.trim()}>
          Send
        </button>
      )}
    </form>
  );
}
