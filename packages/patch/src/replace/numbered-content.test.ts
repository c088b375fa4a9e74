// Classes 2 and 3 of issue 33: numbers at line starts are content unless they are consistent with a
// file view they would have come from (read's format, numbers at the match, the same prefixes on
// oldString); Codex's `L12: ` and grep's `path:12:` / `12:` views are read like read's own.
import { describe, expect, it } from "vitest";
import { replace } from "../index.js";
import { L, numbered } from "./corpus/helpers.js";
import { refusal } from "./expect-refusal.js";

describe("numbered content is content", () => {
  it("writes a year list, a YAML port map, a numbered list and a TSV row block as given", () => {
    expect(replace(L("## History", "", "TODO"), "TODO", "2025: launched in Berlin\n2026: opened Paris").content).toBe(L("## History", "", "2025: launched in Berlin", "2026: opened Paris"));
    expect(replace(L("ports:", "  # none yet"), "  # none yet", "  8080: web\n  8081: api\n  8082: admin").content).toBe(L("ports:", "  8080: web", "  8081: api", "  8082: admin"));
    expect(replace(L("Steps", "-----", "(to do)"), "(to do)", "1| Install\n2| Configure\n3| Run").content).toBe(L("Steps", "-----", "1| Install", "2| Configure", "3| Run"));
    expect(replace(L("id\tname", "…"), "…", "10\tAda\n11\tGrace").content).toBe(L("id\tname", "10\tAda", "11\tGrace"));
  });

  it("writes a Go map and a Python dict whose keys are consecutive numbers", () => {
    const go = L("var codes = map[int]string{", "\t// filled below", "}");
    expect(replace(go, "\t// filled below", "\t200: \"OK\",\n\t201: \"Created\",").content).toBe(L("var codes = map[int]string{", '\t200: "OK",', '\t201: "Created",', "}"));
    const py = L("STATUS = {", "    # todo", "}");
    expect(replace(py, "    # todo", "    404: 'missing',\n    405: 'method',").content).toBe(L("STATUS = {", "    404: 'missing',", "    405: 'method',", "}"));
  });

  it("edits numbered content copied with the same numbers on both sides", () => {
    const md = L("# Release plan", "2025: beta", "2026: GA", "2027: LTS");
    expect(replace(md, "2025: beta\n2026: GA", "2025: beta\n2026: general availability")).toMatchObject({ content: L("# Release plan", "2025: beta", "2026: general availability", "2027: LTS"), matcher: "exact" });
  });

  it("refuses numbers consistent with a view: read's padded format anywhere, or numbers starting at the matched line", () => {
    const file = L("const a = 1;", "const b = 2;", "const c = 3;");
    expect(refusal(() => replace(file, "const b = 2;\nconst c = 3;", numbered(2, "const b = 20;", "const c = 3;"))).code).toBe("line_number_prefix");
    expect(refusal(() => replace(file, "const b = 2;\nconst c = 3;", numbered(40, "const b = 20;", "const c = 3;"))).code).toBe("line_number_prefix");
    expect(refusal(() => replace(file, "const b = 2;\nconst c = 3;", "2: const b = 20;\n3: const c = 3;")).code).toBe("line_number_prefix");
    expect(refusal(() => replace(file, "const b = 2;\nconst c = 3;", "2→const b = 20;\n3→const c = 3;")).code).toBe("line_number_prefix");
  });

  it("writes consecutive numbers that start elsewhere than the match when the form can be content", () => {
    const file = L("const a = 1;", "// table", "const c = 3;");
    expect(replace(file, "// table", "10: ten\n11: eleven").content).toBe(L("const a = 1;", "10: ten", "11: eleven", "const c = 3;"));
  });
});

describe("other tools' prefixes", () => {
  const ts = L("export function area(r: number) {", "  const pi = 3.14;", "", "  return pi * r * r;", "}");
  const py = L("def area(r):", "    pi = 3.14", "    return pi * r * r");

  it("strips Codex's L12: view from both strings (TypeScript, Python, blank lines)", () => {
    const out = replace(ts, "L2:   const pi = 3.14;\nL3:\nL4:   return pi * r * r;", "L2:   const pi = Math.PI;\nL3:\nL4:   return pi * r * r;");
    expect(out).toMatchObject({ content: ts.replace("3.14", "Math.PI"), lineNumbersStripped: true });
    expect(replace(py, "L2:     pi = 3.14", "L2:     pi = math.pi").content).toBe(py.replace("3.14", "math.pi"));
  });

  it("strips grep/ripgrep -n views, with a path (match and context lines) or without", () => {
    const search = "src/geo-utils.ts-1-export function area(r: number) {\nsrc/geo-utils.ts:2:  const pi = 3.14;";
    const replacement = "src/geo-utils.ts-1-export function area(r: number) {\nsrc/geo-utils.ts:2:  const pi = Math.PI;";
    expect(replace(ts, search, replacement)).toMatchObject({ content: ts.replace("3.14", "Math.PI"), lineNumbersStripped: true });
    expect(replace(py, "app/geo.py:2:    pi = 3.14", "app/geo.py:2:    pi = math.pi").content).toBe(py.replace("3.14", "math.pi"));
    expect(replace(py, "2:    pi = 3.14\n3:    return pi * r * r", "2:    pi = math.pi\n3:    return pi * r * r").content).toBe(py.replace("3.14", "math.pi"));
  });

  it("never writes Codex's or grep's prefixes from newString", () => {
    expect(refusal(() => replace(py, "    pi = 3.14", "L2:     pi = math.pi\nL3:     tau = 2 * pi")).code).toBe("line_number_prefix");
    expect(refusal(() => replace(py, "    pi = 3.14", "app/geo.py:2:    pi = math.pi\napp/geo.py:3:    tau = 2 * pi")).code).toBe("line_number_prefix");
  });

  it("strips the search's style and another style newString uses throughout", () => {
    expect(replace(py, "app/geo.py:2:    pi = 3.14", "L2:     pi = math.pi").content).toBe(py.replace("3.14", "math.pi"));
  });

  it("takes grep-like content as written where it is in the file (docker ports, a log excerpt)", () => {
    const compose = L("ports:", "  - 8080:80", "  - 8081:81");
    expect(replace(compose, "  - 8080:80\n  - 8081:81", "  - 8080:8080\n  - 8081:81")).toMatchObject({ content: L("ports:", "  - 8080:8080", "  - 8081:81"), matcher: "exact" });
    const log = L("server.log:12:started", "server.log:13:ready");
    expect(replace(log, "server.log:12:started\nserver.log:13:ready", "server.log:12:started\nserver.log:13:listening")).toMatchObject({ content: L("server.log:12:started", "server.log:13:listening"), matcher: "exact" });
  });

  it("keeps grep numbers honest in a file whose own lines look like them", () => {
    const log = L("app.log:1:alpha", "app.log:2:beta", "x");
    // `app.log:9:beta` stripped is `beta`, at line 2 — not where its number points, in a file whose lines look prefixed.
    expect(refusal(() => replace(log, "app.log:9:beta", "app.log:9:gamma")).code).toBe("not_found");
  });
});
