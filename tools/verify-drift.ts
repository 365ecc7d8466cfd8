// Source drift: every excerpt (KEP quote) and code note against a newer copy of its repository.
//
//   node tools/verify-drift.ts [--enhancements <copy>] [--kubernetes <copy>] [--at <ref>] [--update] [--content <dir>]
//
// A copy is a git checkout (compared at HEAD, or at --at <ref>, through its history: renames as git
// sees them), a snapshot folder with a SOURCE.md naming its commit (../shared/sources/
// kubernetes-enhancements), or a folder of <commit>/<path> copies (../shared/sources/kubernetes);
// tools/lib/drift-upstream.ts. Each pin is unchanged, moved (new lines or a renamed file), changed
// (with a short word diff against the closest lines now) or gone (tools/lib/drift.ts). The report
// lists what moved, changed or is gone, then every claim citing one, grouped by kind and located
// file:line:column (tools/lib/drift-claims.ts, drift-report.ts). --update rewrites the pins of the
// sources whose excerpts all stayed or only moved (tools/lib/drift-update.ts).
// Exit 0 when nothing changed or is gone, 1 when something did (or could not be checked, or the
// content is invalid), 2 on a usage error.
import { existsSync, statSync } from 'node:fs';
import { ContentError, describe } from '../src/lib/problems.ts';
import { citingClaims, loadLocated } from './lib/drift-claims.ts';
import { checkDrift, tally } from './lib/drift-check.ts';
import { formatReport } from './lib/drift-report.ts';
import { applyUpdate, planUpdate } from './lib/drift-update.ts';
import { openUpstream, UpstreamError, type Upstream } from './lib/drift-upstream.ts';

const USAGE =
  'usage: node tools/verify-drift.ts [--enhancements <copy>] [--kubernetes <copy>] [--at <ref>] [--update] [--content <dir>]';
/** The options naming a copy, and the repository each is a copy of. */
const COPIES: Record<string, string> = {
  '--enhancements': 'kubernetes/enhancements',
  '--kubernetes': 'kubernetes/kubernetes',
};

function usage(message?: string): never {
  if (message) console.error(`verify-drift: ${message}`);
  console.error(USAGE);
  process.exit(2);
}

interface Args {
  copies: Map<string, string>;
  at?: string;
  update: boolean;
  content: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { copies: new Map(), update: false, content: 'content' };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    const [flag, inline] = raw.includes('=')
      ? [raw.slice(0, raw.indexOf('=')), raw.slice(raw.indexOf('=') + 1)]
      : [raw, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (!v) usage(`${flag} needs a value`);
      return v;
    };
    if (flag in COPIES) args.copies.set(COPIES[flag]!, value());
    else if (flag === '--at') args.at = value();
    else if (flag === '--content') args.content = value();
    else if (flag === '--update') args.update = true;
    else if (flag === '-h' || flag === '--help') {
      console.log(USAGE);
      process.exit(0);
    } else usage(`unexpected argument ${raw}`);
  }
  if (args.copies.size === 0) usage('give at least one copy: --enhancements <copy> and/or --kubernetes <copy>');
  if (!existsSync(args.content) || !statSync(args.content).isDirectory())
    usage(`content directory ${args.content} not found`);
  return args;
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const upstreams = new Map<string, Upstream>();
  try {
    for (const [repo, dir] of args.copies) upstreams.set(repo, openUpstream(dir, args.at));
  } catch (error) {
    if (error instanceof UpstreamError) usage(error.message);
    throw error;
  }
  let loaded;
  try {
    loaded = await loadLocated(args.content);
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    for (const p of error.problems) console.log(`content: ${describe(p)}`);
    console.log(`0 pins checked, content invalid (${error.problems.length} problems)`);
    return 1;
  }
  const results = checkDrift(loaded.data, upstreams);
  for (const line of formatReport({ results, claims: citingClaims(loaded) })) console.log(line);
  if (args.update) {
    const plan = planUpdate(results);
    const written = applyUpdate(plan);
    console.log('', '--update:');
    for (const line of [...plan.updated, ...plan.kept]) console.log(`  ${line}`);
    console.log(
      written.length > 0
        ? `  rewrote ${written.length} file${written.length === 1 ? '' : 's'}: review with git diff, then build (npm run build) and run verify:quotes and verify:anchors against the new copies`
        : '  nothing to rewrite',
    );
  }
  const n = tally(results);
  const dateProblems = results.filter((r) => r.dateProblem).length;
  return n.changed + n.gone + n.error + dateProblems > 0 ? 1 : 0;
}

process.exitCode = await main();
