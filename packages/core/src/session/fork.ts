import { addTokens, createId, emptyTokens, type MessageWithParts, type Session } from "@lathe/message";

/**
 * Copies a session's history into a new session: every message up to and including `messageID`
 * (all of them when absent), with new ids in the same order, assistant messages re-pointed at the
 * copied user messages (and compactions at their copied tails), and `parentID` set to the source
 * session. Usage totals are recomputed from the copied messages.
 */
export function forkHistory(
  source: Session,
  history: MessageWithParts[],
  messageID: string | undefined,
  now = Date.now(),
): { session: Session; messages: MessageWithParts[] } {
  const session: Session = {
    id: createId("session"),
    parentID: source.id,
    kind: "fork",
    title: `Fork of ${source.title}`,
    directory: source.directory,
    time: { created: now, updated: now },
    usage: { tokens: emptyTokens(), cost: 0, countedThrough: "" },
    ...(source.metadata ? { metadata: structuredClone(source.metadata) } : {}),
    ...(source.permission ? { permission: { approved: structuredClone(source.permission.approved), pending: [] } } : {}),
    ...(source.todos ? { todos: structuredClone(source.todos) } : {}),
    ...(source.limits ? { limits: { ...source.limits } } : {}),
  };
  const newIds = new Map<string, string>();
  const messages: MessageWithParts[] = [];
  for (const { info, parts } of history) {
    const id = createId("message");
    newIds.set(info.id, id);
    const copy = structuredClone(info);
    copy.id = id;
    copy.sessionID = session.id;
    if (copy.role === "assistant") {
      copy.parentID = newIds.get(copy.parentID) ?? copy.parentID;
      // Steps too, as the source counted them: a `maxSteps` limit of the fork counts from the same place as `maxTokens`.
      const steps = parts.filter((p) => p.type === "step-finish").length;
      session.usage = {
        tokens: addTokens(session.usage.tokens, copy.tokens),
        cost: session.usage.cost + copy.cost,
        ...(copy.cacheSaved !== undefined ? { cacheSaved: (session.usage.cacheSaved ?? 0) + copy.cacheSaved } : {}),
        steps: (session.usage.steps ?? 0) + steps,
        countedThrough: id,
      };
    }
    messages.push({
      info: copy,
      parts: parts.map((part) => {
        const copied = { ...structuredClone(part), id: createId("part"), sessionID: session.id, messageID: id };
        // A compaction names the first message of its verbatim tail: an earlier message, already copied.
        if (copied.type === "compaction" && copied.tail !== undefined) copied.tail = newIds.get(copied.tail) ?? copied.tail;
        return copied;
      }),
    });
    if (info.id === messageID) break;
  }
  return { session, messages };
}
