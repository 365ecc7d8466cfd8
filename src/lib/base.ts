/** Normalises a deploy base from the environment to '/' or '/a/b/' (leading and trailing slash). */
export function normaliseBase(raw: string | undefined): string {
  const trimmed = (raw ?? '').trim().replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '/' : `/${trimmed}/`;
}

/** Joins a base ('/' or '/sub/') and a site-relative path ('rows/x/', '/rows/x/', '#a'). */
export function joinBase(base: string, path: string): string {
  const b = normaliseBase(base);
  return b + path.replace(/^\/+/, '');
}
