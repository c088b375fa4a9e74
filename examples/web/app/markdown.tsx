import { memo } from "react";
import Markdown, { type Components } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";

// Links from a model's answer open in a new tab, never in place of the running chat.
const components: Components = {
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
};

/**
 * A model's text as Markdown (GitHub's flavour: tables, task lists, strikethrough) with its code
 * blocks highlighted. react-markdown renders no raw HTML, so an answer cannot inject markup.
 */
export const MarkdownText = memo(function MarkdownText({ text }: { text: string }) {
  return (
    <div className="markdown" data-testid="markdown">
      <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={[[rehypeHighlight, { detect: true }]]} components={components}>
        {text}
      </Markdown>
    </div>
  );
});
