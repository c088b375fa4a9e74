// The server prints the page's address with a per-start token in its fragment (`#token=…`):
// fragments never travel in requests or Referer headers. The page keeps the token in localStorage
// (so a reload, or a second tab on the bare address, still works) and takes it out of the address
// bar, so it is not left in the history or in a shared screenshot.

const TOKEN_KEY = "lathe-token";
/** The token when the browser refuses storage: it then lasts as long as this page. */
let inMemory: string | undefined;

/** Moves a `#token=…` from the address into storage, and returns the token the page holds now. */
export function adoptToken(): string | undefined {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const fromURL = fragment.get("token");
  if (fromURL) {
    store(fromURL);
    fragment.delete("token");
    const rest = fragment.toString();
    history.replaceState(history.state, "", `${location.pathname}${location.search}${rest ? `#${rest}` : ""}`);
  }
  return token();
}

/** The token this page sends, if it has one. */
export function token(): string | undefined {
  try {
    return localStorage.getItem(TOKEN_KEY) ?? inMemory;
  } catch {
    return inMemory;
  }
}

/** `Authorization` for every request to the server (API calls and the chat stream alike). */
export function authHeaders(): Record<string, string> {
  const current = token();
  return current ? { authorization: `Bearer ${current}` } : {};
}

function store(value: string): void {
  inMemory = value;
  try {
    localStorage.setItem(TOKEN_KEY, value);
  } catch {
    // Storage disabled: the in-memory copy serves this page.
  }
}
