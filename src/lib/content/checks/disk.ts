// The only files the rules read besides the content: the pinned upstream copies (upstream.ts) and
// a verbatim page's own text. Each rule that needs them takes a reader; these are the defaults.
import { existsSync, readFileSync } from 'node:fs';
import {
  folderFiles,
  folderLines,
  kubernetesSources,
  type FileReader,
  type LinesReader,
} from '../../upstream/upstream.ts';

/** Files of the kubernetes/kubernetes copies beside the repository (undefined where they are absent). */
export const pinnedFiles = (): FileReader | undefined => folderFiles(kubernetesSources());
/** Lines of those files. */
export const pinnedLines = (): LinesReader | undefined => folderLines(kubernetesSources());

/** A file's text, or null when there is none. */
export type TextReader = (file: string) => string | null;
export const fileText: TextReader = (file) => (existsSync(file) ? readFileSync(file, 'utf8') : null);
