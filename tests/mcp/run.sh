#!/bin/sh
# tests/mcp/run.sh -- the mcp test layer: `trigger-host mcp` driven by the
# official MCP TypeScript SDK's Client and StdioClientTransport
# (tests/mcp/client.js; docs/mcp.md#tests). The SDK comes from
# tests/mcp/sdk.sh (build/mcp-sdk); without node, npm or the registry the
# layer prints SKIP and counts nothing.
# Prints "mcp: N passed, M failed".
B=${B:-build}
MCP_SDK_DIR=${MCP_SDK_DIR:-build/mcp-sdk}
export MCP_SDK_DIR
if ! sh tests/mcp/sdk.sh; then
  echo "mcp: SKIP: the MCP SDK is not installed (tests/mcp/sdk.sh)"
  exit 0
fi
NODE_PATH=$(cd "$MCP_SDK_DIR" && pwd)/node_modules exec node tests/mcp/client.js \
  "$(pwd)/$B/trigger-host" "$(pwd)/$B/triggers"
