#!/usr/bin/env bash
# The lab's parts, shared by its runs (run.sh: the kit's captures; other runs may source it too).
# Source it after setting the run's options: modes ("iptables nftables" or one), services, replicas,
# keep (1: leave everything running) and down (1: only stop what a --keep run left); then
# `lab_prepare <name>` (checks, the host-wide lock, the cleanup traps) and `lab_up` (binaries,
# certificates, control plane, one node per mode, the workloads). Progress goes to fd 3.
#
# Root only. Builds (or reuses) the binaries in $XDG_CACHE_HOME/kube-proxy-study/k8s-<version>/bin,
# writes everything it keeps under lab/out/ (docs/lab.md describes the parts), and on success,
# failure, Ctrl-C, SIGTERM or SIGHUP kills every process it started (by pid) and deletes every
# namespace it made (their veths go with them). The host's own tables are never touched.

# kube-proxy runs iptables-restore and nft from PATH; a root shell's PATH may lack the sbin folders.
export PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:$PATH"
LAB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$LAB")
K8S=v1.37.2
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/kube-proxy-study/k8s-$K8S
BIN=$CACHE/bin
OUT=$LAB/out
RUN=$OUT/run                  # logs of this run (kept)
STATE=$OUT/run/state          # pids and namespaces of this run, for cleanup and --down
NET=10.251.0                  # the lab's own link between its namespaces
CP_IP=$NET.1
SVC_CIDR=10.96.0.0/16
POD_CIDR=10.244.0.0/16        # pods get addresses from 10.244.1.0/24 (node lab-pods)
T0=$(date +%s)

LOCK=/run/kube-proxy-study-lab.lock   # one lab per machine (lab_prepare)

# Progress goes to fd 3, the run's own stdout: a trap that fires inside a command whose output is
# sent to /dev/null still reports (and cleans up) where the reader sees it.
exec 3>&1
step() { printf '[lab %4ss] %s\n' "$(( $(date +%s) - T0 ))" "$*" >&3; }
die() { step "FAILED: $*"; exit 1; }

# --- cleanup: every pid and namespace recorded in $STATE, in reverse order ------------------
cleanup() {
  [ -f "$STATE" ] || return 0
  step "cleanup: stopping processes, deleting namespaces"
  local pids; pids=$(awk '$1 == "pid" { print $2 }' "$STATE" | tac)
  for p in $pids; do kill -TERM "$p" 2>/dev/null || true; done
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    local alive=0; for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break; sleep 0.5
  done
  for p in $pids; do kill -KILL "$p" 2>/dev/null || true; done
  awk '$1 == "netns" { print $2 }' "$STATE" | tac | while read -r n; do ip netns delete "$n" 2>/dev/null || true; done
  awk '$1 == "tmp" { print $2 }' "$STATE" | while read -r d; do rm -rf "$d"; done
  rm -f "$STATE"
  step "cleanup done; ip netns list now shows: [$(ip netns list | tr '\n' ' ')]"
}

finished=0; ticker=""
on_exit() {
  local st=$?
  trap - EXIT INT TERM HUP
  [ -z "$ticker" ] || kill "$ticker" 2>/dev/null || true
  if [ "$keep" = 1 ]; then
    [ "$finished" = 1 ] || step "--keep: the run failed; everything is left running for debugging"
    step "--keep: left running. KUBECONFIG=$ADMIN; node shells: nsenter -t <pid> -n -p -m (pids in $STATE); stop: bash lab/run.sh --down"
  else
    cleanup
  fi
  exit "$st"
}

# Checks, then the host-wide lock (the namespaces' names are fixed, so one lab runs at a time on a
# machine, whichever checkout starts it: a second run waits here), then the traps that clean up.
lab_prepare() { # the run's name, for messages
  [ "$(id -u)" = 0 ] || { echo "lab: run as root (namespaces, iptables, nft)" >&2; exit 1; }
  if [ "$down" = 1 ]; then cleanup; exit 0; fi
  local c
  for c in go openssl ip unshare nsenter iptables-save iptables-restore nft curl npm flock; do
    command -v "$c" >/dev/null || { echo "lab: $c is missing (Debian: apt-get install iptables nftables iproute2 util-linux curl openssl)" >&2; exit 1; }
  done
  exec 8>"$LOCK"
  flock -n 8 || { step "$1: another lab run holds $LOCK; waiting for it"; flock 8; }
  [ ! -f "$STATE" ] || die "a lab is still up ($STATE): bash lab/run.sh --down first"
  trap on_exit EXIT
  trap 'step "interrupted (SIGINT)"; exit 130' INT
  trap 'step "terminated (SIGTERM)"; exit 143' TERM
  trap 'step "hung up (SIGHUP)"; exit 129' HUP
}

# --- 1. binaries -------------------------------------------------------------------------
# name, Go package, module folder (lab/ holds kubernetes' graph; lab/kwok/ holds KWOK's).
TOOLS="etcd go.etcd.io/etcd/server/v3 .
kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver .
kube-controller-manager k8s.io/kubernetes/cmd/kube-controller-manager .
kube-scheduler k8s.io/kubernetes/cmd/kube-scheduler .
kube-proxy k8s.io/kubernetes/cmd/kube-proxy .
kubectl k8s.io/kubernetes/cmd/kubectl .
kwok sigs.k8s.io/kwok/cmd/kwok kwok"
V=${K8S#v}; MAJOR=${V%%.*}; MINOR=${V#*.}; MINOR=${MINOR%%.*}
LDFLAGS="-s -w -X k8s.io/component-base/version.gitVersion=$K8S -X k8s.io/component-base/version.gitMajor=$MAJOR -X k8s.io/component-base/version.gitMinor=$MINOR -X k8s.io/client-go/pkg/version.gitVersion=$K8S -X k8s.io/component-base/version.gitTreeState=clean"
key=$( { go version; echo "$LDFLAGS"; cat "$LAB/go.mod" "$LAB/go.sum" "$LAB/kwok/go.mod" "$LAB/kwok/go.sum"; } | sha256sum | cut -c1-16)

build_binaries() {
  if [ -f "$BIN/.key" ] && [ "$(cat "$BIN/.key")" = "$key" ]; then
    step "binaries: reusing $BIN (built for key $key; nothing to build)"; return
  fi
  local new=$CACHE/bin.new; rm -rf "$new"; mkdir -p "$new"
  step "binaries: building into $new (Go build cache: $(go env GOCACHE))"
  while read -r name pkg dir; do
    local t=$(date +%s)
    step "binaries: building $name ($pkg)"
    ( while sleep 30; do step "binaries: ... still building $name, $(( $(date +%s) - t ))s"; done ) & ticker=$!
    ( cd "$LAB/$dir" && CGO_ENABLED=0 go build -trimpath -ldflags "$LDFLAGS" -o "$new/$name" "$pkg" ) || die "go build $pkg"
    kill "$ticker" 2>/dev/null; wait "$ticker" 2>/dev/null || true; ticker=""
    step "binaries: built $name in $(( $(date +%s) - t ))s"
  done <<<"$TOOLS"
  # The capture script trusts only a kube-proxy binary root owns and no one else can write.
  chown root:root "$new"/*; chmod 0755 "$new"/*
  while read -r name pkg dir; do
    # The module that provides the package, with its go.sum hash (and its replacement, if any).
    local m; m=$(go version -m "$new/$name" | awk -v p="$pkg" '
      $1 == "=>" { if (last) line = line " => " $2 " " $3 " " $4; last = 0; next }
      { last = 0 }
      ($1 == "dep" || $1 == "mod") && index(p "/", $2 "/") == 1 && length($2) > length(best) { best = $2; line = $2 " " $3 " " $4; last = 1 }
      END { print line }')
    printf '%s\t%s\t%s\tsha256:%s\n' "$name" "$pkg" "$m" "$(sha256sum "$new/$name" | cut -d' ' -f1)"
  done <<<"$TOOLS" >"$new/versions.tsv"
  for name in $(cut -d' ' -f1 <<<"$TOOLS"); do echo "== $name"; go version -m "$new/$name"; done >"$new/versions-go-version-m.txt"
  echo "$key" >"$new/.key"
  rm -rf "$BIN"; mv "$new" "$BIN"
  step "binaries: ready in $BIN"
}

# --- 2. certificates and kubeconfigs ------------------------------------------------------
pki() { # name CN O ext
  openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$P/$1.key" \
    -subj "/CN=$2${3:+/O=$3}" -out "$P/$1.csr" 2>/dev/null
  openssl x509 -req -in "$P/$1.csr" -CA "$P/ca.crt" -CAkey "$P/ca.key" -CAcreateserial -days 2 \
    -extfile <(printf '%s\n' "$4") -out "$P/$1.crt" 2>/dev/null
}
kubeconfig() { # name server
  cat >"$P/$1.kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: lab
  cluster:
    server: $2
    certificate-authority-data: $(base64 -w0 "$P/ca.crt")
users:
- name: $1
  user:
    client-certificate-data: $(base64 -w0 "$P/$1.crt")
    client-key-data: $(base64 -w0 "$P/$1.key")
contexts:
- name: lab
  context: {cluster: lab, user: $1}
current-context: lab
EOF
}
make_pki() {
  P=$TMP/pki; mkdir -p "$P"
  openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$P/ca.key" \
    -subj "/CN=kube-proxy-study-lab-ca" -days 2 -out "$P/ca.crt" 2>/dev/null
  pki apiserver kube-apiserver "" "subjectAltName=IP:$CP_IP,IP:127.0.0.1,IP:${SVC_CIDR%.0/*}.1,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:localhost
extendedKeyUsage=serverAuth"
  # kube-proxy authenticates as system:kube-proxy (bound to system:node-proxier by default RBAC);
  # the control-plane helpers and the reader's kubectl are system:masters.
  pki kube-proxy system:kube-proxy "" "extendedKeyUsage=clientAuth"
  for u in admin kube-controller-manager kube-scheduler kwok; do pki "$u" "lab:$u" system:masters "extendedKeyUsage=clientAuth"; done
  openssl genrsa -out "$P/sa.key" 2048 2>/dev/null; openssl rsa -in "$P/sa.key" -pubout -out "$P/sa.pub" 2>/dev/null
  for u in admin kube-controller-manager kube-scheduler kwok kube-proxy; do kubeconfig "$u" "https://$CP_IP:6443"; done
  ADMIN=$P/admin.kubeconfig
}

# --- 3. namespaces and processes ----------------------------------------------------------
netns() { ip netns add "$1"; echo "netns $1" >>"$STATE"; ip -n "$1" link set lo up; }
start() { # name logfile cmd... (in the background; its pid goes to $STATE)
  local name=$1 log=$2; shift 2
  { exec "$@"; } >"$log" 2>&1 3>&- 8>&- &  # exec: $! is the process itself, not a subshell around it
  echo "pid $! $name" >>"$STATE"
  disown "$!"                    # cleanup kills it by pid; no job-status noise from bash
}
kc() { ip netns exec lab-cp "$BIN/kubectl" --kubeconfig "$ADMIN" "$@"; }  # the API server is reachable only from the lab's namespaces
wait_for() { # seconds what cmd...
  local t=$1 what=$2 i=0; shift 2
  until "$@" >/dev/null 2>&1; do i=$((i + 1)); [ "$i" -le "$t" ] || die "waited ${t}s for $what"; sleep 1; done
}

control_plane() {
  netns lab-cp
  ip -n lab-cp link add lab-br type bridge
  ip -n lab-cp addr add "$CP_IP/24" dev lab-br
  ip -n lab-cp link set lab-br up
  local cp="ip netns exec lab-cp"
  step "control plane: etcd"
  start etcd "$RUN/cp/etcd.log" $cp "$BIN/etcd" --name lab --data-dir "$TMP/etcd" --unsafe-no-fsync \
    --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
    --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
    --initial-cluster lab=http://127.0.0.1:2380
  step "control plane: kube-apiserver on $CP_IP:6443 (inside lab-cp)"
  start kube-apiserver "$RUN/cp/kube-apiserver.log" $cp "$BIN/kube-apiserver" --etcd-servers=http://127.0.0.1:2379 \
    --bind-address=0.0.0.0 --secure-port=6443 --advertise-address="$CP_IP" \
    --tls-cert-file="$P/apiserver.crt" --tls-private-key-file="$P/apiserver.key" --client-ca-file="$P/ca.crt" \
    --service-account-issuer=https://kubernetes.default.svc --service-account-key-file="$P/sa.pub" \
    --service-account-signing-key-file="$P/sa.key" --service-cluster-ip-range="$SVC_CIDR" \
    --authorization-mode=RBAC
  wait_for 120 "kube-apiserver /readyz" kc get --raw /readyz
  step "control plane: kube-apiserver ready"
  step "control plane: kube-controller-manager (deployment, replicaset, endpointslice, serviceaccount, namespace, gc controllers)"
  start kube-controller-manager "$RUN/cp/kube-controller-manager.log" $cp "$BIN/kube-controller-manager" \
    --kubeconfig="$P/kube-controller-manager.kubeconfig" \
    --authentication-kubeconfig="$P/kube-controller-manager.kubeconfig" --authorization-kubeconfig="$P/kube-controller-manager.kubeconfig" \
    --bind-address=127.0.0.1 --leader-elect=false --use-service-account-credentials=false \
    --controllers=deployment-controller,replicaset-controller,endpointslice-controller,endpointslice-mirroring-controller,serviceaccount-controller,serviceaccount-token-controller,namespace-controller,garbage-collector-controller,root-ca-certificate-publisher-controller \
    --service-account-private-key-file="$P/sa.key" --root-ca-file="$P/ca.crt"
  step "control plane: kube-scheduler"
  start kube-scheduler "$RUN/cp/kube-scheduler.log" $cp "$BIN/kube-scheduler" --kubeconfig="$P/kube-scheduler.kubeconfig" \
    --authentication-kubeconfig="$P/kube-scheduler.kubeconfig" --authorization-kubeconfig="$P/kube-scheduler.kubeconfig" \
    --bind-address=127.0.0.1 --leader-elect=false
  step "control plane: KWOK (makes the pods of node lab-pods Running and Ready; no kubelet)"
  local stages; stages=$(cd "$LAB/kwok" && go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)/kustomize/stage
  { for f in node/fast/node-initialize pod/fast/pod-ready pod/fast/pod-complete pod/fast/pod-delete; do
      echo '---'; cat "$stages/$f.yaml"; done; } >"$TMP/kwok.yaml"
  start kwok "$RUN/cp/kwok.log" $cp "$BIN/kwok" --kubeconfig="$P/kwok.kubeconfig" --config="$TMP/kwok.yaml" \
    --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake --node-ip="$NET.20" --cidr=10.244.1.0/24
}

node_ip() { case "$1" in iptables) echo "$NET.11" ;; nftables) echo "$NET.12" ;; esac; }
# A Node object whose pods no one schedules (kube-proxy only); KWOK does not manage it.
proxy_node() { # mode
  local n=lab-node-$1 ip; ip=$(node_ip "$1")
  kc apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Node
metadata: {name: $n, labels: {kubernetes.io/hostname: $n, lab.kube-proxy-study/mode: $1}}
spec: {taints: [{key: lab.kube-proxy-study/kube-proxy-only, effect: NoSchedule}]}
EOF
  kc patch node "$n" --subresource=status --type=merge \
    -p "{\"status\":{\"addresses\":[{\"type\":\"InternalIP\",\"address\":\"$ip\"},{\"type\":\"Hostname\",\"address\":\"$n\"}]}}" >/dev/null
}
start_node() { # mode
  local mode=$1 n=lab-node-$1 ip; ip=$(node_ip "$1")
  netns "$n"
  ip -n lab-cp link add "cp-$mode" type veth peer name eth0 netns "$n"
  ip -n lab-cp link set "cp-$mode" master lab-br up
  ip -n "$n" addr add "$ip/24" dev eth0
  ip -n "$n" link set eth0 up
  proxy_node "$mode"
  mkdir -p "$RUN/$n"
  step "node $n: kube-proxy --proxy-mode=$mode -v=9 (own network, PID and mount namespaces; log $RUN/$n/kube-proxy.log)"
  # conntrack-max-per-core=0: leave nf_conntrack_max (and the kernel-wide hash size) alone.
  start "kube-proxy-$mode" "$RUN/$n/kube-proxy.log" ip netns exec "$n" unshare --pid --mount --fork --mount-proc --kill-child \
    "$BIN/kube-proxy" --kubeconfig="$P/kube-proxy.kubeconfig" --hostname-override="$n" \
    --proxy-mode="$mode" -v=9 --cluster-cidr="$POD_CIDR" --bind-address="$ip" \
    --metrics-bind-address=127.0.0.1:10249 --healthz-bind-address=127.0.0.1:10256 \
    --conntrack-max-per-core=0
}
# kube-proxy's pid as the host sees it: the child of `unshare` (PID 1 in the node's PID namespace).
node_pid() { pgrep -P "$(awk -v n="kube-proxy-$1" '$1 == "pid" && $3 == n { print $2 }' "$STATE")"; }
in_node() { local mode=$1; shift; nsenter -t "$(node_pid "$mode")" -n -p -m -- "$@"; }

# How many endpoints of lab/web the node's rules hold now.
web_endpoints() { # mode
  endpoint_counts "$1" | awk '$1 == "lab/web" { n = $2 } END { print n + 0 }'
}
# Every Service's endpoints in the node's rules, one "namespace/name count" line each (iptables: the
# KUBE-SVC- chain's jumps to KUBE-SEP-, affinity's -m recent lines aside; nftables: the map's size,
# or 1 for a plain dnat).
endpoint_counts() { # mode
  case "$1" in
    iptables) ip netns exec lab-node-iptables iptables-save -t nat |
      awk '/^-A KUBE-SVC-.* -j KUBE-SEP-/ && !/-m recent/ && match($0, /--comment "[^ "]+ -> /) {
        n[substr($0, RSTART + 11, RLENGTH - 15)]++ } END { for (s in n) print s, n[s] }' ;;
    nftables) ip netns exec lab-node-nftables nft list table ip kube-proxy 2>/dev/null |
      awk 'match($0, /^\tchain service-[A-Z0-9]+-[^\/ ]+\/[^\/ ]+\//) { split(substr($0, RSTART + 7, RLENGTH - 7), p, "/");
          s = substr(p[1], index(substr(p[1], 9), "-") + 9) "/" p[2]; next }
        s != "" && match($0, /numgen random mod [0-9]+/) { print s, substr($0, RSTART + 18, RLENGTH - 18); s = ""; next }
        s != "" && / dnat (ip )?to [0-9.]+:[0-9]+/ { print s, 1; s = ""; next } /^\t}/ { s = "" }' ;;
  esac
}
# Whether each of the lab's $services Services shows lab/backend's 2 endpoints in the node's rules.
# The API server reports them ready before the node's next sync writes them (iptables syncs at most
# once a second by default), and the captures read every Service.
services_ready() { # mode
  [ "$services" = 0 ] && return 0
  [ "$(endpoint_counts "$1" | awk '$1 ~ /^lab\/svc-/ && $2 == 2' | wc -l)" = "$((10#$services))" ]
}
node_ready() { [ "$(kc get node "$1" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" = True ]; }
web_has() { [ "$(web_endpoints "$1")" = "$2" ]; }

workloads() {
  kc apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Node
metadata:
  name: lab-pods
  annotations: {kwok.x-k8s.io/node: fake}
  labels: {kubernetes.io/hostname: lab-pods, type: kwok}
spec: {podCIDR: 10.244.1.0/24}
EOF
  # The API server's NodeTaint admission gives every new Node node.kubernetes.io/not-ready:NoSchedule;
  # the node lifecycle controller (not run here: it would also want kubelet heartbeats) removes it
  # once the node is Ready. KWOK makes lab-pods Ready; the lab then removes the taint itself.
  wait_for 60 "KWOK to make node lab-pods Ready" node_ready lab-pods
  kc taint nodes lab-pods node.kubernetes.io/not-ready:NoSchedule- >/dev/null
  kc apply -f "$LAB/manifests/web.yaml" >/dev/null
  [ "$replicas" = 3 ] || kc -n lab scale deployment web --replicas="$replicas" >/dev/null
  local i; for i in $(seq -w 1 "$services"); do
    printf -- '---\napiVersion: v1\nkind: Service\nmetadata: {name: svc-%s, namespace: lab}\nspec:\n  selector: {app: backend}\n  ports: [{port: 80, targetPort: 8080}]\n' "$i"
  done | { [ "$services" = 0 ] || kc apply -f - >/dev/null; }
  wait_for 180 "deployment lab/web rolled out" kc -n lab rollout status deployment web --timeout=5s
  wait_for 180 "deployment lab/backend rolled out" kc -n lab rollout status deployment backend --timeout=5s
  step "cluster: lab/web $replicas/$replicas ready, lab/backend 2/2 ready behind $services Services; pods: $(kc -n lab get pods -o jsonpath='{range .items[*]}{.metadata.name}={.status.podIP} {end}')"
}

# Where the captures are taken, said once in each (the script's --setting): from the versions and
# module sums this run's binaries record (versions.tsv), so nothing in it is typed per run.
sum_of() { awk -F'\t' -v b="$1" '$1 == b { print $3 }' "$OUT/versions.tsv"; }
write_setting() {
  cat >"$TMP/setting" <<EOF_SETTING
In this project's lab, on one machine: a real kube-proxy ${K8S}, one lab node per mode, its Pods simulated by KWOK $(sum_of kwok | cut -d' ' -f2) (no kubelet, no traffic).

kube-proxy ${K8S} built from the Go module proxy ($(sum_of kube-proxy)); each node in network, PID and mount namespaces of its own, against a real control plane in another ($(sum_of etcd | cut -d' ' -f1-2); kube-apiserver, kube-controller-manager and kube-scheduler ${K8S}); one lab node, not the course's pair of nodes; started by npm run lab (docs/lab.md). Measure your own cluster with the same kit: docs/evidence.md.
EOF_SETTING
}

# Everything a run measures on: binaries, certificates, the control plane, one node per mode, the
# workloads, and kube-proxy answering on each node; then the setting the captures record.
lab_up() {
  local m
  for m in $modes; do ! ip netns list | grep -q "^lab-node-$m\b" || die "namespace lab-node-$m exists already (not this run's)"; done
  ! ip netns list | grep -q '^lab-cp\b' || die "namespace lab-cp exists already (not this run's)"
  build_binaries
  rm -rf "$RUN"; mkdir -p "$RUN/cp"
  TMP=$(mktemp -d /tmp/kube-proxy-lab.XXXXXX); echo "tmp $TMP" >"$STATE"
  cp "$BIN/versions.tsv" "$OUT/versions.tsv"; cp "$BIN/versions-go-version-m.txt" "$OUT/versions-go-version-m.txt"
  step "pki: CA, serving and client certificates, service-account key, kubeconfigs in $TMP/pki"
  make_pki
  control_plane
  step "nodes: $modes"
  for m in $modes; do start_node "$m"; done
  sleep 1
  for m in $modes; do [ "$(in_node "$m" sh -c 'ls -d /proc/[0-9]* | wc -l')" -ge 1 ] || die "node $m has no PID namespace"; done
  step "cluster: namespace lab, Deployment web ($replicas) + Service web, Deployment backend (2) + $services Services"
  workloads
  for m in $modes; do
    wait_for 60 "kube-proxy metrics on lab-node-$m" ip netns exec "lab-node-$m" curl -fsS --max-time 2 http://127.0.0.1:10249/proxyMode
    step "node lab-node-$m: /proxyMode says $(ip netns exec "lab-node-$m" curl -fsS http://127.0.0.1:10249/proxyMode)"
  done
  write_setting
}

# A small Go program of the lab's own (lab/<dir>, built with lab/go.mod), cached by its source, the
# module files and Go's version: lab_tool <variable> <dir> sets <variable> to the binary's path.
lab_tool() { # variable dir
  local -n path=$1
  local dir=$2 name=${2##*/} k
  k=$( { go version; cat "$LAB/go.mod" "$LAB/$dir"/*.go; } | sha256sum | cut -c1-16)
  path=$CACHE/tools/$name-$k/$name
  if [ -x "$path" ]; then step "$name: reusing $path"; return; fi
  step "$name: building lab/$dir into $path"
  mkdir -p "${path%/*}"
  (cd "$LAB" && CGO_ENABLED=0 go build -trimpath -o "$path.new" "./$dir") || die "go build lab/$dir"
  mv "$path.new" "$path"
}
