import { useLayoutEffect, useRef, type FormEvent, type KeyboardEvent } from "react";

/**
 * The prompt box: Enter sends, Shift+Enter starts a new line; while a run streams, the button
 * stops it (Esc too, handled by the chat). The box grows with its text up to a few lines.
 */
export function Composer(props: {
  /** The text in the box, kept by the chat (an example or an unsent message can be put back). */
  text: string;
  onText: (text: string) => void;
  busy: boolean;
  disabled?: boolean;
  placeholder?: string;
  onSend: (text: string) => void;
  onStop: () => void;
}) {
  const { text, onText: setText } = props;
  const box = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${Math.min(element.scrollHeight, 200)}px`;
  }, [text]);

  const send = () => {
    if (!text.trim() || props.busy || props.disabled) return;
    props.onSend(text);
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
      send();
    }
  };

  return (
    <form className="composer" onSubmit={submit}>
      <textarea
        ref={box}
        data-testid="prompt"
        rows={1}
        value={text}
        aria-label="Message"
        placeholder={props.placeholder ?? "Ask Lathe to change something…"}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={keyDown}
      />
      {props.busy ? (
        <button type="button" className="danger" data-testid="stop" title="Stop the run (Esc)" onClick={props.onStop}>
          Stop
        </button>
      ) : (
        <button type="submit" data-testid="send" disabled={props.disabled || !text.trim()}>
          Send
        </button>
      )}
    </form>
  );
}
