import { OpenTelemetry } from "@ai-sdk/otel";
import { context as otelContext, trace, SpanStatusCode, type Attributes, type Context, type Span, type Tracer } from "@opentelemetry/api";
import type { TelemetryOptions as AiTelemetryOptions } from "ai";
import type { AssistantMessage, MessageError, ModelRef, Part, ToolPart } from "@lathe/message";
import { CorrectedError, DeniedError, RejectedError } from "@lathe/permission";
import type { PermissionGate } from "../agents/agent-permissions.js";
import type { TelemetryOptions } from "../options.js";
import { errorFacts, errorMessage } from "./error-facts.js";

// OpenTelemetry spans of Lathe's work (`AgentOptions.telemetry`). Every span is started with an
// explicit parent, so the tree holds without a context manager: lathe.turn → lathe.step → the AI
// SDK's own spans (through `@ai-sdk/otel`, its tracer parented to the step) and lathe.tool →
// lathe.permission; lathe.compaction under the turn; lathe.subagent under the task call's tool span,
// the child's lathe.turn under it. Attributes use the GenAI semantic conventions (`gen_ai.*`) where
// one applies, `lathe.*` otherwise. Off (no tracer), every method is a shared no-op.

/** The spans of one agent: its tracer, the live tool spans (a subagent hangs under its task call) and the parents of child turns. */
export class Tracing {
  private readonly tools = new Map<string, Context>();
  private readonly childParents = new Map<string, Context>();

  constructor(private readonly options: TelemetryOptions | undefined) {}

  /** Whether spans are recorded at all. */
  get enabled(): boolean {
    return this.options !== undefined;
  }

  /** Whether prompt and output contents go on spans (the host opted in). */
  get recordContent(): boolean {
    return this.options?.recordContent === true;
  }

  /** Starts the span of a turn: under the subagent span when the session is a running task's child, else the active context. */
  turn(sessionID: string, agent: string, prompt: () => string | undefined): TurnTrace {
    if (!this.options) return NOOP_TURN;
    const parent = this.childParents.get(sessionID) ?? otelContext.active();
    const attributes: Attributes = {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": agent,
      "gen_ai.conversation.id": sessionID,
      "lathe.session.id": sessionID,
      "lathe.agent": agent,
    };
    if (this.recordContent) setDefined(attributes, "lathe.prompt", prompt());
    const span = this.options.tracer.startSpan("lathe.turn", { attributes }, parent);
    return new LiveTurnTrace(this, this.options.tracer, span, trace.setSpan(parent, span));
  }

  /**
   * Runs a subagent task under a `lathe.subagent` span, child of the task call's tool span; the
   * child session's turn hangs under it.
   */
  async subagent<T>(parentSessionID: string, callID: string | undefined, agent: string, childSessionID: string, work: () => Promise<T>): Promise<T> {
    if (!this.options) return work();
    const parent = (callID !== undefined ? this.tools.get(toolKey(parentSessionID, callID)) : undefined) ?? otelContext.active();
    const attributes = { "gen_ai.agent.name": agent, "lathe.session.id": childSessionID, "lathe.parent_session.id": parentSessionID };
    try {
      return await inSpan(this.options.tracer, "lathe.subagent", attributes, parent, this.recordContent, (ctx) => {
        this.childParents.set(childSessionID, ctx);
        return work();
      });
    } finally {
      this.childParents.delete(childSessionID);
    }
  }

  /** Runs a compaction asked for outside a turn (`agent.sessions.compact`) under a `lathe.compaction` span. */
  compaction<T>(sessionID: string, work: () => Promise<T>): Promise<T> {
    if (!this.options) return work();
    return inSpan(this.options.tracer, "lathe.compaction", { "lathe.session.id": sessionID, "lathe.compaction.auto": false }, otelContext.active(), this.recordContent, () => work());
  }

  /** @internal A tool span opened (or closed, with `undefined`). */
  trackTool(sessionID: string, callID: string, ctx: Context | undefined): void {
    if (ctx) this.tools.set(toolKey(sessionID, callID), ctx);
    else this.tools.delete(toolKey(sessionID, callID));
  }

  /** @internal The context of a running tool's span. */
  toolContext(sessionID: string, callID: string): Context | undefined {
    return this.tools.get(toolKey(sessionID, callID));
  }
}

/** The spans of one turn. */
export interface TurnTrace {
  /** Starts a step's span; the tool calls of the step and the AI SDK's spans go under it. */
  step(index: number, ref: ModelRef): StepTrace;
  /** The span of a tool call, under the current step; returns its end. */
  tool(part: ToolPart): (part: ToolPart) => void;
  /** A permission gate that records each question under the asking call's tool span. */
  gate(gate: PermissionGate): PermissionGate;
  /** Runs a mid-turn compaction under a `lathe.compaction` span. */
  compaction<T>(work: () => Promise<T>): Promise<T>;
  /** Ends the turn's span with the final message. */
  end(info: AssistantMessage, parts: Part[]): void;
}

/** The span of one step. */
export interface StepTrace {
  /** The AI SDK's telemetry settings for the step's request: its spans nest under this step. */
  readonly telemetry: AiTelemetryOptions | undefined;
  /** Ends the step's span with what its parts say (step-finish: tokens, cost, finish; retries). */
  end(parts: Part[], error?: MessageError): void;
}

const NOOP_STEP: StepTrace = { telemetry: undefined, end: () => {} };
const NOOP_TURN: TurnTrace = {
  step: () => NOOP_STEP,
  tool: () => () => {},
  gate: (gate) => gate,
  compaction: (work) => work(),
  end: () => {},
};

class LiveTurnTrace implements TurnTrace {
  private stepContext: Context | undefined;

  constructor(
    private readonly tracing: Tracing,
    private readonly tracer: Tracer,
    private readonly span: Span,
    private readonly context: Context,
  ) {}

  step(index: number, ref: ModelRef): StepTrace {
    const span = this.tracer.startSpan(
      "lathe.step",
      {
        attributes: {
          "gen_ai.operation.name": "chat",
          "gen_ai.provider.name": ref.providerID,
          "gen_ai.request.model": ref.modelID,
          "lathe.step": index,
        },
      },
      this.context,
    );
    const ctx = trace.setSpan(this.context, span);
    this.stepContext = ctx;
    const record = this.tracing.recordContent;
    return {
      telemetry: {
        integrations: [new OpenTelemetry({ tracer: parentedTracer(this.tracer, ctx) })],
        recordInputs: record,
        recordOutputs: record,
        functionId: "lathe.step",
      },
      end: (parts, error) => {
        const finish = parts.findLast((p) => p.type === "step-finish");
        const attributes: Attributes = { "lathe.retries": parts.filter((p) => p.type === "retry").length };
        if (finish?.type === "step-finish") {
          Object.assign(attributes, usageAttributes(finish.tokens), {
            "gen_ai.response.finish_reasons": [finish.reason],
            "lathe.cost.usd": finish.cost,
          });
        }
        span.setAttributes(attributes);
        if (error) endWithError(span, error, record);
        else span.end();
        if (this.stepContext === ctx) this.stepContext = undefined;
      },
    };
  }

  tool(part: ToolPart): (part: ToolPart) => void {
    const attributes: Attributes = {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": part.tool,
      "gen_ai.tool.call.id": part.callID,
    };
    const parent = this.stepContext ?? this.context;
    const span = this.tracer.startSpan("lathe.tool", { attributes }, parent);
    const start = Date.now();
    this.tracing.trackTool(part.sessionID, part.callID, trace.setSpan(parent, span));
    return (done) => {
      this.tracing.trackTool(done.sessionID, done.callID, undefined);
      const state = done.state;
      span.setAttributes({ "lathe.tool.status": state.status, "lathe.tool.duration_ms": Date.now() - start });
      if (this.tracing.recordContent) {
        span.setAttribute("gen_ai.tool.call.arguments", JSON.stringify(state.input));
        if (state.status === "completed") span.setAttribute("gen_ai.tool.call.result", state.output);
      }
      if (state.status === "error") endWithError(span, { name: "ToolError", message: state.error }, this.tracing.recordContent);
      else span.end();
    };
  }

  gate(gate: PermissionGate): PermissionGate {
    return {
      ask: async (input) => {
        const parent = (input.tool ? this.tracing.toolContext(input.sessionID, input.tool.callID) : undefined) ?? this.stepContext ?? this.context;
        // Patterns are contents (a command, a URL with its credentials): without contents, only their count.
        const patterns: Attributes = this.tracing.recordContent ? { "lathe.permission.patterns": [...input.patterns] } : { "lathe.permission.pattern_count": input.patterns.length };
        const span = this.tracer.startSpan("lathe.permission", { attributes: { "lathe.permission": input.permission, ...patterns } }, parent);
        const start = Date.now();
        const finish = (reply: string) => span.setAttributes({ "lathe.permission.reply": reply, "lathe.permission.wait_ms": Date.now() - start });
        try {
          await gate.ask(input);
          finish("allow");
          span.end();
        } catch (error) {
          finish(error instanceof RejectedError ? "reject" : error instanceof CorrectedError ? "correct" : error instanceof DeniedError ? "deny" : "error");
          // A user's "no" is an answer, not a failure of the span.
          if (error instanceof RejectedError || error instanceof CorrectedError || error instanceof DeniedError) span.end();
          else endWithError(span, error, this.tracing.recordContent);
          throw error;
        }
      },
    };
  }

  compaction<T>(work: () => Promise<T>): Promise<T> {
    return inSpan(this.tracer, "lathe.compaction", { "lathe.compaction.auto": true }, this.context, this.tracing.recordContent, async (_ctx, span) => {
      const result = await work();
      span.setAttribute("lathe.compaction.compacted", result === true);
      return result;
    });
  }

  end(info: AssistantMessage, parts: Part[]): void {
    const attributes: Attributes = {
      ...usageAttributes(info.tokens),
      "lathe.cost.usd": info.cost,
      "lathe.message.id": info.id,
      "gen_ai.response.model": info.modelID,
    };
    setDefined(attributes, "lathe.finish", info.finish);
    if (info.finish !== undefined) attributes["gen_ai.response.finish_reasons"] = [info.finish];
    if (this.tracing.recordContent) {
      const text = parts.flatMap((p) => (p.type === "text" && !p.synthetic ? [p.text] : [])).join("\n");
      attributes["lathe.output.text"] = text;
      if (info.output !== undefined) attributes["lathe.output"] = JSON.stringify(info.output);
    }
    this.span.setAttributes(attributes);
    if (info.error) endWithError(this.span, info.error, this.tracing.recordContent);
    else this.span.end();
  }
}

/** A tracer whose spans started without a parent go under `parent` (the AI SDK's root span under the step). */
function parentedTracer(tracer: Tracer, parent: Context): Tracer {
  return {
    startSpan: (name, options, ctx) => tracer.startSpan(name, options, ctx ?? parent),
    startActiveSpan: ((name: string, ...rest: unknown[]) => {
      const fn = rest.pop() as (span: Span) => unknown;
      const [options, ctx] = rest as [Parameters<Tracer["startSpan"]>[1], Context | undefined];
      const span = tracer.startSpan(name, options, ctx ?? parent);
      return otelContext.with(trace.setSpan(ctx ?? parent, span), () => fn(span));
    }) as Tracer["startActiveSpan"],
  };
}

function usageAttributes(tokens: AssistantMessage["tokens"]): Attributes {
  return {
    "gen_ai.usage.input_tokens": tokens.input + tokens.cache.read + tokens.cache.write,
    "gen_ai.usage.output_tokens": tokens.output,
    "gen_ai.usage.cache_read.input_tokens": tokens.cache.read,
    "gen_ai.usage.cache_creation.input_tokens": tokens.cache.write,
    "gen_ai.usage.reasoning.output_tokens": tokens.reasoning,
  };
}

/** Runs `work` under a new span that ends with it (as failed when it throws). */
async function inSpan<T>(tracer: Tracer, name: string, attributes: Attributes, parent: Context, contents: boolean, work: (ctx: Context, span: Span) => Promise<T>): Promise<T> {
  const span = tracer.startSpan(name, { attributes }, parent);
  try {
    const result = await work(trace.setSpan(parent, span), span);
    span.end();
    return result;
  } catch (error) {
    endWithError(span, error, contents);
    throw error;
  }
}

/**
 * Ends a span as failed: its status, the `error.type` (and `lathe.error.code` when the error has a
 * code), and the error as an exception event. Its message — which may quote a file, a URL with its
 * credentials, an answer — is recorded only with `contents` (the host's `recordContent`).
 */
function endWithError(span: Span, error: unknown, contents: boolean): void {
  const { name, code } = errorFacts(error);
  span.setAttribute("error.type", name);
  if (code !== undefined) span.setAttribute("lathe.error.code", code);
  if (contents) {
    const message = errorMessage(error);
    span.recordException({ name, message });
    span.setStatus({ code: SpanStatusCode.ERROR, message });
  } else {
    span.recordException(code === undefined ? { name } : { name, code });
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

function setDefined(attributes: Attributes, key: string, value: string | undefined): void {
  if (value !== undefined) attributes[key] = value;
}

function toolKey(sessionID: string, callID: string): string {
  return `${sessionID}\u0000${callID}`;
}
