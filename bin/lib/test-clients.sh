#!/usr/bin/env bash
# The PostgreSQL clients WireProtocolIT drives besides pgJDBC (a Maven test dependency) and psql
# (Debian's postgresql-client, which bin/postgres installs with the server): psycopg 3 (Debian's
# python3-psycopg, for /usr/bin/python3), node-postgres (npm's pg, into .run/clients) and tmux
# (to type into an interactive psql); and the browser ConsoleIT drives: Debian's chromium, through
# playwright-core (npm, into .run/clients).
# Installs what is missing; bin/test runs it while the build runs.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CLIENTS="$ROOT/.run/clients"
NODE_PG_VERSION=8.23.1
PLAYWRIGHT_CORE_VERSION=1.65.2

log() { echo "[clients] $*" >&2; }

if ! /usr/bin/python3 -c 'import psycopg' 2>/dev/null; then
  log "installing python3-psycopg from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q python3-psycopg >&2 || { apt-get update -q >&2 && apt-get install -y -q python3-psycopg >&2; }
fi
if ! command -v tmux >/dev/null; then
  log "installing tmux from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q tmux >&2 || { apt-get update -q >&2 && apt-get install -y -q tmux >&2; }
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  log "installing Node.js and npm from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q nodejs npm >&2 || { apt-get update -q >&2 && apt-get install -y -q nodejs npm >&2; }
fi
if [[ "$(cat "$CLIENTS/node_modules/pg/package.json" 2>/dev/null | grep -o '"version": *"[^"]*"' | grep -o '[0-9.]*')" != "$NODE_PG_VERSION" ]]; then
  log "installing node-postgres (pg $NODE_PG_VERSION) from npm into $CLIENTS"
  mkdir -p "$CLIENTS"
  npm install --prefix "$CLIENTS" --no-audit --no-fund --silent "pg@$NODE_PG_VERSION" >&2
fi
if ! command -v chromium >/dev/null; then
  log "installing chromium from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q chromium >&2 || { apt-get update -q >&2 && apt-get install -y -q chromium >&2; }
fi
if [[ "$(cat "$CLIENTS/node_modules/playwright-core/package.json" 2>/dev/null | grep -o '"version": *"[^"]*"' | grep -o '[0-9.]*')" != "$PLAYWRIGHT_CORE_VERSION" ]]; then
  log "installing playwright-core $PLAYWRIGHT_CORE_VERSION from npm into $CLIENTS"
  mkdir -p "$CLIENTS"
  npm install --prefix "$CLIENTS" --no-audit --no-fund --silent "playwright-core@$PLAYWRIGHT_CORE_VERSION" >&2
fi
log "psycopg $(/usr/bin/python3 -c 'import psycopg; print(psycopg.__version__)'), node-postgres $NODE_PG_VERSION, playwright-core $PLAYWRIGHT_CORE_VERSION, $(chromium --version 2>/dev/null || echo "no chromium")"
