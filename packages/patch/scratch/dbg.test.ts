import { it } from "vitest";
import { replace } from "../src/index.js";
import { mapReplacement, Conventions } from "../src/replace/char-map.js";
it("x", () => {
  const file = ["kaaaz","k\t–— z","kaa–z"].join("\n") + "\n";
  const r = replace(file, "k -- z", "k -- z added");
  console.log(JSON.stringify(r));
  console.log(JSON.stringify(mapReplacement("k -- z", "k\t–— z", "k -- z added", new Conventions())));
  console.log(JSON.stringify(mapReplacement("-- z", "–— z", "-- z added", new Conventions())));
});
