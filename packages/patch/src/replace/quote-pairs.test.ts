// Class 6 of issue 33: added quotes take the file's own opening/closing pair (German „…“, French
// « … », Swiss «…», Swedish ”…”, English “…”), learned from the file; a fold that makes two places
// equal is ambiguous and refused, whichever of them is "closer".
import { describe, expect, it } from "vitest";
import { replace } from "../index.js";
import { L } from "./corpus/helpers.js";
import { refusal } from "./expect-refusal.js";

describe("quote pairs by locale", () => {
  it("writes German „…“ and ‚…‘ in a German file", () => {
    const de = L("Er sagte „Hallo“ und ging.", "Sie nannte es ‚klein‘ – wirklich.");
    expect(replace(de, 'Er sagte "Hallo" und ging.', 'Er sagte "Hallo" und ging. Sie rief "Tschüss".').content).toBe(
      L("Er sagte „Hallo“ und ging. Sie rief „Tschüss“.", "Sie nannte es ‚klein‘ – wirklich."),
    );
    expect(replace(de, "Sie nannte es 'klein' - wirklich.", "Sie nannte es 'klein' - wirklich 'winzig'.").content).toBe(
      L("Er sagte „Hallo“ und ging.", "Sie nannte es ‚klein‘ – wirklich ‚winzig‘."),
    );
  });

  it("writes German quotes in added text even where the matched line had none (a prose file)", () => {
    const de = L("Er sagte „Hallo“.", "Dann kam ein Brief – kurz.");
    expect(replace(de, "Dann kam ein Brief - kurz.", 'Dann kam ein Brief - kurz: "Komm bald".').content).toBe(L("Er sagte „Hallo“.", "Dann kam ein Brief – kurz: „Komm bald“."));
  });

  it("writes French guillemets with the file's inner space (plain or no-break)", () => {
    const fr = L("Il a dit « bonjour » hier.", "C’est l’été.");
    expect(replace(fr, "C'est l'été.", "C'est l'été, dit-il : \"enfin\".").content).toBe(L("Il a dit « bonjour » hier.", "C’est l’été, dit-il : « enfin »."));
    const frNbsp = L("Il a dit «\u00a0bonjour\u00a0» hier.", "C’est l’été.");
    expect(replace(frNbsp, "C'est l'été.", "C'est l'été : \"enfin\".").content).toBe(L("Il a dit «\u00a0bonjour\u00a0» hier.", "C’est l’été : «\u00a0enfin\u00a0»."));
  });

  it("writes Swiss «…» and Swedish ”…”", () => {
    expect(replace(L("Er sagte «Hallo» und ging."), 'Er sagte "Hallo" und ging.', 'Er sagte "Hallo" und ging. Sie rief "Tschüss".').content).toBe(L("Er sagte «Hallo» und ging. Sie rief «Tschüss»."));
    expect(replace(L("Han sa ”hej” och gick."), 'Han sa "hej" och gick.', 'Han sa "hej" och gick. Hon sa "hejdå".').content).toBe(L("Han sa ”hej” och gick. Hon sa ”hejdå”."));
  });

  it("keeps English “…” in an English file and straight quotes in code", () => {
    expect(replace(L("say “hi” — ok"), 'say "hi" - ok', 'say "hi" - ok "bye"').content).toBe(L("say “hi” — ok “bye”"));
    const ts = L('const label = "Total — net";', "const b = 'x';");
    expect(replace(ts, 'const label = "Total - net";', 'const label = "Total - net";\nconst c = "y";').content).toBe(L('const label = "Total — net";', 'const c = "y";', "const b = 'x';"));
  });

  it("matches text typed with straight quotes against guillemets", () => {
    expect(replace(L("Titel: «Faust»"), 'Titel: "Faust"', 'Titel: "Faust I"').content).toBe(L("Titel: «Faust I»"));
  });
});

describe("a fold that makes two places equal is refused", () => {
  it("refuses it‘s against it's and it’s: whole lines, inside lines, in code and prose", () => {
    expect(refusal(() => replace(L("it's", "it’s"), "it‘s", "it is")).matches).toEqual([1, 2]);
    expect(refusal(() => replace(L("say it's", "say it’s"), "it‘s", "it is")).matches).toEqual([1, 2]);
    expect(refusal(() => replace(L("msg = 'it's here'", "", "note = “it’s here”"), "it‘s here", "it is here")).matches).toEqual([1, 3]);
    expect(refusal(() => replace(L("x = 'it's fine'", "y = 'it’s fine'"), "it‘s fine", "it is fine")).code).toBe("multiple");
  });

  it("refuses German and English quotes that fold to the same search", () => {
    const mixed = L("Er sagte „Hallo“.", "He said “Hallo”.", "Er sagte \"Hallo\" leise.");
    expect(refusal(() => replace(mixed, "sagte «Hallo»", "rief «Hallo»")).matches).toEqual([1, 3]);
  });

  it("refuses blocks whose only difference is the quote style", () => {
    const py = L("def a():", '    return "it\'s"', "", "def a():", '    return "it’s"');
    expect(refusal(() => replace(py, 'def a():\n    return "it‘s"', 'def a():\n    return "it is"')).code).toBe("multiple");
  });
});
