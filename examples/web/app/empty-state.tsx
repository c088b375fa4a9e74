/** Requests that show what a coding agent is for; a click puts one in the message box. */
const EXAMPLES = [
  "The tests of this project fail. Find the bug and fix it.",
  "Explain how this project is organised.",
  "Add a test for the function you think is least covered.",
];

/** What an empty conversation shows instead of a blank pane: what to do, and how. */
export function EmptyState(props: { onExample: (text: string) => void }) {
  return (
    <div className="empty-state" data-testid="empty-state">
      <h2>What should Lathe do?</h2>
      <p>
        Describe a change, a bug to fix or a question about the code. Lathe reads and edits the project's files and runs
        commands; it asks you before each edit or command, and you can revert any message later.
      </p>
      <ul className="examples">
        {EXAMPLES.map((example) => (
          <li key={example}>
            <button type="button" className="secondary example" onClick={() => props.onExample(example)}>
              {example}
            </button>
          </li>
        ))}
      </ul>
      <p className="hint">
        <kbd>Enter</kbd> sends, <kbd>Shift</kbd>+<kbd>Enter</kbd> starts a new line, <kbd>Esc</kbd> stops a run.
      </p>
    </div>
  );
}
