#!/usr/bin/env bash
# Installs the Node tools the tests drive (the Redocly OpenAPI linter and the
# official MCP inspector) at pinned versions into a cache outside the
# checkout, once, and prints the directory holding their executables.
# Installs Node and npm from apt when they are missing.
set -euo pipefail

REDOCLY=@redocly/cli@2.77.0
INSPECTOR=@modelcontextprotocol/inspector@2.12.0
AXE=axe-core@4.14.1 # the web page's accessibility check (browser tests)
# x402 clients of the payment end-to-end test (services/api/server): v2 and v1.
X402=(@x402/fetch@2.27.0 @x402/evm@2.27.0 x402-fetch@1.2.0 viem@2.57.20)

if ! command -v npm >/dev/null 2>&1; then
	echo "ensure-node-tools: installing nodejs and npm with apt-get" >&2
	if [ "$(id -u)" != 0 ]; then
		echo "ensure-node-tools: npm is missing and this user cannot apt-get install it" >&2
		exit 1
	fi
	apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >&2
fi

cache="${OKF_NODE_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/okf-index}"
key=$(printf '%s ' "$REDOCLY" "$INSPECTOR" "$AXE" "${X402[@]}" | sha256sum | cut -c1-12)
dir="$cache/node-tools-$key"
if [ ! -x "$dir/node_modules/.bin/redocly" ] || [ ! -x "$dir/node_modules/.bin/mcp-inspector" ] || [ ! -f "$dir/node_modules/axe-core/axe.min.js" ] || [ ! -d "$dir/node_modules/x402-fetch" ] || [ ! -d "$dir/node_modules/@x402/fetch" ]; then
	echo "ensure-node-tools: installing $REDOCLY, $INSPECTOR, $AXE and ${X402[*]} into $dir" >&2
	mkdir -p "$cache"
	tmp=$(mktemp -d "$cache/tmp.XXXXXX")
	(cd "$tmp" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error "$REDOCLY" "$INSPECTOR" "$AXE" "${X402[@]}" >&2)
	rm -rf "$dir"
	mv "$tmp" "$dir"
fi
echo "$dir/node_modules/.bin"
