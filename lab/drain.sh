#!/usr/bin/env bash
# The drain run: what an established connection does when its endpoint goes, through each mode's
# real rules, with real servers (issue 46). On the lab's parts (lab/lib.sh): per mode, a Service
# without a selector, lab/drain-<mode> (TCP 80 -> 8080, UDP 53 -> 5353), and an EndpointSlice this
# run writes, so its endpoints' conditions (ready, serving, terminating) and their removal are exact.
# Inside the mode's node (its own network namespace) a bridge leads to three endpoint namespaces at
# the slice's addresses, each running `drainpoint serve` (lab/cmd/drainpoint: TCP and UDP, answers
# with its name), and a veth to a client namespace, pod-like, whose traffic to the Service's
# ClusterIP goes through the node's PREROUTING, so through kube-proxy's rules. Routes and addresses
# exist only in those namespaces. The cases, per mode:
#   tcp-removed     a TCP connection held open; its endpoint removed from the slice (server still up)
#   terminating     its endpoint terminating (serving, not ready) beside ready ones; then alone
#   udp-removed     a UDP flow; its endpoint removed from the slice: the flow's conntrack entry, the next datagram
#   server-stopped  a TCP connection held open; its endpoint's server stopped (the slice unchanged)
# Each mode's transcript (every command, what it printed, the client's and servers' lines, conntrack
# before and after, kube-proxy's sync lines) goes to lab/out/drain/<mode>/output.txt, with what
# src/lib/evidence/drain.ts needs to read it (capture.env: versions, date, setting; sha256).
#
#   bash lab/drain.sh [--mode iptables|nftables|both] [--keep]     (npm run lab -- drain)
#   bash lab/drain.sh --down                                       stop what a --keep run left
set -euo pipefail

modes="iptables nftables"; services=0; replicas=1; keep=0; down=0; tries=24
while [ $# -gt 0 ]; do
  case "$1" in
    --mode) case "${2:-}" in iptables|nftables) modes=$2 ;; both) ;; *) echo "drain: --mode iptables|nftables|both" >&2; exit 2 ;; esac; shift 2 ;;
    --keep) keep=1; shift ;;
    --down) down=1; shift ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "drain: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"
DOUT=$OUT/drain
EP_NET=10.244.251   # the endpoints (10.244.251.11-13), behind the node's bridge dr-br (.1)
CL_NET=10.244.250   # the client (.2), pod-like, behind the node's veth dr-cl (.1)

command -v conntrack >/dev/null || { echo "drain: conntrack is missing (Debian: apt-get install conntrack)" >&2; exit 1; }


# --- the namespaces behind each node ------------------------------------------------------
declare -A CFD SVC
drain_net() { # mode
  local m=$1 n=lab-node-$1 i e
  ip netns exec "$n" sysctl -qw net.ipv4.ip_forward=1
  ip -n "$n" link add dr-br type bridge
  ip -n "$n" addr add "$EP_NET.1/24" dev dr-br
  ip -n "$n" link set dr-br up
  for i in 1 2 3; do
    e=lab-dr-$m-ep$i
    netns "$e"
    ip -n "$n" link add "dr-ep$i" type veth peer name eth0 netns "$e"
    ip -n "$n" link set "dr-ep$i" master dr-br up
    ip -n "$e" addr add "$EP_NET.1$i/24" dev eth0
    ip -n "$e" link set eth0 up
    ip -n "$e" route add default via "$EP_NET.1"
    start "drain-$m-ep$i" "$DOUT/$m/server-ep$i.log" ip netns exec "$e" "$DP" serve "ep$i" "$EP_NET.1$i:8080" "$EP_NET.1$i:5353"
  done
  netns "lab-dr-$m-cl"
  ip -n "$n" link add dr-cl type veth peer name eth0 netns "lab-dr-$m-cl"
  ip -n "$n" addr add "$CL_NET.1/24" dev dr-cl
  ip -n "$n" link set dr-cl up
  ip -n "lab-dr-$m-cl" addr add "$CL_NET.2/24" dev eth0
  ip -n "lab-dr-$m-cl" link set eth0 up
  ip -n "lab-dr-$m-cl" route add default via "$CL_NET.1"
  # The client reads its commands from a FIFO this shell keeps open for writing.
  local fifo=$TMP/client-$m.in fd; mkfifo "$fifo"; exec {fd}<>"$fifo"; CFD[$m]=$fd
  start "drain-$m-client" "$DOUT/$m/client.log" sh -c 'exec "$@" <"$0"' "$fifo" ip netns exec "lab-dr-$m-cl" "$DP" client
}

# --- the Service and its slice --------------------------------------------------------------
service() { # mode
  kc apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Service
metadata: {name: drain-$1, namespace: lab}
spec:
  ports:
  - {name: tcp, port: 80, protocol: TCP, targetPort: 8080}
  - {name: udp, port: 53, protocol: UDP, targetPort: 5353}
EOF
  SVC[$1]=$(kc -n lab get service "drain-$1" -o jsonpath='{.spec.clusterIP}')
}
# The slice: slice <mode> epN=ready|terminating ... (every endpoint not named is left out).
slice() {
  local m=$1 s; shift
  {
    cat <<EOF
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: drain-$m
  namespace: lab
  labels: {kubernetes.io/service-name: drain-$m, endpointslice.kubernetes.io/managed-by: lab.kube-proxy-study}
  annotations: {endpoints.kubernetes.io/last-change-trigger-time: "$(date -u +%Y-%m-%dT%H:%M:%S.%NZ)"}
addressType: IPv4
ports:
- {name: tcp, port: 8080, protocol: TCP}
- {name: udp, port: 5353, protocol: UDP}
endpoints:
EOF
    for s in "$@"; do
      case "${s#*=}" in
        ready) c='{ready: true, serving: true, terminating: false}' ;;
        terminating) c='{ready: false, serving: true, terminating: true}' ;;
      esac
      printf -- '- {addresses: ["%s"], conditions: %s}\n' "$EP_NET.1${s:2:1}" "$c"
    done
  } | kc apply -f -
}
stored_slice() { # mode: the slice as the API server stores it, one endpoint a line
  kc -n lab get endpointslice "drain-$1" -o jsonpath='{range .endpoints[*]}{.addresses[0]} ready={.conditions.ready} serving={.conditions.serving} terminating={.conditions.terminating}{"\n"}{end}'
}

# --- what the node's rules and conntrack hold for the Service ------------------------------------
rules_cmd() { # mode: the command that prints the rules of lab/drain-<mode>
  case "$1" in
    iptables) echo "ip netns exec lab-node-iptables iptables-save -t nat | grep -F 'lab/drain-iptables:'" ;;
    nftables) echo "ip netns exec lab-node-nftables nft list table ip kube-proxy | awk '/^\\tchain .*lab\\/drain-nftables\\// { on = 1 } on { print } /^\\t}/ { on = 0 }'" ;;
  esac
}
# The endpoints the Service's port chain sends to now, one address a line (to wait on; the
# evidence's reader counts them itself from the recorded rules).
endpoints_now() { # mode port-name
  case "$1" in
    iptables) bash -c "$(rules_cmd iptables)" | grep -F -e "-A KUBE-SVC-" | grep -F "lab/drain-iptables:$2 -> " |
      grep -oE -- "-> [0-9.]+:" | tr -d '> :-' | sort -u ;;
    nftables) bash -c "$(rules_cmd nftables)" | awk -v c="lab/drain-nftables/$2/" '/^\tchain / { on = index($2, "service-") == 1 && index($2, c) > 0 } on' |
      grep -oE "$EP_NET\.[0-9]+" | sort -u ;;
  esac
}
log_size() { stat -c %s "$RUN/lab-node-$1/kube-proxy.log"; }
sync_lines() { # mode offset: kube-proxy's sync lines since the offset
  tail -c +"$(( $2 + 1 ))" "$RUN/lab-node-$1/kube-proxy.log" |
    grep -E 'Syncing (iptables|nftables) rules|SyncProxyRules complete|conntrack entr|Network programming' || true
}
# A sync that programmed the slice's change: its "Network programming" line for lab/drain-<mode>
# (the slice's last-change-trigger-time), then that sync's "SyncProxyRules complete".
synced_since() { # mode offset
  sync_lines "$1" "$2" | awk -v e="endpoint=\"lab/drain-$1\"" 'index($0, "Network programming") && index($0, e) { p = 1 } p && /SyncProxyRules complete/ { ok = 1 } END { exit !ok }'
}

# --- the transcript ----------------------------------------------------------------------------
# Every block: "==> <case>/<step> $ <command>", what it printed, "<== <case>/<step> exit=<status>".
T=""; case_=""
rec() { # step command-string (run by bash)
  local st=0
  printf '==> %s/%s $ %s\n' "$case_" "$1" "$2" >>"$T"
  bash -c "$2" >>"$T" 2>&1 || st=$?
  printf '<== %s/%s exit=%s\n' "$case_" "$1" "$st" >>"$T"
}
seq_=0
# One command to the mode's client; the block holds its answer line as the client logged it.
ask() { # mode step command...
  local m=$1 step=$2; shift 2
  seq_=$((seq_ + 1)); local id=c$seq_ i=0 log=$DOUT/$m/client.log
  printf '%s %s\n' "$id" "$*" >&"${CFD[$m]}"
  until grep -q "^$id " "$log"; do i=$((i + 1)); [ "$i" -le 200 ] || die "drain: the client did not answer $id ($*)"; sleep 0.05; done
  printf '==> %s/%s $ client: %s %s\n' "$case_" "$step" "$id" "$*" >>"$T"
  grep -m1 "^$id " "$log" >>"$T"
  printf '<== %s/%s exit=0\n' "$case_" "$step" >>"$T"
  answer=$(grep -m1 "^$id " "$log" | cut -d' ' -f2-)
}
# $tries new connections in one block.
ask_new() { # mode step
  local m=$1 step=$2 k first=$((seq_ + 1)) i id log=$DOUT/$1/client.log
  for k in $(seq 1 "$tries"); do seq_=$((seq_ + 1)); printf 'c%s new %s:80 %s-%s-%s\n' "$seq_" "${SVC[$m]}" "$case_" "$step" "$k" >&"${CFD[$m]}"; done
  i=0; until grep -q "^c$seq_ " "$log"; do i=$((i + 1)); [ "$i" -le 400 ] || die "drain: the client did not answer c$seq_"; sleep 0.05; done
  printf '==> %s/%s $ client: c%s..c%s new %s:80 (%s new TCP connections, one line each)\n' "$case_" "$step" "$first" "$seq_" "${SVC[$m]}" "$tries" >>"$T"
  for k in $(seq "$first" "$seq_"); do grep -m1 "^c$k " "$log"; done >>"$T"
  printf '<== %s/%s exit=0\n' "$case_" "$step" >>"$T"
}
local_port() { # an answer "held local=<ip>:<port> ..." (or udpopen) -> the port
  [[ "$answer" =~ local=[0-9.]+:([0-9]+) ]] || die "drain: $case_: the client opened no connection: $answer"
  echo "${BASH_REMATCH[1]}"
}
endpoint_of() { # an answer "reply epN ..." -> N
  [[ "$answer" =~ ^reply\ ep([1-3])\  ]] || die "drain: $case_: the client's answer names no endpoint: $answer"
  echo "${BASH_REMATCH[1]}"
}
declare -A SRVLINE
servers_mark() { local m=$1 i; for i in 1 2 3; do SRVLINE[$i]=$(wc -l <"$DOUT/$m/server-ep$i.log"); done; }
servers_rec() { # mode: each server's lines since servers_mark
  local m=$1 i; for i in 1 2 3; do rec "server-ep$i" "tail -n +$(( SRVLINE[$i] + 1 )) $DOUT/$m/server-ep$i.log"; done
}
# The slice changed: record it as stored, wait for the sync that programmed it, record that sync's
# lines and the rules after it.
change() { # mode step slice-args...
  local m=$1 step=$2 o; shift 2
  o=$(log_size "$m")
  printf '==> %s/%s-slice $ kubectl apply -f - (EndpointSlice lab/drain-%s: %s), then: kubectl -n lab get endpointslice drain-%s -o jsonpath=...\n' "$case_" "$step" "$m" "$*" "$m" >>"$T"
  local st=0; { slice "$m" "$@" && stored_slice "$m"; } >>"$T" 2>&1 || st=$?
  printf '<== %s/%s-slice exit=%s\n' "$case_" "$step" "$st" >>"$T"
  [ "$st" = 0 ] || die "drain: $case_: kubectl could not write or read lab/drain-$m's slice (exit $st; ${T#"$REPO"/})"
  local until=$((SECONDS + 30)); until synced_since "$m" "$o"; do [ "$SECONDS" -le "$until" ] || die "drain: $case_: no sync programmed lab/drain-$m's slice in 30 s"; sleep 0.1; done
  rec "$step-sync-log" "tail -c +$(( o + 1 )) $RUN/lab-node-$m/kube-proxy.log | grep -E 'Syncing (iptables|nftables) rules|SyncProxyRules complete|conntrack entr|Network programming'"
  rec "$step-rules" "$(rules_cmd "$m")"
}
# The case's flow in conntrack: the entries from its client port to the ClusterIP (kernel-side filter,
# so the dump is a message or two, not every TIME_WAIT entry of the earlier cases). A netlink dump is
# not a snapshot; an empty listing is taken again, up to five times 0.2 s apart, and the last printed.
conntrack_rec() { # mode step proto
  rec "$2" "for try in 1 2 3 4 5; do out=\$(ip netns exec lab-node-$1 conntrack -L -p $3 -d ${SVC[$1]} --orig-port-src $port_ 2>&1 | grep -v 'flow entries have been shown'); [ -n \"\$out\" ] && break; sleep 0.2; done; if [ -n \"\$out\" ]; then printf '%s\\n' \"\$out\"; fi"
}
# Back to three ready endpoints, with the rules showing all three (every case starts there).
reset() { # mode
  local m=$1 o until=$((SECONDS + 30)); o=$(log_size "$m")
  slice "$m" ep1=ready ep2=ready ep3=ready >/dev/null
  until [ "$(endpoints_now "$m" tcp | wc -l)" = 3 ] && [ "$(endpoints_now "$m" udp | wc -l)" = 3 ] && synced_since "$m" "$o"; do
    [ "$SECONDS" -le "$until" ] || die "drain: lab/drain-$m's three endpoints did not reach lab-node-$m's rules in 30 s"; sleep 0.1; done
}

# --- the cases ----------------------------------------------------------------------------------
# A case's start: three ready endpoints, then a held TCP connection (udp-removed: a connected UDP
# socket) and its first answer, the rules and the flow in conntrack. Sets x (the endpoint it reached)
# and others (the slice's other two endpoints, ready).
begin_case() { # mode case
  local m=$1 i proto=tcp; case_=$2; step "drain $m: $case_"
  reset "$m"; servers_mark "$m"
  if [ "$case_" = udp-removed ]; then
    proto=udp; ask "$m" flow-open udpopen "${SVC[$m]}:53"; port_=$(local_port); ask "$m" flow-before udp "$case_-1"
  else
    ask "$m" held-open hold "${SVC[$m]}:80"; port_=$(local_port); ask "$m" held-before send "$case_-held-1"
  fi
  x=$(endpoint_of)
  rec rules-before "$(rules_cmd "$m")"
  conntrack_rec "$m" conntrack-before "$proto"
  others=$(for i in 1 2 3; do [ "$i" = "$x" ] || printf 'ep%s=ready ' "$i"; done)
}
run_cases() { # mode
  local m=$1 x others S=${SVC[$1]} i
  T=$DOUT/$m/output.txt; : >"$T"; started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  {
    echo "# Drain cases on lab-node-$m (kube-proxy --proxy-mode=$m): Service lab/drain-$m, ClusterIP $S, TCP 80 -> 8080, UDP 53 -> 5353,"
    echo "# no selector; its EndpointSlice written by lab/drain.sh. Endpoints epN at $EP_NET.1N (drainpoint serve, one network namespace"
    echo "# each, behind the node's bridge); the client at $CL_NET.2 (its own namespace, routed through the node)."
    echo "# Blocks: '==> <case>/<step> \$ <command>', what it printed, '<== <case>/<step> exit=<status>'. Client lines: '<id> <answer>'."
  } >>"$T"
  case_=setup
  for i in 1 2 3; do rec "server-ep$i" "head -n 1 $DOUT/$m/server-ep$i.log"; done
  rec versions "ip netns exec lab-node-$m iptables --version; ip netns exec lab-node-$m nft --version; conntrack --version; uname -r"

  begin_case "$m" tcp-removed
  change "$m" removed $others
  conntrack_rec "$m" conntrack-after tcp
  ask "$m" held-after send "$case_-held-2"
  ask_new "$m" new
  servers_rec "$m"

  begin_case "$m" terminating
  change "$m" beside-ready "ep$x=terminating" $others
  ask_new "$m" beside-ready-new
  ask "$m" beside-ready-held send "$case_-held-2"
  change "$m" alone "ep$x=terminating"
  ask_new "$m" alone-new
  ask "$m" alone-held send "$case_-held-3"
  servers_rec "$m"

  begin_case "$m" udp-removed
  change "$m" removed $others
  conntrack_rec "$m" conntrack-after udp
  ask "$m" flow-after udp "$case_-2"
  conntrack_rec "$m" conntrack-end udp
  servers_rec "$m"

  begin_case "$m" server-stopped
  local pid; pid=$(awk -v n="drain-$m-ep$x" '$1 == "pid" && $3 == n { print $2 }' "$STATE")
  rec stop "kill -TERM $pid; while kill -0 $pid 2>/dev/null; do sleep 0.05; done; echo 'drainpoint serve ep$x (pid $pid, namespace lab-dr-$m-ep$x) stopped; the slice is unchanged'"
  ask "$m" held-after send "$case_-held-2"
  conntrack_rec "$m" conntrack-after tcp
  ask_new "$m" new
  rec rules-end "$(rules_cmd "$m")"
  servers_rec "$m"
}

# --- main -----------------------------------------------------------------------------------------
lab_prepare drain
lab_tool DP cmd/drainpoint   # drainpoint's TCP/UDP servers and client (lib.sh)
lab_up
rm -rf "$DOUT"
for m in $modes; do
  mkdir -p "$DOUT/$m"
  step "drain $m: Service lab/drain-$m, its slice, three endpoint namespaces and a client behind lab-node-$m"
  drain_net "$m"
  service "$m"
done
for m in $modes; do
  run_cases "$m"
  # What the evidence records beside the output: where, when, with what (read by tools/lib/drain-kit.ts).
  {
    echo "kind=drain"
    printf 'mode=%s\n' "$(ip netns exec "lab-node-$m" curl -fsS http://127.0.0.1:10249/proxyMode)"
    echo "modeFrom=GET http://127.0.0.1:10249/proxyMode (kube-proxy's metrics server)"
    printf 'kubernetes=%s\n' "$(ip netns exec "lab-node-$m" curl -fsS http://127.0.0.1:10249/metrics | sed -n 's/^kubernetes_build_info{.*git_version="\([^"]*\)".*/\1/p')"
    echo "versionFrom=git_version of kubernetes_build_info in http://127.0.0.1:10249/metrics"
    printf 'kernel=%s\n' "$(uname -r)"
    printf 'iptables=%s\n' "$(ip netns exec "lab-node-$m" iptables --version)"
    printf 'nft=%s\n' "$(ip netns exec "lab-node-$m" nft --version)"
    printf 'capturedAt=%s\n' "$started"
    printf 'script=lab/drain.sh sha256:%s, lab/cmd/drainpoint/main.go sha256:%s, at commit %s%s\n' \
      "$(sha256sum "$LAB/drain.sh" | cut -d' ' -f1)" "$(sha256sum "$LAB/cmd/drainpoint/main.go" | cut -d' ' -f1)" \
      "$(git -C "$REPO" rev-parse HEAD)" "$([ -z "$(git -C "$REPO" status --porcelain -- lab/drain.sh lab/cmd/drainpoint)" ] || echo ' (with uncommitted changes to them)')"
  } >"$DOUT/$m/capture.env"
  cat >"$DOUT/$m/setting.txt" <<EOF_SETTING
In this project's lab, on one machine: a real kube-proxy ${K8S} in $m mode on one lab node, a Service without a selector whose EndpointSlice the run writes (ready, serving and terminating set by it), three real TCP and UDP servers at its endpoints' addresses and a client, each in a network namespace of its own routed through the node; no kubelet, no Pods behind this Service.

kube-proxy ${K8S} built from the Go module proxy ($(sum_of kube-proxy)); the node in network, PID and mount namespaces of its own, against a real control plane in another ($(sum_of etcd | cut -d' ' -f1-2); kube-apiserver, kube-controller-manager and kube-scheduler ${K8S}); started by npm run lab -- drain (lab/drain.sh, docs/lab.md).
EOF_SETTING
  sha256sum "$DOUT/$m/output.txt" | cut -d' ' -f1 >"$DOUT/$m/sha256"
  step "drain $m: done; transcript ${DOUT#"$REPO"/}/$m/output.txt ($(wc -l <"$DOUT/$m/output.txt") lines)"
done
finished=1
step "done: lab/out/drain/<mode>/output.txt for [$modes]"
