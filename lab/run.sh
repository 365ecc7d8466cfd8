#!/usr/bin/env bash
# The lab: a real Kubernetes v1.37.2 control plane and one kube-proxy node per mode, all inside
# network namespaces of its own, then the kit's capture script run on each node as a reader would.
#
#   bash lab/run.sh [--mode iptables|nftables|both] [--services N] [--affinity] [--keep]
#     --mode      one node, or both (default)      --services  Services besides web (default 20)
#     --affinity  Service web with sessionAffinity: ClientIP (captures: lab/out/captures/<mode>-affinity)
#     --replicas  replicas of Deployment web before exercise 18 scales it by one (default 3)
#     --keep      leave the lab running, also after a failure
#     --no-add    leave out `npm run evidence -- add` on a copy of content/ (npm run lab -- check compares instead)
#     --refusal   also check a refused scale on the real node: kube-proxy's own kubeconfig may read lab/web, not scale it;
#                 and a metrics server that is not kube-proxy's own (a FIXTURE listener) is refused
#   bash lab/run.sh --down        stop what a --keep run left running
#
# Root only. lab/lib.sh holds the parts (binaries, certificates, control plane, nodes, cleanup);
# this run captures with the kit on each node. Everything it keeps goes under lab/out/.
set -euo pipefail

modes="iptables nftables"; services=20; replicas=3; keep=0; down=0; affinity=""; add=1; refusal=0
while [ $# -gt 0 ]; do
  case "$1" in
    --mode) case "${2:-}" in iptables|nftables) modes=$2 ;; both) ;; *) echo "lab: --mode iptables|nftables|both" >&2; exit 2 ;; esac; shift 2 ;;
    --services) [[ "${2:-}" =~ ^[0-9]+$ ]] || { echo "lab: --services needs a number" >&2; exit 2; }; services=$2; shift 2 ;;
    --replicas) [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || { echo "lab: --replicas needs a number >= 1" >&2; exit 2; }; replicas=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --affinity) affinity=ClientIP; shift ;;
    --down) down=1; shift ;;
    --no-add) add=0; shift ;;
    --refusal) refusal=1; shift ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "lab: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lib.sh"
# Captures of a variant are named after it: lab/out/captures/<mode>[-affinity][-r<replicas>].
suffix=${affinity:+-affinity}; [ "$replicas" = 3 ] || suffix="$suffix-r$replicas"

# --- the kit's capture script, unedited, inside each node ---------------------------------
# One run of the script, unedited, inside node lab-node-<mode>: capture <mode> <name> [script options].
# The capture goes to lab/out/captures/<name>, its transcript to lab/out/capture-<name>.txt; on a
# refusal the node's rules at that moment go to lab/out/findings/<name>-rules-after-refusal.txt.
capture() {
  local mode=$1 name=$2 n=lab-node-$1 out=$OUT/captures/$2 dump st=0; shift 2
  wait_for 120 "$replicas endpoints of lab/web in $n's $mode rules" web_has "$mode" "$replicas"
  wait_for 120 "2 endpoints of each of the $services Services in $n's $mode rules" services_ready "$mode"
  rm -rf "$out"; mkdir -p "$OUT/captures"
  step "capture $name: sh tools/capture/kube-proxy-evidence.sh --out ${out#"$REPO"/}${*:+ $*} --setting <the lab's> --deployment lab/web --log ${RUN#"$REPO"/}/$n/kube-proxy.log (inside $n)"
  in_node "$mode" env -i PATH="$BIN:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" HOME=/root \
    KUBECONFIG="$ADMIN" sh "$REPO/tools/capture/kube-proxy-evidence.sh" --out "$out" "$@" --setting "$TMP/setting" --deployment lab/web \
    --log "$RUN/$n/kube-proxy.log" 2>&1 | tee "$OUT/capture-$name.txt" || st=$?
  if [ "$st" = 0 ]; then captured="$captured $name"; else
    case "$mode" in iptables) dump='iptables-save -t nat' ;; nftables) dump='nft list table ip kube-proxy' ;; esac
    mkdir -p "$OUT/findings"; in_node "$mode" $dump >"$OUT/findings/$name-rules-after-refusal.txt"
    step "capture $name: REFUSED (exit $st); the node's rules then: lab/out/findings/$name-rules-after-refusal.txt"
    refused="$refused capture-$name"
  fi
  # Back at the replicas it had, and the rules with them, before anything else reads them.
  wait_for 120 "lab/web back at $replicas replicas" kc -n lab rollout status deployment web --timeout=5s
  local m; for m in $modes; do wait_for 120 "$replicas endpoints of lab/web in lab-node-$m's rules" web_has "$m" "$replicas"; done
  return "$st"
}

# Every capture, added to a copy of content/ as the checkout has it now (content/ itself is never
# written). `add` loads the whole content, so a refusal may name files the capture has nothing to
# do with (an edit in progress); then the capture is also offered to the last commit's content/
# (git archive, which reads the repository and writes nothing to it).
check_with_kit() {
  local name copy=$TMP/content head=$TMP/head
  cp -a "$REPO/content" "$copy"
  mkdir -p "$head"; git -C "$REPO" archive HEAD content | tar -x -C "$head"
  for name in $captured; do
    if add_to "$name" "$copy" worktree; then continue; fi
    add_to "$name" "$head/content" HEAD || refused="$refused add-$name"
  done
}
add_to() { # capture-name content-dir label
  local log=$OUT/evidence-add-$1-$3.txt
  step "evidence add $1: npm run evidence -- add lab/out/captures/$1 --content <copy of content/ at $3>"
  if (cd "$REPO" && npm run --silent evidence -- add "$OUT/captures/$1" --content "$2") >"$log" 2>&1; then
    step "evidence add $1 ($3 content): accepted, $(grep -c '^evidence: added' "$log") cell(s); ${log#"$REPO"/}"
  else
    step "evidence add $1 ($3 content): REFUSED; ${log#"$REPO"/} says:"; sed 's/^/    /' "$log" | cut -c1-400; return 1
  fi
}

# --- main --------------------------------------------------------------------------------
lab_prepare capture
lab_up
if [ -n "$affinity" ]; then
  step "variant: Service lab/web with sessionAffinity: $affinity (captures go to lab/out/captures/<mode>$suffix)"
  kc -n lab patch service web --type=merge -p "{\"spec\":{\"sessionAffinity\":\"$affinity\"}}" >/dev/null
fi
rm -rf "$OUT/captures"
captured=""; refused=""
for m in $modes; do
  # As a reader would: the default run of the script (by mode: 16 or 17, and 18); when it refuses,
  # exercise 18 alone, which needs no dump exercise.
  capture "$m" "$m$suffix" || capture "$m" "$m$suffix-ex18" --exercise 18 || true
done
# The kit's refusal on the real node: a kubeconfig that may get the Deployment but not scale it
# (kube-proxy's own identity, granted read access here) must make the script stop at the scale, keep
# nothing and leave the replicas as they were.
refusal_check() {
  local m=${modes%% *} out=$OUT/refused st=0 before after
  kc -n lab create role lab-read-deployments --verb=get,list --resource=deployments,services >/dev/null
  kc -n lab create rolebinding lab-read-deployments --role=lab-read-deployments --user=system:kube-proxy >/dev/null
  before=$(kc -n lab get deployment web -o jsonpath='{.spec.replicas}')
  rm -rf "$out"
  step "refusal: the capture script on lab-node-$m with kube-proxy's kubeconfig (may read lab/web, not scale it)"
  in_node "$m" env -i PATH="$BIN:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" HOME=/root \
    KUBECONFIG="$P/kube-proxy.kubeconfig" sh "$REPO/tools/capture/kube-proxy-evidence.sh" --out "$out" --exercise 18 \
    --deployment lab/web --log "$RUN/lab-node-$m/kube-proxy.log" >"$OUT/refusal.txt" 2>&1 || st=$?
  after=$(kc -n lab get deployment web -o jsonpath='{.spec.replicas}')
  sed 's/^/    /' "$OUT/refusal.txt" | grep -E 'failed|Forbidden|nothing' | cut -c1-300
  if [ "$st" != 0 ] && grep -q 'Forbidden' "$OUT/refusal.txt" && [ ! -e "$out" ] && [ "$before" = "$after" ] &&
    [ -z "$(ls -d "$OUT"/.kube-proxy-* 2>/dev/null)" ]; then
    step "refusal: refused as the kit says (exit $st), nothing kept, lab/web still at $after replicas"
  else
    step "refusal: NOT as expected (exit $st, replicas $before -> $after, ${out#"$REPO"/} $([ -e "$out" ] && echo exists || echo absent))"
    refused="$refused refusal-check"
  fi
}
# And a metrics server that is not kube-proxy's own: a FIXTURE listener (tests/fixtures/evidence-kit/
# FIXTURE-node/FIXTURE-listener.mjs, run by Node inside the node's namespaces, not kube-proxy) answers
# on 127.0.0.1:10259 as kube-proxy's would, with mode nftables; the script, given --metrics there,
# must refuse before it runs anything, naming that process, and keep nothing.
listener_check() {
  local m=${modes%% *} out=$OUT/refused-listener st=0 pid
  start "fixture-listener-$m" "$RUN/fixture-listener-$m.log" nsenter -t "$(node_pid "$m")" -n -p -m -- \
    node "$REPO/tests/fixtures/evidence-kit/FIXTURE-node/FIXTURE-listener.mjs" 10259 nftables v0.0.0-FIXTURE-FOREIGN
  pid=$(awk -v n="fixture-listener-$m" '$1 == "pid" && $3 == n { p = $2 } END { print p }' "$STATE")
  wait_for 30 "the FIXTURE listener in lab-node-$m" in_node "$m" curl -fsS --max-time 2 http://127.0.0.1:10259/proxyMode
  rm -rf "$out"
  step "refusal: the capture script on lab-node-$m with --metrics http://127.0.0.1:10259, where a FIXTURE listener, not kube-proxy, answers"
  in_node "$m" env -i PATH="$BIN:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" HOME=/root \
    sh "$REPO/tools/capture/kube-proxy-evidence.sh" --out "$out" --metrics http://127.0.0.1:10259 >"$OUT/refusal-listener.txt" 2>&1 || st=$?
  kill "$(pgrep -P "$pid")" "$pid" 2>/dev/null || true
  sed 's/^/    /' "$OUT/refusal-listener.txt" | cut -c1-300
  if [ "$st" != 0 ] && grep -q 'is served by process [0-9]* (fixture-listen, uid 0), not by kube-proxy' "$OUT/refusal-listener.txt" &&
    [ ! -e "$out" ] && [ -z "$(ls -d "$OUT"/.kube-proxy-* 2>/dev/null)" ]; then
    step "refusal: the FIXTURE listener was refused as the kit says (exit $st), nothing kept"
  else
    step "refusal: the FIXTURE listener was NOT refused as expected (exit $st, ${out#"$REPO"/} $([ -e "$out" ] && echo exists || echo absent))"
    refused="$refused listener-check"
  fi
}
[ "$refusal" = 0 ] || { refusal_check; listener_check; }

# A cell that has its evidence already refuses a second (remove it first, docs/evidence.md), so the
# check run (npm run lab -- check) compares its captures with the committed evidence instead.
if [ "$add" = 1 ]; then check_with_kit; else step "evidence add: skipped (--no-add); tools/lab-check.ts compares the captures"; fi
finished=1
step "done: captured [${captured# }], refused [${refused# }]; captures in lab/out/captures/, logs in lab/out/run/, versions in lab/out/versions.tsv"
[ -z "$refused" ]
