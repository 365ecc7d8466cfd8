// In `astro dev`, a content edit written in two steps could be lost. Vite's file watcher (chokidar)
// drops a second 'change' of a file within 50 ms of the first. Writing a file is two steps (open
// truncates it, then the text is written), which an editor, a script or a busy machine can space
// out: the first event can fire on the emptied file, the loader then reads it empty or cut short,
// and the event of the completed write is dropped, so the page keeps the half-written state until
// the next edit (docs/authoring.md, "The author's loop").
//
// So each change under the content folder is looked at again once no event for it can have been
// dropped: if the file is not as it was when its event came, the change is announced again, and
// every loader (ours and Astro's glob loader for the pages) reads it again.
import { statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { LoaderContext } from 'astro/loaders';

/** Longer than chokidar's 50 ms window for repeated 'change' events of one file. */
export const SETTLE_MS = 120;

type Watcher = NonNullable<LoaderContext['watcher']>;

/** Size, modification time and inode: what a write changes. */
export function fingerprint(file: string): string {
  try {
    const s = statSync(file, { bigint: true });
    return `${s.ino}:${s.size}:${s.mtimeNs}`;
  } catch {
    return 'missing';
  }
}

/** Re-announces a change of a file under `dir` that happened after its event was handled. */
export function settleChanges(watcher: Watcher, dir: string): void {
  const root = resolve(dir);
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  watcher.on('all', (event: string, path: string) => {
    if ((event !== 'change' && event !== 'add') || !(path === root || path.startsWith(root + sep))) return;
    const seen = fingerprint(path); // before any loader has read it: they read after this event's listeners
    clearTimeout(pending.get(path));
    pending.set(
      path,
      setTimeout(() => {
        pending.delete(path);
        if (fingerprint(path) === seen) return;
        // As chokidar itself emits it: the event, then 'all'.
        watcher.emit('change', path);
        watcher.emit('all', 'change', path);
      }, SETTLE_MS),
    );
  });
}
