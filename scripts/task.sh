#!/usr/bin/env bash
# One entry point for every npm script, so they work on a machine whose Node is too old:
# it brings Node >= 22.12 (see .ci/ensure-node.sh), installs the locked dependencies when
# they are missing or stale, then runs the task.
#   serve          build, then serve dist/ at http://127.0.0.1:$PORT$SITE_BASE (default 4321, /)
#   dev            the author's loop: astro dev, live reload of every edit under content/
#   test           everything CI runs: types, unit tests, then at / and under a sub-path: build,
#                  the built HTML (tests/dist), the link gate, e2e
#   stress         the e2e suite 5 times at each base with every core kept busy (scripts/stress.ts)
#   evidence       add a capture from a node: evidence add <capture folder> (scripts/evidence.ts)
#   build|preview|check|unit|e2e|bench|verify-quotes   single steps
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export ASTRO_TELEMETRY_DISABLED=1
source .ci/ensure-node.sh

# Install when node_modules does not match package-lock.json (stamp = hash of the lock).
stamp=node_modules/.lock-hash
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "task: installing dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$want" >"$stamp"
fi
export PATH="$PWD/node_modules/.bin:$PATH"

base="${SITE_BASE:-/}"
port="${PORT:-4321}"

# Pagefind runs inside astro build (src/integrations/pagefind.ts). The log passes through
# scripts/check-build-log.ts, which fails the build if it printed any warning (pipefail keeps
# astro's own failure too).
build() { astro build "$@" 2>&1 | node scripts/check-build-log.ts; }
e2e() { playwright test "$@"; }

task="${1:-}"; shift || true
case "$task" in
  build) build "$@" ;;
  preview) astro preview --ignore-lock --host 127.0.0.1 --port "$port" "$@" ;;
  serve)
    build
    echo "task: serving the built site at http://127.0.0.1:$port${base%/}/ (Ctrl-C stops it)"
    astro preview --ignore-lock --host 127.0.0.1 --port "$port"
    ;;
  dev)
    echo "task: dev server at http://127.0.0.1:$port${base%/}/: edits under content/ show live; Ctrl-C stops it"
    astro dev --host 127.0.0.1 --port "$port" "$@"
    ;;
  check) astro check "$@" ;;
  unit) node --test "tests/unit/**/*.test.ts" "$@" ;;
  e2e) e2e "$@" ;;
  verify-quotes) node scripts/verify-quotes.ts "$@" ;;
  evidence) node scripts/evidence.ts "$@" ;;
  bench) node scripts/bench.ts "$@" ;;
  stress) node scripts/stress.ts "$@" ;;
  test)
    astro check
    node --test "tests/unit/**/*.test.ts"
    for b in / /kube-proxy-backends/; do
      echo "task: build + e2e with SITE_BASE=$b"
      export SITE_BASE=$b
      build
      node --test "tests/dist/**/*.test.ts"
      node scripts/check-links.ts dist
      e2e
    done
    ;;
  *) echo "usage: scripts/task.sh serve|dev|test|stress|build|preview|check|unit|e2e|bench|verify-quotes|evidence" >&2; exit 2 ;;
esac
