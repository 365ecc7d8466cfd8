// The only files the rules read besides the content: the pinned upstream copies (upstream.ts: the
// commit folders, and a release's module in the Go module cache) and a verbatim page's own text.
// Each rule that needs them takes a reader; these are the defaults.
import { existsSync, readFileSync } from 'node:fs';
import {
  pinnedFiles as upstreamFiles,
  pinnedLines as upstreamLines,
  type FileReader,
  type LinesReader,
} from '../../upstream/upstream.ts';

/**
 * Files of kubernetes/kubernetes at their pins: a commit's from the copies beside the repository, a
 * release tag's from the Go module cache (null, said once, where the copy is absent).
 */
export const pinnedFiles = (): FileReader | undefined => upstreamFiles();
/** Lines of those files. */
export const pinnedLines = (): LinesReader | undefined => upstreamLines();

/** A file's text, or null when there is none. */
export type TextReader = (file: string) => string | null;
export const fileText: TextReader = (file) => (existsSync(file) ? readFileSync(file, 'utf8') : null);
