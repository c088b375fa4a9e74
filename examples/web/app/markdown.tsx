import { memo } from "react";
import Markdown, { type Components } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";

const components: Components = {
  // Links from a model's answer open in a new tab, never in place of the running chat.
  a: ({ node: _node, ...props }) => <a {...props} target="_blank" rel="noopener noreferrer" />,
  // Images are not loaded: a model steered by what it read could put data in an image's address,
  // and loading it would send that data out without a click. The image is offered as a link.
  img: ({ src, alt }) =>
    typeof src === "string" && src !== "" ? (
      <a href={src} target="_blank" rel="noopener noreferrer" className="image-link" data-testid="image-link">
        {alt || "image"} ↗
      </a>
    ) : null,
};

/**
 * A model's text as Markdown (GitHub's flavour: tables, task lists, strikethrough) with its code
 * blocks highlighted. react-markdown renders no raw HTML and drops `javascript:`-style addresses, so
 * an answer cannot inject markup or script; images are shown as links (see `components.img`).
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
