#!/bin/sh
# Captures the evidence for the table's measured cells on a Kubernetes node, as root: runs each
# exercise's command unedited, saves exactly what it printed, records when (UTC), the node's
# kernel (uname -r), kube-proxy's version and mode (and how each was read), and a sha256 of every
# file. POSIX sh; needs no Node. Take the capture folder to a checkout of the site and run
# `npm run evidence -- add <folder>` (docs/evidence.md).
#
#   sh kube-proxy-evidence.sh [--out DIR] [--exercise 16|17|18]... [--deployment NS/NAME]
#                             [--log FILE] [--metrics URL] [--no-scale-back]
#
# Cells, by kube-proxy's mode on this node (a node runs one mode, so it yields one column):
#   iptables: exercise 16  `iptables-save -t nat`              (row endpoint-selection)
#             exercise 18  the "Restoring iptables" sync log   (row endpoint-change)
#   nftables: exercise 17  `nft list table ip kube-proxy`      (row endpoint-selection)
#             exercise 18  the "Running nftables transaction" sync log (row endpoint-change)
#   ipvs:     nothing: IPVS is read, not run, in this study.
#
# Exercise 18 changes the cluster: it scales --deployment up by one replica and back (unless
# --no-scale-back). It needs kubectl on this node with a kubeconfig allowed to get and scale that
# Deployment (one behind a Service), kube-proxy running at -v=9, and kube-proxy's log file (found
# under /var/log/pods/ or given with --log). Without --deployment it is skipped, saying so.
#
# kube-proxy's mode is read from its metrics server (GET <metrics>/proxyMode, default
# http://127.0.0.1:10249), else from the running process's --proxy-mode flag or its --config file;
# its version from the running binary (/proc/<pid>/exe --version), else from kubernetes_build_info
# in <metrics>/metrics. Anything it cannot read, it refuses to guess.
# Exercise 18 waits KUBE_PROXY_LOG_SETTLE seconds (default 5) after the sync's first log line, so
# the whole entry is in the log before it is copied.
set -eu

PROG=kube-proxy-evidence
die() { echo "$PROG: $*" >&2; exit 1; }
say() { echo "$PROG: $*" >&2; }

out=""
exercises=""
deployment=""
log=""
metrics="${KUBE_PROXY_METRICS:-http://127.0.0.1:10249}"
# Exercise 18: seconds to let kube-proxy finish logging a sync once its first line is there.
settle="${KUBE_PROXY_LOG_SETTLE:-5}"
case "$settle" in ''|*[!0-9]*) die "KUBE_PROXY_LOG_SETTLE must be a whole number of seconds, not '$settle'" ;; esac
scale_back=1
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || die "--out needs a directory"; out=$2; shift 2 ;;
    --exercise) [ $# -ge 2 ] || die "--exercise needs 16, 17 or 18"; exercises="$exercises $2"; shift 2 ;;
    --deployment) [ $# -ge 2 ] || die "--deployment needs NAMESPACE/NAME"; deployment=$2; shift 2 ;;
    --log) [ $# -ge 2 ] || die "--log needs kube-proxy's log file"; log=$2; shift 2 ;;
    --metrics) [ $# -ge 2 ] || die "--metrics needs a URL like http://127.0.0.1:10249"; metrics=$2; shift 2 ;;
    --no-scale-back) scale_back=0; shift ;;
    -h|--help) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
for e in $exercises; do
  case "$e" in 16|17|18) ;; *) die "--exercise $e: only exercises 16, 17 and 18 measure cells" ;; esac
done

[ "$(id -u)" = 0 ] || die "run as root on the node (iptables-save and nft need it): sudo sh $0 ..."
command -v sha256sum >/dev/null 2>&1 || die "sha256sum is missing on this node (coreutils or busybox provide it)"
command -v uname >/dev/null 2>&1 || die "uname is missing"

# --- what the node says about itself -------------------------------------------------------

fetch() { # URL -> body on stdout
  if command -v curl >/dev/null 2>&1; then curl -fsS --max-time 5 "$1"
  elif command -v wget >/dev/null 2>&1; then wget -q -T 5 -O - "$1"
  else return 127; fi
}

# The kube-proxy process, if this shell can see it (kubectl debug node/... shares the host's PIDs).
pid=""
for p in /proc/[0-9]*; do
  [ "$(cat "$p/comm" 2>/dev/null)" = kube-proxy ] || continue
  pid=${p#/proc/}; break
done
args=""
[ -n "$pid" ] && args=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)
flag() { # --name -> its value from kube-proxy's command line (--name=v or --name v)
  printf '%s\n' "$args" | tr ' ' '\n' | awk -v f="$1" '$0 == f { getline; print; exit } index($0, f "=") == 1 { print substr($0, length(f) + 2); exit }'
}

mode=""; mode_from=""
if m=$(fetch "$metrics/proxyMode" 2>/dev/null) && [ -n "$m" ]; then
  mode=$m; mode_from="GET $metrics/proxyMode (kube-proxy's metrics server)"
elif [ -n "$pid" ] && m=$(flag --proxy-mode) && [ -n "$m" ]; then
  mode=$m; mode_from="--proxy-mode on the command line of kube-proxy (pid $pid)"
elif [ -n "$pid" ] && cfg=$(flag --config) && [ -n "$cfg" ] && [ -r "/proc/$pid/root$cfg" ] \
  && m=$(awk '/^mode:/ { gsub(/["'\'' ]/, "", $2); print $2; exit }' "/proc/$pid/root$cfg") && [ -n "$m" ]; then
  mode=$m; mode_from="mode in kube-proxy's --config file $cfg (pid $pid)"
fi
[ -n "$mode" ] || die "cannot read kube-proxy's mode: $metrics/proxyMode did not answer (is this the node, and its metrics bind address? --metrics URL), and no kube-proxy process with --proxy-mode or a config file stating mode: is visible. Refusing to guess."
mode=$(printf '%s' "$mode" | tr -d '[:space:]')

version=""; version_from=""
# kube-proxy --version prints "Kubernetes v1.x.y"; another answer (a wrapper's interpreter, say) is
# not kube-proxy's version, so it is not taken.
if [ -n "$pid" ] && v=$("/proc/$pid/exe" --version 2>/dev/null) && v=$(printf '%s\n' "$v" | sed -n 's/^Kubernetes \(v[0-9][^ ]*\)$/\1/p' | head -n 1) && [ -n "$v" ]; then
  version=$v; version_from="/proc/$pid/exe --version (the running kube-proxy's binary)"
elif b=$(fetch "$metrics/metrics" 2>/dev/null) && v=$(printf '%s\n' "$b" | grep '^kubernetes_build_info{' | grep -o 'git_version="[^"]*"' | head -n 1 | cut -d'"' -f2) && [ -n "$v" ]; then
  version=$v; version_from="git_version of kubernetes_build_info in $metrics/metrics"
fi
[ -n "$version" ] || die "cannot read kube-proxy's version (no visible kube-proxy process to ask with --version, no kubernetes_build_info at $metrics/metrics). Refusing to guess."

kernel=$(uname -r)
captured_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)

# --- which cells this node can measure -------------------------------------------------------

case "$mode" in
  iptables) dump_ex=16 ;;
  nftables) dump_ex=17 ;;
  ipvs) die "kube-proxy runs in mode ipvs here: IPVS is read, not run, in this study, so no cell of its column can be measured. Capture on a node in iptables or nftables mode." ;;
  *) die "kube-proxy reports mode \"$mode\": the table measures only iptables and nftables" ;;
esac
[ -n "$exercises" ] || exercises="$dump_ex 18"
for e in $exercises; do
  case "$e" in
    16|17) [ "$e" = "$dump_ex" ] || die "exercise $e dumps the $( [ "$e" = 16 ] && echo iptables || echo nftables) backend, but kube-proxy runs in mode $mode on this node: capture exercise $dump_ex here, or exercise $e on a node in that mode" ;;
  esac
done

# --- every precondition, before the first command ---------------------------------------------

[ -n "$out" ] || out="kube-proxy-capture-$(date -u +%Y%m%dT%H%M%SZ)"
[ ! -e "$out" ] || die "$out already exists: give a new --out directory"
parent=$(dirname "$out")
[ -d "$parent" ] && [ -w "$parent" ] || die "cannot write the capture into $parent: give --out a directory in a writable folder"

has18=0
for e in $exercises; do
  case "$e" in
    16) command -v iptables-save >/dev/null 2>&1 || die "exercise 16 needs iptables-save on this node" ;;
    17) command -v nft >/dev/null 2>&1 || die "exercise 17 needs nft on this node" ;;
    18) if [ -n "$deployment" ]; then has18=1; else say "exercise 18 skipped: it needs --deployment NAMESPACE/NAME (a Deployment behind a Service) to scale by one; see --help"; fi ;;
  esac
done
if [ "$has18" = 1 ]; then
  ns=${deployment%%/*}; name=${deployment#*/}
  [ -n "$ns" ] && [ -n "$name" ] && [ "$ns" != "$deployment" ] || die "--deployment must be NAMESPACE/NAME, got $deployment"
  command -v kubectl >/dev/null 2>&1 || die "exercise 18 needs kubectl on this node (with a kubeconfig allowed to get and scale deployment $deployment)"
  replicas=$(kubectl -n "$ns" get deployment "$name" -o 'jsonpath={.spec.replicas}') || die "exercise 18: kubectl cannot read deployment $deployment (KUBECONFIG? rights?)"
  case "$replicas" in ''|*[!0-9]*) die "exercise 18: deployment $deployment has no replica count ($replicas)" ;; esac
  if [ -z "$log" ]; then
    log=$(ls -t /var/log/pods/*_kube-proxy-*/kube-proxy/*.log 2>/dev/null | head -n 1 || true)
    [ -n "$log" ] || die "exercise 18 needs kube-proxy's log: none under /var/log/pods/*_kube-proxy-*/kube-proxy/; give --log FILE (e.g. a file kube-proxy --log-file writes)"
  fi
  [ -f "$log" ] && [ -r "$log" ] || die "exercise 18: cannot read kube-proxy's log $log"
  if [ -n "$pid" ]; then
    v=$(flag --v); [ -n "$v" ] || v=$(flag -v)
    [ "${v:-0}" -ge 9 ] 2>/dev/null || die "exercise 18: kube-proxy (pid $pid) runs at -v=${v:-0}; it logs what it writes to the kernel only at -v=9. Restart it with --v=9 (kube-proxy DaemonSet args), then capture."
  else
    say "exercise 18: no kube-proxy process visible, so its -v level is unchecked; the capture fails if nothing is logged"
  fi
  if command -v curl >/dev/null 2>&1; then get='curl -fsS --max-time 5'; else get='wget -q -T 5 -O -'; fi
  case "$mode" in iptables) marker='Restoring iptables' ;; nftables) marker='Running nftables transaction' ;; esac
fi

# The capture is built in a folder beside $out and renamed to $out only once it is whole, so a
# refusal or a failure from here on leaves neither $out nor a half-written folder behind.
tmp=$(mktemp -d "$parent/.kube-proxy-capture.XXXXXX" 2>/dev/null) || { tmp="$parent/.kube-proxy-capture.$$"; mkdir "$tmp"; } || die "cannot create a folder in $parent"
on_fail=:
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# One cell: writes its command, runs exactly that with sh, keeps stdout as the output.
cell() { # exercise axis
  dir="$tmp/ex$1-$mode"
  mkdir "$dir"
  printf 'exercise=%s\naxis=%s\nbackend=%s\n' "$1" "$2" "$mode" >"$dir/cell"
  cat >"$dir/command"
  say "exercise $1 ($mode): running ex$1-$mode/command"
  if ! sh "$dir/command" >"$dir/output" 2>"$dir/stderr"; then
    cat "$dir/stderr" >&2
    $on_fail
    die "exercise $1: the command failed (above); nothing was kept"
  fi
  [ -s "$dir/output" ] || { $on_fail; die "exercise $1: the command printed nothing; nothing was kept"; }
}

for e in $exercises; do
  case "$e" in
    16)
      printf 'iptables-save -t nat\n' | cell 16 endpoint-selection
      grep -q '^-A KUBE-SVC-.* -j KUBE-SEP-' "$tmp/ex16-$mode/output" ||
        die "exercise 16: the nat table has no KUBE-SVC-* chain jumping to a KUBE-SEP-* chain. Does a Service with endpoints exist? Is the host's iptables-save the variant kube-proxy writes with (legacy or nft; compare iptables-save -V with kube-proxy's)?" ;;
    17)
      printf 'nft list table ip kube-proxy\n' | cell 17 endpoint-selection
      grep -q 'numgen random mod [0-9]* vmap' "$tmp/ex17-$mode/output" ||
        die "exercise 17: table ip kube-proxy has no numgen random mod ... vmap rule. Does a Service with endpoints exist?" ;;
    18)
      [ "$has18" = 1 ] || continue
      # The byte offset where this change's log starts, so older syncs are left out.
      from=$(( $(wc -c <"$log") + 1 ))
      [ "$scale_back" = 0 ] || on_fail="kubectl -n $ns scale deployment $name --replicas=$replicas"
      cell 18 endpoint-change <<EOF
# Exercise 18, $mode: one endpoint change (deployment $deployment scaled $replicas -> $((replicas + 1)))
# and what kube-proxy logged that it wrote to the kernel for it. kubectl's own messages go to stderr.
# The log holds CRI records ("<time> <stream> <P|F> <text>") or plain klog lines. A line the runtime
# cut into P records is printed joined, as one F record with its first record's time. Each
# "$marker" entry is kept whole: its line and, for klog's multi-line value (key=<),
# the tab-indented lines up to the " >" line.
echo '# kubeproxy_sync_* metrics before'
$get '$metrics/metrics' | grep '^kubeproxy_sync_' || true
kubectl -n '$ns' scale deployment '$name' --replicas=$((replicas + 1)) >&2
kubectl -n '$ns' rollout status deployment '$name' --timeout=180s >&2
i=0; until tail -c +$from '$log' | grep -q '"$marker"'; do i=\$((i + 1)); [ \$i -le 60 ] || { echo 'no "$marker" line in $log within 60 s: is kube-proxy at -v=9?' >&2; exit 1; }; sleep 1; done
sleep $settle
echo '# $log from byte $from: each "$marker" entry, with its payload'
tail -c +$from '$log' | awk -v marker='"$marker"' '
  { rec = \$0; l = rec }
  match(rec, /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[^ ]* (stdout|stderr) [A-Z:]+ /) {
    split(substr(rec, 1, RLENGTH), h, " "); l = substr(rec, RLENGTH + 1)
    if (h[3] ~ /(^|:)P(:|\$)/) { if (!(h[2] in part)) { head[h[2]] = h[1] " " h[2] " F "; part[h[2]] = "" } part[h[2]] = part[h[2]] l; next }
    if (h[2] in part) { l = part[h[2]] l; rec = head[h[2]] l; delete part[h[2]] }
  }
  on { print rec; if (substr(l, 1, 1) != "\t") on = (l ~ /=<\$/); next }
  index(l, marker) { print rec; on = (l ~ /=<\$/) }
  END {
    for (s in part) if (on || index(part[s], marker)) { print "kube-proxy log ends inside a partial line (CRI P records, no F record) of a " marker " entry: it was still being written; raise KUBE_PROXY_LOG_SETTLE and capture again" > "/dev/stderr"; exit 1 }
    if (on) { print "kube-proxy log ends inside a " marker " entry (no \" >\" line yet): it was still being written; raise KUBE_PROXY_LOG_SETTLE and capture again" > "/dev/stderr"; exit 1 }
  }' || exit 1
echo '# kubeproxy_sync_* metrics after'
$get '$metrics/metrics' | grep '^kubeproxy_sync_' || true
EOF
      if [ "$scale_back" = 1 ]; then
        say "exercise 18: scaling deployment $deployment back to $replicas replicas"
        kubectl -n "$ns" scale deployment "$name" --replicas="$replicas" >&2 || say "exercise 18: scaling back failed; scale $deployment to $replicas yourself"
      fi
      on_fail=: ;;
  esac
done

n=$(find "$tmp" -name output | wc -l)
[ "$n" -gt 0 ] || die "nothing captured"
{
  echo "format=1"
  echo "captured_at=$captured_at"
  echo "kernel=$kernel"
  echo "kube_proxy_version=$version"
  echo "version_from=$version_from"
  echo "mode=$mode"
  echo "mode_from=$mode_from"
} >"$tmp/capture.env"

(cd "$tmp" && rm -f ./*/stderr && sha256sum capture.env ./*/cell ./*/command ./*/output >SHA256SUMS)
[ ! -e "$out" ] || die "$out appeared while capturing: nothing was kept; give a new --out directory"
mv "$tmp" "$out" || die "cannot move the capture to $out; nothing was kept"
trap - EXIT
say "captured $n cell(s) into $out (kube-proxy $version, mode $mode, kernel $kernel, $captured_at)"
say "next, on your checkout of the site: npm run evidence -- add $out"
