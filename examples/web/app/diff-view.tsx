/** A unified diff with added lines green and removed lines red. */
export function DiffView({ diff }: { diff: string }) {
  const lines = diff.split("\n").filter((line, i, all) => !(i === all.length - 1 && line === ""));
  return (
    <pre className="diff" data-testid="diff">
      {lines.map((line, i) => {
        const kind = line.startsWith("+++") || line.startsWith("---") ? "file" : line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : line.startsWith("@@") ? "hunk" : "ctx";
        return (
          <span key={i} className={`diff-${kind}`}>
            {line}
            {"\n"}
          </span>
        );
      })}
    </pre>
  );
}
