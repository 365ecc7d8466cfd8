// Which Kubernetes release the site's "as of" statements rest on, recorded rather than typed: the
// release tag the lab builds (lab/go.mod's k8s.io/kubernetes) and what the Go module proxy listed
// for k8s.io/kubernetes when `go list -m -versions` was last run (tools/release-check.ts writes
// the record into content/site.yaml's `release`). Pure functions; the tool does the I/O.
import { parseDocument } from 'yaml';

export const MODULE = 'k8s.io/kubernetes';
export const COMMAND = `go list -m -versions ${MODULE}`;

/** A release tag (v1.37.2) or a prerelease (v1.38.0-beta.0), as the module proxy lists them. */
const VERSION = /^v(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;

export interface Listed {
  /** Every version the proxy listed, in its order. */
  versions: string[];
  /** The newest release (no prerelease part) among them. */
  newest: string;
  /** The newest prerelease, when it is newer than `newest` (a beta of the next minor, say). */
  newestPrerelease?: string;
}

const parts = (v: string) => {
  const m = VERSION.exec(v);
  if (!m) throw new Error(`not a module version: ${v}`);
  return { n: [Number(m[1]), Number(m[2]), Number(m[3])] as const, pre: m[4] };
};

/** Semver order for module versions: numbers first, then a release after its prereleases. */
export function compareVersions(a: string, b: string): number {
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < 3; i++) if (x.n[i] !== y.n[i]) return x.n[i]! - y.n[i]!;
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  const p = x.pre.split('.');
  const q = y.pre.split('.');
  for (let i = 0; i < Math.max(p.length, q.length); i++) {
    const [s, t] = [p[i], q[i]];
    if (s === undefined) return -1;
    if (t === undefined) return 1;
    const [ns, nt] = [/^\d+$/.test(s), /^\d+$/.test(t)];
    if (ns && nt && Number(s) !== Number(t)) return Number(s) - Number(t);
    if (ns !== nt) return ns ? -1 : 1;
    if (s !== t) return s < t ? -1 : 1;
  }
  return 0;
}

/** Reads `go list -m -versions k8s.io/kubernetes`'s one line: the module path, then its versions. */
export function parseListed(output: string): Listed {
  const [module, ...versions] = output.trim().split(/\s+/);
  if (module !== MODULE) throw new Error(`expected "${MODULE} <versions…>", got: ${output.trim().slice(0, 80)}`);
  if (versions.length === 0) throw new Error(`the proxy listed no versions of ${MODULE}`);
  for (const v of versions) parts(v);
  const sorted = [...versions].sort(compareVersions);
  const releases = sorted.filter((v) => parts(v).pre === undefined);
  const newest = releases.at(-1);
  if (!newest) throw new Error(`the proxy listed no release of ${MODULE}, only prereleases`);
  const last = sorted.at(-1)!;
  return { versions, newest, ...(last !== newest && { newestPrerelease: last }) };
}

/** The k8s.io/kubernetes version lab/go.mod requires. */
export function labPin(goMod: string): string {
  const m = /^\s*k8s\.io\/kubernetes\s+(v\S+)/m.exec(goMod.replace(/^\s*replace\b[\s\S]*?^\)/m, ''));
  if (!m) throw new Error('lab/go.mod requires no k8s.io/kubernetes version');
  parts(m[1]!);
  return m[1]!;
}

/** The record content/site.yaml keeps under `release` (schemas.ts, siteSchema). */
export interface ReleaseRecord {
  lab: string;
  checked: string;
  command: string;
  proxy: string;
  newest: string;
  newestPrerelease?: string;
  listed: number;
}

export function record(listed: Listed, lab: string, proxy: string, checked: Date): ReleaseRecord {
  return {
    lab,
    checked: checked.toISOString().replace(/\.\d+Z$/, 'Z'),
    command: COMMAND,
    proxy,
    newest: listed.newest,
    ...(listed.newestPrerelease && { newestPrerelease: listed.newestPrerelease }),
    listed: listed.versions.length,
  };
}

/** "v1.37" for v1.37.2: the minor release the site's `asOf` names. */
export const minorOf = (version: string): string => {
  const { n } = parts(version);
  return `v${n[0]}.${n[1]}`;
};

/** site.yaml with its `release` block replaced by the record (or added at the end); nothing else changes. */
export function writeRecord(siteYaml: string, rec: ReleaseRecord): string {
  const block = [
    '# Written by `npm run release-check` (tools/release-check.ts), never by hand: the release the lab',
    '# builds (lab/go.mod) and what the Go module proxy listed for k8s.io/kubernetes when it ran.',
    'release:',
    ...Object.entries(rec).map(([k, v]) => `  ${k}: ${String(v)}`),
    '',
  ].join('\n');
  // The old block: its comment lines, `release:` and its indented lines.
  const old = /^(?:# Written by `npm run release-check`.*\n(?:#.*\n)*)?release:\n(?:[ \t]+.*\n?)*/m;
  const kept = old.test(siteYaml) ? siteYaml.replace(old, '') : siteYaml;
  const out = `${kept.replace(/\n*$/, '\n')}${block}`;
  if (JSON.stringify((parseDocument(out).toJS() as { release: unknown }).release) !== JSON.stringify(rec))
    throw new Error('site.yaml: the written release block does not read back as the record');
  return out;
}
