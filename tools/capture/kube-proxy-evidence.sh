#!/bin/sh
# Captures the evidence for the table's measured cells on a Kubernetes node, as root: runs each
# exercise's command unedited, saves exactly what it printed, records when (UTC), the node's
# kernel (uname -r), kube-proxy's version and mode (and how each was read), and a sha256 of every
# file. POSIX sh; needs no Node. Take the capture folder to a checkout of the site and run
# `npm run evidence -- add <folder>` (docs/evidence.md).
#
#   sh kube-proxy-evidence.sh [--out DIR] [--exercise 16|17|18]... [--deployment NS/NAME]
#                             [--service NAME] [--log FILE] [--metrics URL] [--no-scale-back]
#                             [--setting FILE]
#
# Cells, by kube-proxy's mode on this node (a node runs one mode, so it yields one column):
#   iptables: exercise 16  `iptables-save -t nat`              (row endpoint-selection)
#             exercise 18  the "Restoring iptables" sync log   (row endpoint-change)
#   nftables: exercise 17  `nft list table ip kube-proxy`      (row endpoint-selection)
#             exercise 18  the "Running nftables transaction" sync log (row endpoint-change)
#   ipvs:     nothing: IPVS is read, not run, in this study.
#
# Exercise 18 changes the cluster: it scales --deployment up by one replica and back (unless
# --no-scale-back; an interrupt (SIGINT), a kill (SIGTERM), a hangup (SIGHUP: a dropped ssh -t or
# kubectl exec -it) or a failure after the scale always scales it back, and signals that arrive
# during that scale back or the removal of its temporary folders are ignored). A `kubectl scale`
# that exits non-zero is checked by reading the replicas back: a scale applied anyway is scaled
# back, saying so. It records the
# Service's rules before the scale (--service, in the Deployment's namespace; default: the
# Deployment's name), kubectl's exit statuses and messages, and the replicas before and after; it
# stops, keeping nothing, when kubectl cannot scale or the rollout fails. It needs kubectl on this
# node with a kubeconfig allowed to get and scale that Deployment, kube-proxy at verbosity 9 (--v=9
# or logging.verbosity in its config file), and kube-proxy's log file (under /var/log/pods/, or
# --log). Without --deployment it is skipped, saying so.
#
# kube-proxy is the one process named kube-proxy that root runs from a binary root owns and no one
# else can write; others of that name are ignored, saying so, and two such processes are refused.
# Its mode is read from its metrics server (GET <metrics>/proxyMode, default
# http://127.0.0.1:10249), else from that process's --proxy-mode flag or its --config file; its
# version from kubernetes_build_info in <metrics>/metrics, else from that binary's --version. The
# metrics server is asked only when the socket listening there is that process's own
# (/proc/net/tcp and tcp6, and /proc/<pid>/fd); another program listening there is refused, named.
# Anything it cannot read, it refuses to guess. It also records the node's iptables and nft versions
# (`--version`, when they are installed), and with --setting FILE keeps that file's text as the
# capture's setting: where it was taken, in your words (the cluster, what was simulated).
# Exercise 18 waits KUBE_PROXY_LOG_SETTLE seconds (default 5) after the sync's first log line, so
# the whole entry is in the log before it is copied.
set -eu

PROG=kube-proxy-evidence
die() { echo "$PROG: $*" >&2; exit 1; }
say() { echo "$PROG: $*" >&2; }

out=""
exercises=""
deployment=""
svc=""
log=""
setting=""
metrics="${KUBE_PROXY_METRICS:-http://127.0.0.1:10249}"
# Exercise 18: seconds to let kube-proxy finish logging a sync once its first line is there.
settle="${KUBE_PROXY_LOG_SETTLE:-5}"
case "$settle" in ''|*[!0-9]*) die "KUBE_PROXY_LOG_SETTLE must be a whole number of seconds, not '$settle'" ;; esac
scale_back=1
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || die "--out needs a directory"; out=$2; shift 2 ;;
    --exercise)
      [ $# -ge 2 ] || die "--exercise needs 16, 17 or 18"
      case " $exercises " in *" $2 "*) die "--exercise $2 is given twice: name each exercise once" ;; esac
      exercises="$exercises $2"; shift 2 ;;
    --deployment) [ $# -ge 2 ] || die "--deployment needs NAMESPACE/NAME"; deployment=$2; shift 2 ;;
    --service) [ $# -ge 2 ] || die "--service needs the name of the Service in front of the Deployment"; svc=$2; shift 2 ;;
    --log) [ $# -ge 2 ] || die "--log needs kube-proxy's log file"; log=$2; shift 2 ;;
    --metrics) [ $# -ge 2 ] || die "--metrics needs a URL like http://127.0.0.1:10249"; metrics=$2; shift 2 ;;
    --no-scale-back) scale_back=0; shift ;;
    --setting) [ $# -ge 2 ] || die "--setting needs a file describing where the capture is taken"; setting=$2; shift 2 ;;
    -h|--help) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
for e in $exercises; do
  case "$e" in 16|17|18) ;; *) die "--exercise $e: only exercises 16, 17 and 18 measure cells" ;; esac
done

[ -z "$setting" ] || [ -s "$setting" ] || die "--setting $setting: no such file, or it is empty"
[ "$(id -u)" = 0 ] || die "run as root on the node (iptables-save and nft need it): sudo sh $0 ..."
command -v sha256sum >/dev/null 2>&1 || die "sha256sum is missing on this node (coreutils or busybox provide it)"
command -v uname >/dev/null 2>&1 || die "uname is missing"
command -v stat >/dev/null 2>&1 || die "stat is missing on this node (coreutils or busybox provide it)"

# --- what the node says about itself -------------------------------------------------------

fetch() { # URL -> body on stdout
  if command -v curl >/dev/null 2>&1; then curl -fsS --max-time 5 "$1"
  elif command -v wget >/dev/null 2>&1; then wget -q -T 5 -O - "$1"
  else echo "neither curl nor wget is on this node" >&2; return 127; fi
}

# The kube-proxy process, if this shell can see it (kubectl debug node/... shares the host's PIDs).
# Only a process root runs, from a binary root owns and neither its group nor others can write, is
# asked anything: a process of another user, or of a binary another user could replace, could
# otherwise choose the mode and verbosity the capture records, or get a program of its own run as
# root by --version. Two trusted candidates are refused, named, rather than one guessed.
pid=""; trusted=""
for p in /proc/[0-9]*; do
  [ "$(cat "$p/comm" 2>/dev/null)" = kube-proxy ] || continue
  q=${p#/proc/}
  uids=$(awk '/^Uid:/ { print $2, $3; exit }' "$p/status" 2>/dev/null) || uids=""
  if [ "$uids" != "0 0" ]; then
    say "ignoring process $q named kube-proxy: it runs as uid ${uids%% *}, not root (neither executed nor believed)"; continue
  fi
  exe=$(readlink "$p/exe" 2>/dev/null) || exe="?"
  if ! own=$(stat -L -c '%u %a' "$p/exe" 2>/dev/null); then
    say "ignoring process $q named kube-proxy: its binary $exe cannot be examined"; continue
  fi
  case "${own%% *}:${own#* }" in
    0:*[2367]|0:*[2367][0-7]) say "ignoring process $q named kube-proxy: its binary $exe (mode ${own#* }) can be written by users other than root"; continue ;;
    0:*) ;;
    *) say "ignoring process $q named kube-proxy: its binary $exe is owned by uid ${own%% *}, not root"; continue ;;
  esac
  trusted="$trusted
  pid $q ($exe)"
  [ -n "$pid" ] && die "more than one process named kube-proxy runs as root from a root-owned binary:$trusted
Refusing to pick one: stop all but kube-proxy's own, then capture."
  pid=$q
done
args=""
[ -n "$pid" ] && args=$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null || true)
flag() { # --name -> its value from kube-proxy's command line (--name=v or --name v)
  printf '%s\n' "$args" | tr ' ' '\n' | awk -v f="$1" '$0 == f { getline; print; exit } index($0, f "=") == 1 { print substr($0, length(f) + 2); exit }'
}
# kube-proxy's --config file, as this shell sees it.
cfg=""; cfg_path=""
if [ -n "$pid" ] && cfg=$(flag --config) && [ -n "$cfg" ]; then
  case "$cfg" in /*) cfg_path="/proc/$pid/root$cfg" ;; *) cfg_path="/proc/$pid/cwd/$cfg" ;; esac
  [ -r "$cfg_path" ] || cfg_path=""
fi

# Whose server answers at $metrics: anyone may listen on a free port, and a server of another
# program there would choose the mode and version the capture records. It is asked only when the
# sockets listening on the URL's port, at its address or at any address (/proc/net/tcp and tcp6,
# state 0A), are all among the trusted process's open files (/proc/<pid>/fd); one that is not is
# refused, naming its process. /proc/net/tcp prints each 32-bit word of an address in the host's
# byte order: both orders are looked for, which can only add sockets to check.
metrics_ok=0; metrics_why=""
mhost=${metrics#*://}; mhost=${mhost%%/*}
case "$metrics" in https://*) mport=443 ;; *) mport=80 ;; esac
case "$mhost" in
  \[*\]:*) mport=${mhost##*]:}; mhost=${mhost#\[}; mhost=${mhost%%]*} ;;
  \[*\]) mhost=${mhost#\[}; mhost=${mhost%]} ;;
  *:*) mport=${mhost##*:}; mhost=${mhost%:*} ;;
esac
case "$mport" in ''|*[!0-9]*) die "--metrics $metrics: cannot read its port" ;; esac
listeners() { # the sockets listening on $mport at $mhost or any address, as inode:uid; NAME when $mhost is not an address
  awk -v host="$mhost" -v port="$mport" '
    function hexval(s,   i, v) { v = 0; s = tolower(s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
    function add(n,   i, w, be, le) {
      be = ""; le = ""
      for (i = 1; i <= n; i++) be = be sprintf("%02X", B[i])
      for (w = 0; w < n / 4; w++) for (i = 4; i >= 1; i--) le = le sprintf("%02X", B[4 * w + i])
      cand[be] = 1; cand[le] = 1
    }
    function v4(h, mapped,   q, i, o) {
      split(h, q, "."); o = mapped ? 12 : 0
      for (i = 1; i <= o; i++) B[i] = (mapped && i > 10) ? 255 : 0
      for (i = 1; i <= 4; i++) { if (q[i] + 0 > 255) return 0; B[o + i] = q[i] + 0 }
      add(o + 4); return 1
    }
    function v6(h,   q, k, left, right, nl, nr, L, R, g, n, i) {
      if (match(h, /[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$/)) {
        split(substr(h, RSTART), q, "."); if (q[1] > 255 || q[2] > 255 || q[3] > 255 || q[4] > 255) return 0
        h = substr(h, 1, RSTART - 1) sprintf("%x:%x", q[1] * 256 + q[2], q[3] * 256 + q[4])
      }
      k = index(h, "::")
      if (k) { left = substr(h, 1, k - 1); right = substr(h, k + 2) } else { left = h; right = "" }
      nl = left == "" ? 0 : split(left, L, ":"); nr = right == "" ? 0 : split(right, R, ":")
      if ((k && nl + nr > 7) || (!k && nl != 8)) return 0
      n = 0
      for (i = 1; i <= nl; i++) g[++n] = L[i]
      if (k) for (i = nl + nr; i < 8; i++) g[++n] = "0"
      for (i = 1; i <= nr; i++) g[++n] = R[i]
      for (i = 1; i <= 8; i++) {
        if (g[i] !~ /^[0-9a-fA-F][0-9a-fA-F]?[0-9a-fA-F]?[0-9a-fA-F]?$/) return 0
        B[2 * i - 1] = int(hexval(g[i]) / 256); B[2 * i] = hexval(g[i]) % 256
      }
      add(16); return 1
    }
    BEGIN {
      if (host == "localhost") { v4("127.0.0.1", 0); v6("::1") }
      else if (host ~ /^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$/) { if (!v4(host, 0)) { print "NAME"; exit } v4(host, 1) }
      else if (index(host, ":") == 0 || !v6(host)) { print "NAME"; exit }
      cand["00000000"] = 1; cand["00000000000000000000000000000000"] = 1
    }
    FNR == 1 { next }
    { split($2, a, ":"); if ($4 == "0A" && hexval(a[2]) == port + 0 && (a[1] in cand)) print $10 ":" $8 }
  ' /proc/net/tcp /proc/net/tcp6 2>/dev/null
}
if [ -z "$pid" ]; then
  metrics_why="no trusted kube-proxy process is visible, so nothing tells whose server answers at $metrics"
elif [ ! -r /proc/net/tcp ]; then
  metrics_why="/proc/net/tcp cannot be read, so nothing tells whose server answers at $metrics"
else
  socks=$(listeners)
  case "$socks" in
    NAME) die "--metrics $metrics: give the metrics server's address as an IP address (127.0.0.1, [::1], the node's address) or localhost, not a name: the script asks it only when it sees that kube-proxy (pid $pid) listens there" ;;
    '') metrics_why="nothing listens on port $mport at $mhost in this network namespace" ;;
    *)
      fds=$(ls -l "/proc/$pid/fd" 2>/dev/null || true)
      for sk in $socks; do
        ino=${sk%%:*}
        case "$fds" in *"socket:[$ino]"*) continue ;; esac
        who=""
        for p in /proc/[0-9]*; do
          case "$(ls -l "$p/fd" 2>/dev/null)" in *"socket:[$ino]"*) who=${p#/proc/}; break ;; esac
        done
        if [ -n "$who" ]; then whom="process $who ($(cat "/proc/$who/comm" 2>/dev/null), uid ${sk#*:})"
        else whom="a process this shell cannot see (uid ${sk#*:})"; fi
        die "the metrics server $metrics is served by $whom, not by kube-proxy (pid $pid): refusing to believe its mode and version. Stop that program, or give --metrics the address kube-proxy's own metrics server listens on (its --metrics-bind-address or metricsBindAddress); is this shell in the node's network namespace?"
      done
      metrics_ok=1
      say "the metrics server $metrics is kube-proxy's own (pid $pid listens on it)" ;;
  esac
fi

mode=""; mode_from=""
if [ "$metrics_ok" = 1 ] && m=$(fetch "$metrics/proxyMode" 2>/dev/null) && [ -n "$m" ]; then
  mode=$m; mode_from="GET $metrics/proxyMode (kube-proxy's metrics server)"
elif [ -n "$pid" ] && m=$(flag --proxy-mode) && [ -n "$m" ]; then
  mode=$m; mode_from="--proxy-mode on the command line of kube-proxy (pid $pid)"
elif [ -n "$cfg_path" ] && m=$(awk '/^mode:/ { gsub(/["'\'' ]/, "", $2); print $2; exit }' "$cfg_path") && [ -n "$m" ]; then
  mode=$m; mode_from="mode in kube-proxy's --config file $cfg (pid $pid)"
fi
[ -n "$mode" ] || die "cannot read kube-proxy's mode: ${metrics_why:-$metrics/proxyMode did not answer} (is this the node, and its metrics bind address? --metrics URL), and no trusted kube-proxy process with --proxy-mode or a config file stating mode: is visible. Refusing to guess."
mode=$(printf '%s' "$mode" | tr -d '[:space:]')

# The version from the metrics server first: nothing is executed for it. The binary's --version only
# when that has none, and only from the trusted process above; its answer is taken only when it is
# kube-proxy's ("Kubernetes v1.x.y"), and refused otherwise, quoting it.
version=""; version_from=""; answered=""
if [ "$metrics_ok" = 1 ] && b=$(fetch "$metrics/metrics" 2>/dev/null) && v=$(printf '%s\n' "$b" | grep '^kubernetes_build_info{' | grep -o 'git_version="[^"]*"' | head -n 1 | cut -d'"' -f2) && [ -n "$v" ]; then
  version=$v; version_from="git_version of kubernetes_build_info in $metrics/metrics"
elif [ -n "$pid" ]; then
  st=0; a=$("/proc/$pid/exe" --version 2>&1) || st=$?
  v=$(printf '%s\n' "$a" | sed -n 's/^Kubernetes \(v[0-9][^ ]*\)$/\1/p' | head -n 1)
  if [ "$st" = 0 ] && [ -n "$v" ]; then
    version=$v; version_from="/proc/$pid/exe --version (the running kube-proxy's binary, $(readlink "/proc/$pid/exe" 2>/dev/null))"
  else
    answered=" The binary of kube-proxy (pid $pid, $(readlink "/proc/$pid/exe" 2>/dev/null)) answered --version with exit status $st and \"$(printf '%s' "$a" | head -n 1 | cut -c 1-200)\", not \"Kubernetes v...\"."
  fi
fi
if [ "$metrics_ok" = 1 ]; then asked="no kubernetes_build_info at $metrics/metrics."; else asked="the metrics server was not asked: $metrics_why."; fi
[ -n "$version" ] || die "cannot read kube-proxy's version: $asked${answered:- No trusted kube-proxy process is visible to ask with --version.} Refusing to guess."

kernel=$(uname -r)
captured_at=$(date -u +%Y-%m-%dT%H:%M:%SZ)

# --- which cells this node can measure -------------------------------------------------------

case "$mode" in
  iptables) dump_ex=16; dump='iptables-save -t nat' ;;
  nftables) dump_ex=17; dump='nft list table ip kube-proxy' ;;
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
  [ -n "$svc" ] || svc=$name
  case "$svc" in */*|'') die "--service is the Service's name in the Deployment's namespace ($ns), got $svc" ;; esac
  command -v "${dump%% *}" >/dev/null 2>&1 || die "exercise 18 needs ${dump%% *} on this node (it records the Service's rules before the change)"
  command -v kubectl >/dev/null 2>&1 || die "exercise 18 needs kubectl on this node (with a kubeconfig allowed to get and scale deployment $deployment)"
  replicas=$(kubectl -n "$ns" get deployment "$name" -o 'jsonpath={.spec.replicas}') || die "exercise 18: kubectl cannot read deployment $deployment (KUBECONFIG? rights?)"
  case "$replicas" in ''|*[!0-9]*) die "exercise 18: deployment $deployment has no replica count ($replicas)" ;; esac
  [ "$replicas" -ge 1 ] || die "exercise 18: deployment $deployment has 0 replicas: the Service needs endpoints before the change, so scale it to 1 or more first"
  kubectl -n "$ns" get service "$svc" -o name >/dev/null || die "exercise 18: kubectl cannot read service $ns/$svc, the Service whose endpoints change (name it with --service NAME)"
  if [ -z "$log" ]; then
    log=$(ls -t /var/log/pods/*_kube-proxy-*/kube-proxy/*.log 2>/dev/null | head -n 1 || true)
    [ -n "$log" ] || die "exercise 18 needs kube-proxy's log: none under /var/log/pods/*_kube-proxy-*/kube-proxy/; give --log FILE (e.g. a file kube-proxy --log-file writes)"
  fi
  [ -f "$log" ] && [ -r "$log" ] || die "exercise 18: cannot read kube-proxy's log $log"
  # Docker's json-file driver (cri-dockerd) writes {"log":...} lines, which this kit does not read.
  real_log=$(readlink -f "$log" 2>/dev/null || echo "$log")
  case "$real_log" in */containers/*-json.log*) json=1 ;; *) json=0 ;; esac
  [ "$json" = 1 ] || ! head -c 4096 "$log" | grep -q '^{"log":' || json=1
  [ "$json" = 0 ] || die "exercise 18: kube-proxy's log $log ($real_log) is written by Docker's json-file logging driver (cri-dockerd), whose {\"log\":...} lines this kit does not read. Give --log a file kube-proxy writes itself (its --log-file, with --logtostderr=false), or capture on a node whose runtime writes CRI logs (containerd, CRI-O)."
  if [ -n "$pid" ]; then
    # --v 9, --v=9, -v 9, -v=9, or pflag's shorthand with its value attached, -v9.
    v=$(flag --v); [ -n "$v" ] || v=$(flag -v)
    [ -n "$v" ] || v=$(printf '%s\n' "$args" | tr ' ' '\n' | sed -n 's/^-v\([0-9][0-9]*\)$/\1/p' | head -n 1)
    v_from="--v on its command line"
    if [ -z "$v" ] && [ -n "$cfg_path" ]; then
      # Block style (logging: / verbosity: 9) or flow style (logging: {format: text, verbosity: 9}).
      v=$(awk '/^logging:/ { on = 1; next } on && /^[^ \t#]/ { on = 0 } on && $1 == "verbosity:" { gsub(/["'\'']/, "", $2); print $2; exit }' "$cfg_path")
      [ -n "$v" ] || v=$(sed -n 's/^logging:[[:space:]]*{.*verbosity:[[:space:]]*["'\'']\{0,1\}\([0-9][0-9]*\).*/\1/p' "$cfg_path" | head -n 1)
      v_from="logging.verbosity in its --config file $cfg"
    fi
    [ -n "$v" ] || v_from="no --v on its command line, no logging.verbosity in its config file"
    [ "${v:-0}" -ge 9 ] 2>/dev/null || die "exercise 18: kube-proxy (pid $pid) runs at verbosity ${v:-0} ($v_from); it logs what it writes to the kernel only at 9. Restart it with --v=9 (kube-proxy DaemonSet args) or logging.verbosity: 9 in its KubeProxyConfiguration, then capture."
    say "exercise 18: kube-proxy (pid $pid) runs at verbosity $v ($v_from)"
  else
    say "exercise 18: no trusted kube-proxy process visible, so its verbosity is unchecked; the capture fails if nothing is logged"
  fi
  if command -v curl >/dev/null 2>&1; then get='curl -fsS --max-time 5'; else get='wget -q -T 5 -O -'; fi
  # The kubeproxy_sync_* metrics before and after the change, from kube-proxy's own server only.
  if [ "$metrics_ok" = 1 ]; then
    snapshot="if m=\$($get '$metrics/metrics' 2>&1); then printf '%s\\n' \"\$m\" | grep '^kubeproxy_sync_' || echo '# (no kubeproxy_sync_* metric at $metrics/metrics)'; else echo \"# metrics unreachable at $metrics/metrics: \$(printf '%s' \"\$m\" | head -n 1)\"; fi"
  else
    snapshot="echo '# metrics not asked: $metrics_why'"
  fi
  case "$mode" in
    # How the Service's name shows in its rules: iptables comments "ns/name:port -> ip:port" (or
    # "ns/name -> ..." for an unnamed port); nftables chains "service-HASH-ns/name/proto/port".
    # svc_lines prints what names a Service with endpoints: iptables, its rules that jump to an
    # endpoint chain; nftables, the name of each chain holding a `numgen random mod N` rule, which
    # maps to endpoint chains (vmap) or, with no session affinity, to the endpoints' addresses (map),
    # and of each Service chain with a single endpoint, which DNATs to it with no numgen.
    iptables) marker='Restoring iptables'; svc_lines="grep -e '^-A KUBE-SVC-.* -j KUBE-SEP-'"; svc_names="-e '$ns/$svc:' -e '$ns/$svc -> '" ;;
    nftables) marker='Running nftables transaction'; svc_lines='awk '"'"'/^[[:space:]]*chain /{ c = $2 } /numgen random mod [0-9]+ v?map/ || (c ~ /^service-/ && / dnat (ip6? )?to /){ print c }'"'"; svc_names="-e '-$ns/$svc/'" ;;
  esac
fi

# The capture is built in a folder beside $out and renamed to $out only once it is whole, so a
# refusal or a failure from here on leaves neither $out nor a half-written folder behind. The
# folder is made readable to all (mktemp makes it 0700), so a user other than root can copy it.
tmp=$(mktemp -d "$parent/.kube-proxy-capture.XXXXXX" 2>/dev/null) || { tmp="$parent/.kube-proxy-capture.$$"; mkdir "$tmp"; } || die "cannot create a folder in $parent"
work=""; child=""
# The pids of every descendant of process $1, from the parent pid in each /proc/<pid>/stat (the
# field after the name in parentheses, which may itself hold ") ").
descendants() {
  cat /proc/[0-9]*/stat 2>/dev/null | sed -n 's/^\([0-9][0-9]*\) .*) [A-Za-z] \([0-9][0-9]*\) .*/\1 \2/p' |
    awk -v root="$1" '{ parent[$1] = $2 } END { q[n = 1] = root; for (i = 1; i <= n; i++) for (p in parent) if (parent[p] == q[i]) { q[++n] = p; print p } }'
}
# Ends the exercise command running in the background ($child) and all it started (kubectl): it is
# stopped first, so it starts nothing more, then each gets SIGTERM.
stop_child() {
  [ -n "$child" ] || return 0
  if kill -STOP "$child" 2>/dev/null; then
    kids=$(descendants "$child")
    kill -TERM "$child" $kids 2>/dev/null
    kill -CONT "$child" $kids 2>/dev/null
    wait "$child" 2>/dev/null
  fi
  child=""
}
# Scales the Deployment to $1 replicas. A SIGTERM sent to the whole process group ends kubectl (a Go
# program) even while this script ignores it: kubectl ended by a signal is run again, 3 times in all.
scale_to() {
  try=1
  while :; do
    sst=0; kubectl -n "$ns" scale deployment "$name" --replicas="$1" >&2 || sst=$?
    [ "$sst" -gt 128 ] && [ "$try" -lt 3 ] || return "$sst"
    say "exercise 18: kubectl scale was ended by signal $((sst - 128)) (exit $sst): trying again"
    try=$((try + 1))
  done
}
# On any exit before the capture is whole: end the running exercise command, scale the Deployment
# back if exercise 18 scaled it (or may have: an interrupt during `kubectl scale`), say so, and
# remove every folder it made. Nothing stops that: from here on INT, TERM, HUP and PIPE are
# ignored, by kubectl too (a Go program keeps an inherited SIG_IGN for INT and HUP; scale_to runs
# it again if a TERM ends it), and a message that cannot be written (the terminal is gone) is skipped.
finish() {
  st=$?
  set +e
  trap '' INT TERM HUP PIPE
  stop_child
  if [ -n "$work" ] && [ -e "$work/scaled" ]; then
    say "exercise 18: the capture did not finish (exit $st) after deployment $deployment was scaled to $((replicas + 1)): scaling it back to $replicas replicas"
    if scale_to "$replicas"; then say "exercise 18: deployment $deployment is back at $replicas replicas"
    else say "exercise 18: scaling back FAILED; scale deployment $deployment to $replicas replicas yourself"; fi
  fi
  rm -rf "$tmp" ${work:+"$work"}
  trap - EXIT
  exit "$st"
}
# A signal: no second one interrupts what follows; end the running command; exit, so finish runs.
on_signal() { # status, signal, what happened
  set +e
  trap '' INT TERM HUP PIPE
  stop_child
  say "$3 ($2): nothing is kept"
  exit "$1"
}
trap finish EXIT
trap 'on_signal 130 SIGINT interrupted' INT
trap 'on_signal 143 SIGTERM terminated' TERM
trap 'on_signal 129 SIGHUP "hung up"' HUP
trap 'on_signal 141 SIGPIPE "its output was closed"' PIPE
chmod 755 "$tmp"

# One cell: writes its command, runs exactly that with sh, keeps stdout as the output.
cell() { # exercise axis
  dir="$tmp/ex$1-$mode"
  mkdir "$dir"
  chmod 755 "$dir"
  printf 'exercise=%s\naxis=%s\nbackend=%s\n' "$1" "$2" "$mode" >"$dir/cell"
  cat >"$dir/command"
  say "exercise $1 ($mode): running ex$1-$mode/command"
  # In the background, and waited for: a signal's trap runs at once (a shell runs it only after a
  # command in the foreground ends) and ends the command (stop_child).
  sh "$dir/command" >"$dir/output" 2>"$dir/stderr" </dev/null &
  child=$!
  cst=0; wait "$child" || cst=$?
  child=""
  if [ "$cst" != 0 ]; then
    cat "$dir/stderr" >&2
    die "exercise $1: the command failed (above); nothing was kept"
  fi
  [ -s "$dir/output" ] || die "exercise $1: the command printed nothing; nothing was kept"
}

for e in $exercises; do
  case "$e" in
    16)
      printf 'iptables-save -t nat\n' | cell 16 endpoint-selection
      grep -q '^-A KUBE-SVC-.* -j KUBE-SEP-' "$tmp/ex16-$mode/output" ||
        die "exercise 16: the nat table has no KUBE-SVC-* chain jumping to a KUBE-SEP-* chain. Does a Service with endpoints exist? Is the host's iptables-save the variant kube-proxy writes with (legacy or nft; compare iptables-save -V with kube-proxy's)?" ;;
    17)
      printf 'nft list table ip kube-proxy\n' | cell 17 endpoint-selection
      grep -q -E 'numgen random mod [0-9]+ v?map' "$tmp/ex17-$mode/output" ||
        die "exercise 17: table ip kube-proxy has no numgen random mod ... map or vmap rule: exercise 17 needs a Service with two or more endpoints (for one, kube-proxy writes a plain dnat and picks nothing)" ;;
    18)
      [ "$has18" = 1 ] || continue
      work=$(mktemp -d "$parent/.kube-proxy-work.XXXXXX" 2>/dev/null) || { work="$parent/.kube-proxy-work.$$"; mkdir "$work"; } || die "cannot create a folder in $parent"
      # The byte offset where this change's log starts, so older syncs are left out, and the log
      # file's inode, to see the kubelet rotate it.
      from=$(( $(wc -c <"$log") + 1 ))
      inode=$(ls -Li "$log" | awk '{ print $1 }')
      cell 18 endpoint-change <<EOF18
# Exercise 18, $mode: one endpoint change (deployment $deployment scaled $replicas -> $((replicas + 1)), in
# front of it service $ns/$svc) and what kube-proxy logged that it wrote to the kernel for it.
# "# change:" lines record what was done and seen: replicas before and after, the exit status of
# each kubectl command, and (on "# kubectl:" lines) what kubectl printed. Any failure stops here,
# and the capture script keeps nothing and scales the Deployment back.
# The log holds CRI records ("<time> <stream> <P|F> <text>") or plain klog lines. A line the runtime
# cut into P records is printed joined, as one F record with its first record's time. Each
# "$marker" entry is kept whole: its line and, for klog's multi-line value (key=<),
# the tab-indented lines up to the " >" line.
rotated() { [ "\$(ls -Li '$log' 2>/dev/null | awk '{ print \$1 }')" != '$inode' ] || [ "\$(wc -c <'$log')" -lt $((from - 1)) ]; }
json_log() { tail -c +$from '$log' | head -c 4096 | grep -q '^{"log":'; }
json="kube-proxy's log $log ($real_log) is written by Docker's json-file logging driver (cri-dockerd), whose {\"log\":...} lines this kit does not read. It was empty when the capture started, so this shows only now. Give --log a file kube-proxy writes itself (its --log-file, with --logtostderr=false), or capture on a node whose runtime writes CRI logs (containerd, CRI-O)."
rotation='kube-proxy log $log was rotated (by the kubelet) during the capture: it is now another file, and the sync entries written since byte $from cannot be read whole from it; capture again'
echo '# change: deployment=$deployment'
echo '# change: service=$ns/$svc'
echo '# change: replicas_before=$replicas'
echo '# ==> rules before the scale: $dump'
$dump >'$work/before' || { echo '$dump failed: the rules before the change cannot be recorded' >&2; exit 1; }
cat '$work/before'
echo '# <== rules before the scale'
$svc_lines '$work/before' | grep -q -F $svc_names || { echo 'the rules before the scale show no endpoints of service $ns/$svc ($dump): is it the Service in front of deployment $deployment (--service NAME)? Nothing was changed.' >&2; exit 1; }
echo '# kubeproxy_sync_* metrics before'
$snapshot
: >'$work/scaled'
s=0; kubectl -n '$ns' scale deployment '$name' --replicas=$((replicas + 1)) >'$work/kubectl' 2>&1 || s=\$?
echo "# change: scale_to=$((replicas + 1))"
echo "# change: scale_exit=\$s"; sed 's/^/# kubectl: /' '$work/kubectl'
if [ \$s != 0 ]; then
  # kubectl can fail after the API server applied the scale (its answer lost): read the replicas back.
  r=\$(kubectl -n '$ns' get deployment '$name' -o 'jsonpath={.spec.replicas}' 2>/dev/null) || r=''
  if [ "\$r" = '$replicas' ]; then rm -f '$work/scaled'; echo "kubectl scale deployment $deployment failed (exit \$s), so nothing changed and nothing was kept; kubectl said:" >&2
  elif [ -n "\$r" ]; then echo "kubectl scale deployment $deployment exited \$s, yet the Deployment now has \$r replicas (it had $replicas): the scale was applied, so it is scaled back; nothing was kept; kubectl said:" >&2
  else echo "kubectl scale deployment $deployment exited \$s, and its replicas cannot be read back: it may have been applied, so it is scaled back to $replicas; nothing was kept; kubectl said:" >&2; fi
  cat '$work/kubectl' >&2; exit 1
fi
s=0; kubectl -n '$ns' rollout status deployment '$name' --timeout=180s >'$work/kubectl' 2>&1 || s=\$?
echo "# change: rollout_exit=\$s"; sed 's/^/# kubectl: /' '$work/kubectl'
if [ \$s != 0 ]; then echo "kubectl rollout status deployment $deployment failed (exit \$s); kubectl said:" >&2; cat '$work/kubectl' >&2; exit 1; fi
r=\$(kubectl -n '$ns' get deployment '$name' -o 'jsonpath={.spec.replicas}') || { echo 'kubectl cannot read deployment $deployment after the scale' >&2; exit 1; }
echo "# change: replicas_after=\$r"
r=\$(kubectl -n '$ns' get deployment '$name' -o 'jsonpath={.status.readyReplicas}') || { echo 'kubectl cannot read deployment $deployment after the scale' >&2; exit 1; }
echo "# change: ready_after=\$r"
i=0; until tail -c +$from '$log' | grep -q '"$marker"' && tail -c +$from '$log' | grep -q -F $svc_names; do
  ! rotated || { echo "\$rotation" >&2; exit 1; }
  ! json_log || { echo "\$json" >&2; exit 1; }
  i=\$((i + 1)); [ \$i -le 60 ] || { echo 'no "$marker" entry writing service $ns/$svc in $log within 60 s after the rollout: is kube-proxy at verbosity 9, and is $ns/$svc the Service in front of deployment $deployment?' >&2; exit 1; }
  sleep 1
done
sleep $settle
! rotated || { echo "\$rotation" >&2; exit 1; }
echo '# $log from byte $from: each "$marker" entry, with its payload'
tail -c +$from '$log' | awk -v marker='"$marker"' '
  NR == 1 && /^\{"log":/ { print "kube-proxy log is in Docker json-file format, which this kit does not read" > "/dev/stderr"; exit 1 }
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
! rotated || { echo "\$rotation" >&2; exit 1; }
echo '# kubeproxy_sync_* metrics after'
$snapshot
EOF18
      if [ "$scale_back" = 1 ]; then
        say "exercise 18: scaling deployment $deployment back to $replicas replicas"
        if scale_to "$replicas"; then rm -f "$work/scaled"
        else say "exercise 18: scaling back failed; scale $deployment to $replicas yourself"; rm -f "$work/scaled"; fi
      else
        rm -f "$work/scaled"
        say "exercise 18: deployment $deployment is left at $((replicas + 1)) replicas (--no-scale-back)"
      fi ;;
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
  # The node's netfilter tools, as they name themselves (the exercises' commands ran these).
  if command -v iptables >/dev/null 2>&1; then echo "iptables_version=$(iptables --version 2>/dev/null | head -n 1)"; fi
  if command -v nft >/dev/null 2>&1; then echo "nft_version=$(nft --version 2>/dev/null | head -n 1)"; fi
} >"$tmp/capture.env"
[ -z "$setting" ] || cp "$setting" "$tmp/setting"

(cd "$tmp" && rm -f ./*/stderr && sha256sum capture.env ${setting:+setting} ./*/cell ./*/command ./*/output >SHA256SUMS)
chmod -R a+rX "$tmp"
[ ! -e "$out" ] || die "$out appeared while capturing: nothing was kept; give a new --out directory"
mv "$tmp" "$out" || die "cannot move the capture to $out; nothing was kept"
tmp=""
rm -rf ${work:+"$work"}; work=""
trap - EXIT INT TERM HUP PIPE
say "captured $n cell(s) into $out (kube-proxy $version, mode $mode, kernel $kernel, $captured_at)"
say "next, on your checkout of the site: npm run evidence -- add $out"
