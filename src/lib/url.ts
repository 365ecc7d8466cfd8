import { joinBase } from './base.ts';

/** A site-relative path with the deploy base in front: url('rows/drain/') -> '/sub/rows/drain/'. */
export function url(path = ''): string {
  return joinBase(import.meta.env.BASE_URL, path);
}
