import { wrapLanguageModel, type LanguageModel } from "ai";
import { placeBreakpoints, type BreakpointPlan } from "./cache-breakpoints.js";

const wrappers = new WeakMap<object, Map<string, LanguageModel>>();

/**
 * `model` behind a middleware that places cache breakpoints on each request's provider-level prompt
 * (see {@link placeBreakpoints}), after the AI SDK converted it and after the turn's remembered
 * prompt was put back in front (the middleware runs innermost, on the prompt the provider gets).
 * The wrapper is made once per model and plan and handed back on every call, so a caller comparing
 * models by identity (the prompt prefix does) sees the same model request after request.
 */
export function cachingModel(model: LanguageModel, plan: BreakpointPlan): LanguageModel {
  // A model named by a string is resolved per request by the AI SDK's global provider: left alone.
  if (typeof model === "string") return model;
  const key = `${JSON.stringify(plan.carrier)}|${plan.minTokens}`;
  let byPlan = wrappers.get(model);
  if (!byPlan) wrappers.set(model, (byPlan = new Map()));
  let wrapped = byPlan.get(key);
  if (!wrapped) {
    wrapped = wrapLanguageModel({
      model,
      middleware: { specificationVersion: "v4", transformParams: async ({ params }) => placeBreakpoints(params, plan) },
    });
    byPlan.set(key, wrapped);
  }
  return wrapped;
}
