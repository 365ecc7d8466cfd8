#!/usr/bin/env bash
# One entry point for every npm script, so they work on a machine whose Node is too old:
# it brings Node >= 22.12 (see .ci/ensure-node.sh), installs the locked dependencies when
# they are missing or stale, then runs the task.
#   serve          build, then serve dist/ at http://127.0.0.1:$PORT$SITE_BASE (default 4321, /)
#   dev            the author's loop: astro dev, live reload of every edit under content/; an edit
#                  to code Node loaded (config, loaders, Markdown pipeline) restarts the server
#                  serve, dev and preview take Astro's own flags after `--` (npm run dev -- --port 3000
#                  --host 0.0.0.0); a --port or --host given there replaces the default above
#   test           everything CI runs: lint (see check) and the unit tests, and beside them the builds at / (dist/) and
#                  under a sub-path (dist-subpath/), for each its HTML (tests/dist) and the link gate,
#                  and types (astro check); then one e2e run over both builds
#   e2e            both builds, then the e2e suite (playwright.config.ts: projects root, subpath)
#   stress         both builds, then the e2e suite 5 times with every core kept busy (tools/stress.ts)
#   lab            a real kube-proxy per mode in network namespaces, the kit run on each (lab/run.sh);
#                  lab check: that, then its captures against the committed evidence (tools/lab-check.ts),
#                  then the drain run (lab/drain.sh) and its outcomes against the drain evidence;
#                  lab <run>: lab/<run>.sh, another run on the same parts (lab/lib.sh)
#   evidence       add a capture from a node: evidence add <capture folder>; check captures: what a pull
#                  request that publishes one is checked with (tools/evidence.ts)
#   verify-anchors [<folder>]  every code note's anchor in its lines of <folder>/<repo>/<commit>/<path>
#                  (default: the copies in ../shared/sources/kubernetes, or $KUBERNETES_SOURCES); the
#                  builds of test, e2e and stress run it first (anchors, below), and every build
#                  checks the same rule in-process
#   verify-drift [--enhancements <copy>] [--kubernetes <copy>] [--at <ref>] [--update]
#                  every excerpt and code note against a newer upstream (docs/refreshing.md)
#   check          the formatter (prettier --check), the linter (eslint), the layers' rules
#                  (depcruise, .dependency-cruiser.cjs) and types (astro check); test runs the first three
#                  as its lint step, and types after the builds
#   build|preview|unit|e2e|bench|verify-quotes   single steps
set -euo pipefail
# Where the user stands (npm sets INIT_CWD): `evidence add <relative path>` resolves from there.
export INIT_CWD="${INIT_CWD:-$PWD}"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export ASTRO_TELEMETRY_DISABLED=1
source .ci/ensure-node.sh

# Install when <dir>/node_modules does not hold what <dir>/package-lock.json locks: npm writes the
# tree it installed to node_modules/.package-lock.json, so a plain `npm ci` counts as installed too.
install_if_stale() { # <dir> [--prod]
  if ! node tools/lib/deps-current.ts ${2:-} "$1"; then
    echo "task: installing dependencies in ${1} (npm ci${2:+ --omit=dev})"
    npm ci --prefix "$1" ${2:+--omit=dev} --no-audit --no-fund --loglevel=error
  fi
}
# Building and serving need only the dependencies; the checks, tests and dev tools come with the
# tasks that use them (a whole install serves the first kind too).
case "${1:-}" in
  build | serve | preview) install_if_stale . --prod ;;
  *) install_if_stale . ;;
esac
export PATH="$PWD/node_modules/.bin:$PATH"

base="${SITE_BASE:-/}"
port="${PORT:-4321}"
# The sub-path the tests deploy under (playwright.config.ts reads the same variable).
export E2E_SUBPATH="${E2E_SUBPATH:-/kube-proxy-backends/}"

# Pagefind runs inside astro build (src/integrations/pagefind.ts). The log passes through
# tools/check-build-log.ts, which fails the build if it printed any warning (pipefail keeps
# astro's own failure too).
build() { astro build "$@" 2>&1 | node tools/check-build-log.ts; }
# `npm run verify:anchors` before the test builds: every code note's anchor in its lines of the
# pinned kubernetes/kubernetes copies beside the repository. (Every build checks the same rule
# in-process, src/lib/content/checks/excerpts.ts anchorsInTheirLines, which reads the same folder.)
# Where they are absent (a clone away from ../shared), says so and goes on; under CI=true that is a
# failure, as in the unit tests (tests/support/shared.ts).
anchors() {
  local folder="${KUBERNETES_SOURCES:-../shared/sources/kubernetes}"
  if [ -d "$folder" ]; then
    node tools/verify-anchors.ts "$folder"
  elif [ "${CI:-}" = true ]; then
    echo "task: no kubernetes/kubernetes copies at $folder (set KUBERNETES_SOURCES); CI=true, so verify-anchors must not be skipped" >&2
    return 1
  else
    echo "task: verify-anchors skipped: no kubernetes/kubernetes copies at $folder (set KUBERNETES_SOURCES)"
  fi
}
# The two builds the e2e suite reads, made as a deploy makes them (an address and a repository of
# their own, $TEST_SITE_URL and $TEST_SITE_REPOSITORY, which only name them: the tests serve the
# files themselves): dist/ at / and dist-subpath/ under $E2E_SUBPATH (own cache). `npm test` also
# reads dist-nosite/, built as `npm start` builds, with neither: it must publish no address of its own.
export TEST_SITE_URL="${TEST_SITE_URL:-https://kube-proxy-study.example}"
export TEST_SITE_REPOSITORY="${TEST_SITE_REPOSITORY:-https://github.com/example/kube-proxy-study}"
deploy_env() { SITE_URL=$TEST_SITE_URL SITE_REPOSITORY=$TEST_SITE_REPOSITORY "$@"; }
builds() {
  anchors
  SITE_BASE=/ deploy_env build
  SITE_BASE=$E2E_SUBPATH OUT_DIR=dist-subpath CACHE_DIR=node_modules/.astro-subpath deploy_env build
}
nosite_build() { SITE_URL='' SITE_REPOSITORY='' SITE_BASE=/ OUT_DIR=dist-nosite CACHE_DIR=node_modules/.astro-nosite build; }
# What reads a build without a browser: its HTML (tests/dist) and the link gate.
built_html() { # <folder> <base> [deployed: the deploy's SITE_URL and SITE_REPOSITORY, as builds() sets them]
  local site='' repo=''; [ -z "${3:-}" ] || { site=$TEST_SITE_URL; repo=$TEST_SITE_REPOSITORY; }
  DIST_DIR=$1 SITE_BASE=$2 SITE_URL=$site SITE_REPOSITORY=$repo node --test "tests/dist/**/*.test.ts"
  SITE_BASE=$2 SITE_URL=$site node tools/check-links.ts "$1"
}
# The formatter, the linter and the layers' rules.
lint() {
  prettier --check --log-level warn .
  eslint --max-warnings 0 .
  depcruise src tools tests astro.config.mjs --config .dependency-cruiser.cjs --output-type err
}
unit() { node --test --test-concurrency=2 "tests/unit/**/*.test.ts" "$@"; }
# Runs the named functions side by side, each into its own log; prints each log whole, in the
# order given, as soon as it and those before it are done; fails if any failed.
together() {
  local dir; dir=$(mktemp -d)
  local -a pids=()
  for job in "$@"; do ("$job" >"$dir/$job.log" 2>&1) & pids+=($!); done
  local status=0 i=0
  for job in "$@"; do
    if wait "${pids[$i]}"; then echo "task: $job passed"; else echo "task: $job FAILED"; status=1; fi
    cat "$dir/$job.log"
    i=$((i + 1))
  done
  rm -rf "$dir"
  return $status
}
# The builds, what reads them without a browser, then types: all beside the unit tests. The build
# has just synced the content and written .astro/, so astro check need not sync again (--noSync);
# it never runs beside a build of the site, which writes the same files.
types_builds_html() {
  builds
  nosite_build
  built_html dist / deployed
  built_html dist-subpath "$E2E_SUBPATH" deployed
  built_html dist-nosite /
  astro check --noSync
}

# Astro's own flags for a server: the caller's, plus --host 127.0.0.1 and --port $PORT where the caller
# gave none (Astro takes the last of a repeated flag, so the defaults must not follow the caller's).
# Sets server_args, and server_url for the message.
server_flags() {
  local host=127.0.0.1 p=$port arg next=''
  server_args=("$@")
  for arg in "$@"; do
    if [[ $arg != -* ]]; then case "$next" in host) host=$arg ;; port) p=$arg ;; esac; fi
    next=''
    case "$arg" in
      --host) next=host; host=0.0.0.0 ;; # a bare --host listens on every address, as in Astro
      --host=*) host=${arg#--host=} ;;
      --port) next=port ;;
      --port=*) p=${arg#--port=} ;;
    esac
  done
  [[ " $* " == *" --host"[\ =]* ]] || server_args+=(--host 127.0.0.1)
  [[ " $* " == *" --port"[\ =]* ]] || server_args+=(--port "$port")
  [[ "$host" == 0.0.0.0 || "$host" == true ]] && host=127.0.0.1
  server_url="http://$host:$p${base%/}/"
}

# The lab (lab/run.sh: a real kube-proxy per mode in network namespaces) captures the measured cells
# again, and tools/lab-check.ts compares what they state with the committed evidence. It needs root,
# Go and iproute2; without them it says why in one line and is skipped, except under CI=true.
lab_check() {
  local why=''
  if [ "$(id -u)" != 0 ]; then why='not root'
  elif ! command -v go >/dev/null; then why='no Go'
  elif ! command -v ip >/dev/null || ! command -v unshare >/dev/null; then why='no ip or unshare'
  fi
  if [ -n "$why" ]; then
    if [ "${CI:-}" = true ]; then echo "task: lab: $why, and CI=true: the measured cells must be reproduced" >&2; return 1; fi
    echo "task: lab skipped ($why): the measured cells were not reproduced here"
    return 0
  fi
  { bash lab/run.sh --no-add --refusal "$@" && node tools/lab-check.ts lab/out/captures; } || return 1
  # The drain run (lab/drain.sh): its cases' outcomes against the committed drain evidence.
  { bash lab/drain.sh && node tools/lab-check.ts --drain lab/out/drain; } || return 1
  # How the cost grows (lab/growth.sh): the committed sweep's two smallest sizes again, its counts
  # against the sweep's (tools/lab-check.ts --growth says so when the sweep has other sizes).
  bash lab/growth.sh --sizes "10 100" --changes 2 --fulls 1 --conns 40 --out lab/out/growth/check.txt &&
    node tools/lab-check.ts --growth lab/out/growth/check.txt
}

task="${1:-}"; shift || true
case "$task" in
  build) build "$@" ;;
  preview) server_flags "$@"; exec astro preview --ignore-lock "${server_args[@]}" ;;
  serve)
    server_flags "$@"
    build
    echo "task: serving the built site at $server_url (Ctrl-C stops it)"
    exec astro preview --ignore-lock "${server_args[@]}"
    ;;
  dev)
    server_flags "$@"
    echo "task: dev server at $server_url: edits under content/ show live; Ctrl-C stops it"
    # Astro reloads pages and components through Vite, but not the code its content layer and its
    # config run (the loaders, readers, rules, Markdown pipeline and integrations): a change under
    # these paths restarts the whole process, Node's documented --watch-path, so the next sync runs
    # the edited code (docs/authoring.md, "Edits to the code").
    exec node --watch-preserve-output --watch-path=src/lib --watch-path=src/integrations \
      --watch-path=src/content.config.ts --watch-path=astro.config.mjs \
      node_modules/astro/bin/astro.mjs dev "${server_args[@]}"
    ;;
  check) lint; astro check "$@" ;;
  unit) unit "$@" ;;
  e2e) builds; playwright test "$@" ;;
  verify-quotes) node tools/verify-quotes.ts "$@" ;;
  verify-anchors) node tools/verify-anchors.ts "$@" ;;
  verify-drift) node tools/verify-drift.ts "$@" ;;
  evidence) node tools/evidence.ts "$@" ;;
  release-check) node tools/release-check.ts "$@" ;;
  bench) install_if_stale tools/lighthouse; node tools/bench.ts "$@" ;;
  stress) builds; node tools/stress.ts "$@" ;;
  lab)
    # `npm run lab -- <run>` runs lab/<run>.sh when there is one (each sources lab/lib.sh).
    case "${1:-}" in
      check) shift; lab_check "$@" ;;
      [a-z]*) if [ -f "lab/$1.sh" ] && [ "$1" != lib ]; then r=$1; shift; bash "lab/$r.sh" "$@"; else bash lab/run.sh "$@"; fi ;;
      *) bash lab/run.sh "$@" ;;
    esac
    ;;
  test)
    together lint unit types_builds_html
    playwright test
    lab_check
    ;;
  *) echo "usage: tools/task.sh serve|dev|test|stress|build|preview|check|unit|e2e|bench|verify-quotes|verify-anchors|verify-drift|evidence|release-check|lab [check]" >&2; exit 2 ;;
esac
