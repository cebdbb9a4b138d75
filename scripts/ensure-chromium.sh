#!/usr/bin/env bash
# Installs headless Chromium for the browser tests of the web page (Debian's
# package chromium) when it is missing, and prints the path of its
# executable. make test names it to the tests by OKF_CHROMIUM.
set -euo pipefail

for bin in chromium chromium-browser; do
	if path=$(command -v "$bin" 2>/dev/null); then
		echo "$path"
		exit 0
	fi
done
if [ "$(id -u)" != 0 ]; then
	echo "ensure-chromium: chromium is missing and this user cannot apt-get install it (apt-get install chromium)" >&2
	exit 1
fi
echo "ensure-chromium: installing chromium with apt-get" >&2
apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-liberation >&2
command -v chromium
