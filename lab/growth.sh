#!/usr/bin/env bash
# How the cost grows (issue 45): one endpoint change and one new connection, as the cluster grows,
# kube-proxy's iptables mode against its nftables mode, on the lab's real kube-proxy v1.37.2.
#
#   bash lab/growth.sh [--sizes "10 100 1000 5000"] [--changes 6] [--fulls 2] [--conns 400] [--keep]
#     --sizes    Services added behind Deployment backend (2 endpoints each), cumulative, in order
#     --changes  one-endpoint changes per size (Deployment web 3 -> 4, then 4 -> 3, ...), at least 5
#     --fulls    full syncs per size (each forced by a change of the nodes' zone label)
#     --conns    connections per address and mode at each size (in four rounds, modes in turn)
#     --out F    the sweep's raw output (default lab/out/growth/growth.txt)
#     --keep     leave the lab running, also after a failure
#   bash lab/growth.sh --down      stop what a --keep run left running
#
# Both nodes watch the same API server, so each change is synced by both modes at the same moment
# (drift falls on both). For each change the raw output keeps each node's sync log entries written
# for it (kube-proxy -v=9: its payload, "Syncing ... rules" with fullSync=, "SyncProxyRules complete")
# and its kubeproxy_sync_* metrics before and after. For the connections, each node gets two
# namespaces of its own: a client (lab-gc-<mode>) routed to Service and Pod addresses through the
# node, and a server (lab-gs-<mode>) that holds backend's Pod addresses and answers on them
# (lab/conntime), with a direct link between the two for the floor. Traffic stays in those
# namespaces. src/lib/evidence/growth.ts reads the output; tools/growth-evidence.ts makes it evidence.
set -euo pipefail

modes="iptables nftables"; services=0; replicas=3; keep=0; down=0
sizes="10 100 1000 5000"; changes=6; fulls=2; conns=400; out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) [[ "${2:-}" =~ ^[0-9]+( [0-9]+)*$ ]] || { echo "growth: --sizes \"N N ...\"" >&2; exit 2; }; sizes=$2; shift 2 ;;
    --changes) [[ "${2:-}" =~ ^[0-9]+$ ]] && [ "$2" -ge 1 ] || { echo "growth: --changes N" >&2; exit 2; }; changes=$2; shift 2 ;;
    --fulls) [[ "${2:-}" =~ ^[0-9]+$ ]] && [ "$2" -ge 1 ] || { echo "growth: --fulls N" >&2; exit 2; }; fulls=$2; shift 2 ;;
    --conns) [[ "${2:-}" =~ ^[0-9]+$ ]] && [ "$2" -ge 4 ] || { echo "growth: --conns N (>= 4)" >&2; exit 2; }; conns=$2; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --keep) keep=1; shift ;;
    --down) down=1; shift ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "growth: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"
out=${out:-$OUT/growth/growth.txt}
SWEEP0=$(date +%s)

# --- namespaces for the connections: client and server per node, a direct link between them ------
# Node side of the client link 10.252.<k>.1, client .2; node side of the server link 10.253.<k>.1,
# server .2, which also holds backend's Pod addresses (/32) and the floor link's 10.254.<k>.2.
traffic_ns() { # mode k pod-ips...
  local m=$1 k=$2 n=lab-node-$1 c=lab-gc-$1 s=lab-gs-$1 ip; shift 2
  netns "$c"; netns "$s"
  ip -n "$n" link add "gc-$m" type veth peer name eth0 netns "$c"
  ip -n "$n" addr add "10.252.$k.1/24" dev "gc-$m"; ip -n "$n" link set "gc-$m" up
  ip -n "$c" addr add "10.252.$k.2/24" dev eth0; ip -n "$c" link set eth0 up
  ip -n "$n" link add "gs-$m" type veth peer name eth0 netns "$s"
  ip -n "$n" addr add "10.253.$k.1/24" dev "gs-$m"; ip -n "$n" link set "gs-$m" up
  ip -n "$s" addr add "10.253.$k.2/24" dev eth0; ip -n "$s" link set eth0 up
  for ip in "$@"; do ip -n "$s" addr add "$ip/32" dev eth0; done
  ip -n "$s" route add default via "10.253.$k.1"
  ip -n "$c" route add "${SVC_CIDR}" via "10.252.$k.1"
  ip -n "$c" route add "$POD_CIDR" via "10.252.$k.1"
  ip -n "$n" route add "$POD_CIDR" via "10.253.$k.2"
  ip netns exec "$n" sysctl -qw net.ipv4.ip_forward=1
  # The floor: the client straight to the server, no node between them.
  ip -n "$c" link add floor type veth peer name floor netns "$s"
  ip -n "$c" addr add "10.254.$k.1/24" dev floor; ip -n "$c" link set floor up
  ip -n "$s" addr add "10.254.$k.2/24" dev floor; ip -n "$s" link set floor up
  local listen=""; for ip in "$@" "10.254.$k.2"; do listen="$listen $ip:8080"; done
  start "conntime-server-$m" "$RUN/conntime-server-$m.log" ip netns exec "$s" "$CT" serve $listen
}

# --- what the sweep prints ----------------------------------------------------------------------
emit() { printf '%s\n' "$*" >>"$out"; }
# kube-proxy's sync metrics as its metrics server prints them, less the histograms' buckets.
METRICS="curl -fsS http://127.0.0.1:10249/metrics | grep '^kubeproxy_sync_' | grep -v '_bucket{'"
metrics() { # mode
  ip netns exec "lab-node-$1" curl -fsS --max-time 10 http://127.0.0.1:10249/metrics | grep '^kubeproxy_sync_' | grep -v '_bucket{' || true
}
logsize() { stat -c %s "$RUN/lab-node-$1/kube-proxy.log"; }
# The entries of one node's log from byte $2 on that a change's syncs wrote: the payload (klog's
# one quoted line for iptables, its multi-line block for nftables) and the sync's own two V(2) lines.
synclog() { # mode from-byte to-byte
  local marker; case "$1" in iptables) marker='"Restoring iptables"' ;; nftables) marker='"Running nftables transaction"' ;; esac
  tail -c +"$(( $2 + 1 ))" "$RUN/lab-node-$1/kube-proxy.log" | head -c "$(( $3 - $2 ))" | awk -v marker="$marker" '
    on { print; if (substr($0, 1, 1) != "\t") on = 0; next }
    index($0, marker) { print; on = ($0 ~ /=<$/); next }
    index($0, "] \"Syncing iptables rules\"") || index($0, "] \"Syncing nftables rules\"") || index($0, "] \"SyncProxyRules complete\"") { print }'
}
# Whether a node has ended every sync it started since byte $2 of its log (as many "SyncProxyRules
# complete" lines as "Syncing ... rules" lines, both families): a sync's iptables-restore or nft run
# logs nothing while it lasts, so a quiet log alone does not say it is over.
idle() { # mode from-byte
  local started ended
  started=$(tail -c +"$(( $2 + 1 ))" "$RUN/lab-node-$1/kube-proxy.log" | grep -cE '\] "Syncing (iptables|nftables) rules"' || true)
  ended=$(tail -c +"$(( $2 + 1 ))" "$RUN/lab-node-$1/kube-proxy.log" | grep -c '\] "SyncProxyRules complete"' || true)
  [ "$started" = "$ended" ]
}
# Whether a node's log from byte $2 shows an IPv4 full sync, and every sync since then ended.
# (grep -c, not -q: under pipefail, a grep that stops at its first match can fail the pipeline.)
full_synced() { # mode from-byte
  local n; n=$(tail -c +"$(( $2 + 1 ))" "$RUN/lab-node-$1/kube-proxy.log" | grep -c 'rules" ipFamily="IPv4" fullSync=true' || true)
  [ "$n" -ge 1 ] && idle "$1" "$2"
}
# Web's endpoints in a node's rules. Above 1000 endpoints kube-proxy's iptables rules carry no
# comments (proxier.go, largeClusterMode), so its chain is found by name: KUBE-SVC- and the first 16
# characters of base32(sha256("lab/web" "tcp")) (proxier.go, portProtoHash); nftables names the
# Service in its chain's name (lib.sh's web_endpoints).
WEB_CHAIN=KUBE-SVC-$(printf 'lab/webtcp' | openssl dgst -sha256 -binary | base32 | cut -c1-16)
web_in_rules() { # mode
  case "$1" in
    iptables) in_node iptables iptables-save -t nat | grep -c "^-A $WEB_CHAIN .*-j KUBE-SEP-" || true ;;
    nftables) web_endpoints nftables ;;
  esac
}
# Web's endpoints in each node's rules are at $1, and no change is pending.
settled() { # endpoints
  local m; for m in $modes; do
    [ "$(web_in_rules "$m")" = "$1" ] || return 1
    [ "$(metrics "$m" | grep -cE '^kubeproxy_sync_proxy_rules_(endpoint|service)_changes_pending [1-9]' || true)" = 0 ] || return 1
  done; return 0
}
# Wait until neither node has a sync under way and their logs have not grown for 2 s. mark[mode]: a
# byte of its log at which it was idle (the end of the last measured window).
declare -A mark=([iptables]=0 [nftables]=0)
all_idle() { local m; for m in $modes; do idle "$m" "${mark[$m]}" || return 1; done; }
quiet() {
  local a b i=0; a=$(for m in $modes; do logsize "$m"; done)
  while :; do sleep 2; b=$(for m in $modes; do logsize "$m"; done); [ "$a" = "$b" ] && all_idle && return; a=$b
    i=$((i + 1)); [ "$i" -le 150 ] || die "the nodes kept syncing for 300 s"; done
}
# One measured change: what each node's syncs wrote for it, between its metrics before and after.
# kind: change (Deployment web scaled from $2 to $3) or full (the nodes' zone label set to $2).
measured() { # kind args... ; the command that makes the change is run between the two readings
  local kind=$1 m; shift
  quiet
  declare -A from to
  for m in $modes; do emit "# ==> metrics before: $m ($METRICS)"; metrics "$m" >>"$out"; emit "# <== metrics before: $m"; from[$m]=$(logsize "$m"); done
  case "$kind" in
    change) emit "# change: deployment=lab/web service=lab/web replicas_before=$1 scale_to=$2"
      kc -n lab scale deployment web --replicas="$2" >/dev/null
      wait_for 120 "lab/web at $2 replicas" kc -n lab rollout status deployment web --timeout=5s
      emit "# change: replicas_after=$(kc -n lab get deployment web -o jsonpath='{.spec.replicas}') ready_after=$(kc -n lab get deployment web -o jsonpath='{.status.readyReplicas}')"
      wait_for 180 "$2 endpoints of lab/web in both nodes' rules" settled "$2" ;;
    full) emit "# full: node label topology.kubernetes.io/zone=$1"
      for m in $modes; do kc label node "lab-node-$m" "topology.kubernetes.io/zone=$1" --overwrite >/dev/null; done
      for m in $modes; do wait_for 300 "an IPv4 full sync on lab-node-$m, ended" full_synced "$m" "${from[$m]}"; done ;;
  esac
  quiet
  for m in $modes; do
    emit "# ==> metrics after: $m ($METRICS)"; metrics "$m" >>"$out"; emit "# <== metrics after: $m"; to[$m]=$(logsize "$m")
  done
  for m in $modes; do
    emit "# ==> sync log: $m (kube-proxy.log, bytes ${from[$m]}-${to[$m]}: the sync entries)"; synclog "$m" "${from[$m]}" "${to[$m]}" >>"$out"; emit "# <== sync log: $m"
    mark[$m]=${to[$m]}
  done
  emit "# <== $kind"
}

# Services grow-00001 ... grow-<size> behind Deployment backend: one apply of a multi-document file.
grow_to() { # from to
  local f=$TMP/grow-$2.yaml i
  for (( i = $1 + 1; i <= $2; i++ )); do
    printf -- '---\napiVersion: v1\nkind: Service\nmetadata: {name: grow-%05d, namespace: lab}\nspec:\n  selector: {app: backend}\n  ports: [{port: 80, targetPort: 8080}]\n' "$i"
  done >"$f"
  [ "$2" -gt "$1" ] || return 0
  kc apply --server-side -f "$f" >/dev/null
}
# Every Service with endpoints is in each node's rules: KUBE-SERVICES jumps (iptables), the
# service-ips map's elements (nftables), one per Service port.
in_rules() { # mode
  case "$1" in
    iptables) in_node iptables iptables-save -t nat | grep -c '^-A KUBE-SERVICES .* -j KUBE-SVC-' || true ;;
    nftables) in_node nftables nft list map ip kube-proxy service-ips | grep -o 'goto service-' | wc -l ;;
  esac
}
all_in_rules() { local m; for m in $modes; do [ "$(in_rules "$m")" = "$1" ] || return 1; done; }

# The connections: to the first, a middle and the last Service in iptables' KUBE-SERVICES walk (the
# order of its rules now), to a Pod address through the node, and straight to the server (floor).
walk() { in_node iptables iptables-save -t nat | grep '^-A KUBE-SERVICES .* -j KUBE-SVC-'; }
connections() {
  local order total first middle last round m k c
  # Only the grow-* Services (port 80 to backend's pods, which the server holds), by ClusterIP.
  local skip; skip="$(kc -n default get service kubernetes -o jsonpath='{.spec.clusterIP}')|$(kc -n lab get service web -o jsonpath='{.spec.clusterIP}')"
  order=$(walk)
  local ips; ips=$(grep -oE -- '-d [0-9.]+/32' <<<"$order" | cut -d' ' -f2 | cut -d/ -f1 | grep -vxE "${skip//./\\.}")
  total=$(wc -l <<<"$ips")
  first=$(sed -n 1p <<<"$ips"); middle=$(sed -n "$(( (total + 1) / 2 ))p" <<<"$ips"); last=$(sed -n "${total}p" <<<"$ips")
  emit "# ==> walk: iptables-save -t nat | grep '^-A KUBE-SERVICES .* -j KUBE-SVC-'"; printf '%s\n' "$order" >>"$out"; emit "# <== walk"
  for round in 1 2 3 4; do for m in $modes; do
    k=${m/iptables/1}; k=${k/nftables/2}
    emit "# ==> connect: $m round $round"
    c=(first="$first:80" middle="$middle:80" last="$last:80" pod="$BACKEND1:8080" floor="10.254.$k.2:8080")
    ip netns exec "lab-gc-$m" "$CT" dial -n $(( conns / 4 )) "${c[@]}" >>"$out" || die "connections from lab-gc-$m failed"
    emit "# <== connect"
  done; done
  [ "$(walk)" = "$order" ] || die "iptables' KUBE-SERVICES order changed while connections were timed"
  emit "# walk unchanged after the connections"
}

# --- main --------------------------------------------------------------------------------
lab_prepare growth
lab_up
lab_tool CT conntime   # the timing program (lib.sh)
BACKENDS=$(kc -n lab get pods -l app=backend -o jsonpath='{range .items[*]}{.status.podIP} {end}')
BACKEND1=${BACKENDS%% *}
traffic_ns iptables 1 $BACKENDS
traffic_ns nftables 2 $BACKENDS
mkdir -p "$(dirname "$out")"; : >"$out"
emit "# growth sweep: lab/growth.sh --sizes \"$sizes\" --changes $changes --fulls $fulls --conns $conns"
emit "# started: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
emit "# machine: $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'); $(awk '/MemTotal/ { print $2 " kB" }' /proc/meminfo)"
emit "# kernel: $(uname -r)"
emit "# loadavg: $(cat /proc/loadavg)"
for m in $modes; do
  emit "# kube-proxy $m: $(ip netns exec "lab-node-$m" curl -fsS http://127.0.0.1:10249/metrics | grep '^kubernetes_build_info' | grep -oE 'git_version="[^"]*"')"
  emit "# proxyMode $m: $(ip netns exec "lab-node-$m" curl -fsS http://127.0.0.1:10249/proxyMode)"
done
emit "# iptables: $(in_node iptables iptables --version)"
emit "# nft: $(in_node nftables nft --version)"
emit "# conntime: $(go version -m "$CT" | head -1 | cut -d: -f2- | sed 's/^\s*//')"
emit "# backend pods: $BACKENDS"
# lib.sh's setting, but this run makes traffic: connections between its own namespaces.
sed "s/(no kubelet, no traffic)/(no kubelet; the only traffic, connections between the lab's own network namespaces)/" "$TMP/setting" | while read -r l; do emit "# setting: $l"; done

have=0; zone=0
for size in $sizes; do
  step "size $size: Services grow-$(printf %05d $((have + 1))) ... grow-$(printf %05d "$size")"
  t=$(date +%s)
  grow_to "$have" "$size"; have=$size
  want=$(( size + 2 ))   # and Services kubernetes and lab/web
  wait_for 900 "$want Services in both nodes' rules" all_in_rules "$want"
  step "size $size: in both nodes' rules after $(( $(date +%s) - t )) s"
  emit "# ==> size $size"
  emit "# services: $(kc get services -A --no-headers | wc -l) (kubectl get services -A)"
  emit "# loadavg: $(cat /proc/loadavg)"
  r=3
  for (( i = 1; i <= changes; i++ )); do
    to=$(( r == 3 ? 4 : 3 ))
    step "size $size: change $i/$changes, lab/web $r -> $to"
    emit "# ==> change $i"; measured change "$r" "$to"; r=$to
  done
  for (( i = 1; i <= fulls; i++ )); do
    zone=$((zone + 1)); step "size $size: full sync $i/$fulls (zone z$zone)"
    emit "# ==> full $i"; measured full "z$zone"
  done
  [ "$r" = 3 ] || { kc -n lab scale deployment web --replicas=3 >/dev/null; wait_for 120 "lab/web back at 3" settled 3; }
  step "size $size: connections ($conns per address and mode)"
  connections
  emit "# <== size $size"
  step "size $size: done in $(( $(date +%s) - t )) s; $(du -h "$out" | cut -f1) of output so far"
done
emit "# loadavg: $(cat /proc/loadavg)"
emit "# finished: $(date -u +%Y-%m-%dT%H:%M:%SZ) ($(( $(date +%s) - SWEEP0 )) s after the lab started)"
finished=1
step "done: ${out#"$REPO"/} ($(du -h "$out" | cut -f1)); make it evidence: node tools/growth-evidence.ts add ${out#"$REPO"/}"
