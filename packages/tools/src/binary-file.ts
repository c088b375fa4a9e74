import { open } from "node:fs/promises";
import path from "node:path";

// Extensions whose files are never text, whatever their first bytes look like.
const BINARY_EXTENSIONS = new Set(
  (
    ".zip .tar .gz .tgz .bz2 .xz .zst .7z .rar .jar .war .ear .class .exe .dll .so .dylib .o .a .lib .obj .bin " +
    ".dat .wasm .pyc .pyo .node .deb .rpm .dmg .iso .img .doc .docx .xls .xlsx .ppt .pptx .odt .ods .odp " +
    ".sqlite .db .mp3 .mp4 .m4a .wav .flac .ogg .avi .mov .mkv .webm .ttf .otf .woff .woff2 .eot .ico .psd"
  ).split(" "),
);

// Files the model can look at: returned as attachments instead of text.
const VIEWABLE_MIME: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".bmp": "image/bmp",
  ".pdf": "application/pdf",
};

/** The MIME type of an image or PDF the model can be shown, by extension; `undefined` for others. */
export function viewableMime(file: string): string | undefined {
  return VIEWABLE_MIME[path.extname(file).toLowerCase()];
}

/**
 * True when a sample of a file's first bytes is not text: it holds a NUL byte, or more than 30% of
 * its bytes are control characters other than tab, newline, form feed and carriage return.
 */
export function looksBinary(sample: Uint8Array): boolean {
  if (sample.length === 0) return false;
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return true;
    if (byte < 9 || (byte > 13 && byte < 32) || byte === 127) control++;
  }
  return control / sample.length > 0.3;
}

/** True when the file is binary: by its extension, or by its first 4 KB (see {@link looksBinary}). */
export async function isBinaryFile(absolute: string): Promise<boolean> {
  if (BINARY_EXTENSIONS.has(path.extname(absolute).toLowerCase())) return true;
  const handle = await open(absolute, "r");
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return looksBinary(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
