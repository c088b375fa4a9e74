// Model-facing tool descriptions live in .txt files beside the code and are inlined as strings:
// by Vite/vitest natively (`?raw`), and by the esbuild plugin in tsup.config.ts for the build.
declare module "*.txt?raw" {
  const text: string;
  export default text;
}
