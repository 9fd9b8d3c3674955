#!/bin/sh
# tests/mcp/sdk.sh -- the official MCP TypeScript SDK (@modelcontextprotocol/sdk,
# pinned below) installed with npm into build/mcp-sdk, once: the client of
# the mcp test layer (tests/mcp/run.sh). Called by tests/deps.sh and by the
# layer; a second call with the pinned version in place does nothing.
# Exit 0 when the SDK is there, 1 when it is not (no node or npm, or the
# registry unreachable: the layer then says SKIP).
SDK_VERSION=1.32.2
DIR=${MCP_SDK_DIR:-build/mcp-sdk}
have() {
  [ "$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' \
    "$DIR/node_modules/@modelcontextprotocol/sdk/package.json" 2> /dev/null)" = "$SDK_VERSION" ]
}
have && exit 0
if ! command -v node > /dev/null 2>&1 || ! command -v npm > /dev/null 2>&1; then
  echo "mcp: node or npm not found (Debian: nodejs, npm)" >&2
  exit 1
fi
mkdir -p "$DIR"
echo "mcp: installing @modelcontextprotocol/sdk $SDK_VERSION into $DIR" >&2
timeout 300 npm install --silent --no-audit --no-fund --fetch-retries=1 \
  --prefix "$DIR" "@modelcontextprotocol/sdk@$SDK_VERSION" > "$DIR/npm.log" 2>&1 ||
  { echo "mcp: npm install failed ($DIR/npm.log)" >&2; exit 1; }
have
