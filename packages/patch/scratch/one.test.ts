import { it } from "vitest";
import { EDIT_CORPUS } from "../src/replace/corpus/edit-corpus.js";
import { runCase } from "../src/replace/corpus/score.js";
it("x", () => {
  for (const c of EDIT_CORPUS) {
    const r = runCase(c);
    if (r.outcome !== "right") console.log(c.category, "|", c.name, "|", r.outcome, "|", r.detail.slice(0, 400), "\nEXPECTED", JSON.stringify(c.expect).slice(0, 400));
  }
});
