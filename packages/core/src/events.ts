import type { Message, MessageError, Part, PermissionModeName, Session, StoredPermissionRequest, Todo } from "@lathe/message";
import type { BudgetHit } from "./context/budget.js";

/** What a session is doing. */
export type SessionStatus =
  | { type: "idle" }
  | { type: "busy" }
  | { type: "retry"; attempt: number; /** When the next attempt starts (ms since epoch). */ next: number; message: string };

/** A permission answer as events report it. */
export type PermissionReplyKind = "once" | "always" | "reject";

/**
 * Every event an agent emits, one name each. Each carries the `sessionID` it belongs to, so a host
 * can route events of many sessions (subagent sessions included) through one listener.
 */
export type AgentEvent =
  | { type: "session.created"; sessionID: string; session: Session }
  | { type: "session.updated"; sessionID: string; session: Session }
  | { type: "session.deleted"; sessionID: string; session: Session }
  | { type: "session.status"; sessionID: string; status: SessionStatus }
  | { type: "session.error"; sessionID: string; messageID?: string; error: MessageError }
  | { type: "message.updated"; sessionID: string; message: Message }
  | {
      type: "message.part.updated";
      sessionID: string;
      part: Part;
      /**
       * The text just appended while the part streams: the assistant's words for a `text` part,
       * reasoning for a `reasoning` part, a piece of the input JSON for a `pending` `tool` part
       * (a whole file, for a `write` call). Unset otherwise. `run.textStream` gives the words only.
       */
      delta?: string;
    }
  /**
   * A part was taken back: the output of a request that failed and is retried, so that what the
   * model sees (and a UI shows) holds no half of an answer twice.
   */
  | { type: "message.part.removed"; sessionID: string; messageID: string; partID: string }
  /**
   * The session was compacted: the model's view now starts at the summary `messageID`. `auto` is
   * true when an overflow started it, false for `agent.sessions.compact()`.
   */
  | { type: "session.compacted"; sessionID: string; messageID: string; auto: boolean }
  /**
   * A message steered into the running turn (`whileBusy: "steer"`) entered it: the turn's next request
   * carries it, and `answerID` is the assistant message that goes on answering it.
   */
  | { type: "message.steered"; sessionID: string; messageID: string; answerID: string }
  /** A budget was reached and the turn of `messageID` ended (finish `budget`). */
  | { type: "budget.exceeded"; sessionID: string; messageID: string; budget: BudgetHit }
  | { type: "permission.asked"; sessionID: string; request: StoredPermissionRequest }
  | {
      type: "permission.replied";
      sessionID: string;
      requestID: string;
      reply: PermissionReplyKind;
      /** Feedback given with a rejection, which the model sees. */
      feedback?: string;
    }
  /**
   * The permission mode in force changed: a turn started (`messageID` is its user message, which
   * records the mode too) or `agent.sessions.setMode` was called.
   */
  | { type: "session.mode"; sessionID: string; mode: PermissionModeName; messageID?: string }
  | { type: "file.edited"; sessionID: string; file: string }
  | { type: "todo.updated"; sessionID: string; todos: Todo[] };

/** The name of an event. */
export type AgentEventType = AgentEvent["type"];

/** The event of a given name. */
export type AgentEventOf<T extends AgentEventType> = Extract<AgentEvent, { type: T }>;

/** The listener signatures of {@link Agent.on}: one per event name, and `*` for every event. */
export type AgentEventMap = { [T in AgentEventType]: [event: AgentEventOf<T>] } & { "*": [event: AgentEvent] };
