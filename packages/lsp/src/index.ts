/**
 * Language servers for Lathe: {@link createLsp} implements `@lathe/tools`' `Diagnostics` over the
 * Language Server Protocol (stdio, `vscode-jsonrpc`): servers per language and workspace root,
 * started lazily; diagnostics after every write; the project's formatter; crash recovery.
 *
 * @module @lathe/lsp
 */
export { createLsp, Lsp } from "./lsp.js";
export { LspOptionsSchema, type LspOptions } from "./options.js";
export { BUILTIN_SERVERS, ServerConfigSchema, type ServerConfig, type ServerDefinition, type ServerLaunch } from "./servers.js";
export { BUILTIN_FORMATTERS, FormatterConfigSchema, type FormatterConfig } from "./formatters.js";
export type { Invocation } from "./locate.js";
