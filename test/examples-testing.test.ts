// The tests of examples/testing run in the repository's suite too (against the sources here; the
// example's own `npm test` runs them against the built packages).
import "../examples/testing/src/docs-agent.test.ts";
