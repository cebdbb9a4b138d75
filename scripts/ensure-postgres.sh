#!/usr/bin/env bash
# Makes sure PostgreSQL server binaries are on this machine: the embedded
# cluster of `make run` and the ephemeral clusters of `make test` are started
# from them. Installs postgresql-15 with apt when missing and allowed (root,
# or passwordless sudo); otherwise says in one line what to install.
set -euo pipefail

have_pg() {
  [ -n "${PG_BIN:-}" ] && [ -x "$PG_BIN/initdb" ] && return 0
  compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null && return 0
  command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ] && return 0
  return 1
}

have_pg && exit 0

if [ "$(id -u)" -eq 0 ]; then SUDO=""; elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO=none; fi
if [ "$SUDO" = none ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "PostgreSQL server binaries not found: install postgresql-15 (apt-get install postgresql-15), or set PG_BIN to the directory holding initdb and pg_ctl." >&2
  exit 1
fi
echo "Installing postgresql-15 with apt-get..." >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
$SUDO apt-get install -y -qq --no-install-recommends postgresql-15 postgresql-contrib >&2 || $SUDO apt-get install -y -qq --no-install-recommends postgresql-15 >&2
# The Debian package starts a system cluster; ours are private, so leave the
# system one as the package set it up.
have_pg || { echo "postgresql-15 was installed but initdb was not found" >&2; exit 1; }
