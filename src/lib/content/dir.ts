import { resolve } from 'node:path';

/** The content folder; CONTENT_DIR lets tests and the benchmark build from another one. */
export const contentDir = resolve(process.env.CONTENT_DIR ?? 'content');
