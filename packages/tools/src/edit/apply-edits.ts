import { replace } from "@lathe/patch";
import { FileNotFoundError, ToolInputError } from "../errors.js";

/** One replacement of the `edit` and `multiedit` tools. */
export interface EditSpec {
  oldString: string;
  newString: string;
  replaceAll?: boolean;
}

/** How one edit was applied: the `@lathe/patch` matcher that found its text (`created` for a new file) and its lines. */
export interface AppliedEdit {
  matcher: string;
  lines: number[];
  /** oldString matched only without the line-number prefixes copied from `read` (dropped from both strings). */
  lineNumbersStripped?: boolean;
}

/**
 * Applies edits in order, each to the result of the ones before, in memory: all succeed or the
 * first failure is thrown (its message naming the edit when there are several). An empty
 * `oldString` creates the file, only as the first edit and only where there is no content yet.
 * `before` is the file's content, `undefined` when it does not exist (`absolute` names it in errors).
 */
export function applyEdits(tool: string, absolute: string, before: string | undefined, edits: EditSpec[]): { content: string; applied: AppliedEdit[] } {
  let content = before;
  const applied: AppliedEdit[] = [];
  edits.forEach((edit, i) => {
    const which = edits.length > 1 ? `Edit ${i + 1} of ${edits.length} failed, nothing was written: ` : "";
    if (edit.oldString === "") {
      if (i > 0 || content) {
        throw new ToolInputError(tool, `${which}an empty oldString creates a new file; ${absolute} already has content. Give the text to replace, or use write to replace the whole file.`);
      }
      content = edit.newString;
      applied.push({ matcher: "created", lines: [1] });
      return;
    }
    if (content === undefined) throw new FileNotFoundError(absolute);
    try {
      const replaced = replace(content, edit.oldString, edit.newString, { replaceAll: edit.replaceAll ?? false });
      content = replaced.content;
      applied.push({ matcher: replaced.matcher, lines: replaced.lines, ...(replaced.lineNumbersStripped ? { lineNumbersStripped: true } : {}) });
    } catch (error) {
      // The error keeps its class and data; only the message gains which edit failed.
      if (which && error instanceof Error) error.message = which + error.message;
      throw error;
    }
  });
  return { content: content ?? "", applied };
}
