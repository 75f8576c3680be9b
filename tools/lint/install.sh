#!/bin/sh
# install.sh — installs the pinned OpenAPI linter (tools/lint/package.json,
# package-lock.json) into build/lint with `npm ci`, once per lock file:
# a stamp holding the lock's checksum says it is current.
set -eu
cd "$(dirname "$0")/../.."
dest=build/lint
sum=$(sha256sum tools/lint/package-lock.json | cut -d' ' -f1)
[ -x "$dest/node_modules/.bin/redocly" ] && [ "$(cat "$dest/.stamp" 2>/dev/null)" = "$sum" ] && exit 0
command -v npm >/dev/null || { echo "lint: npm is missing (scripts/deps.sh installs it)" >&2; exit 1; }
mkdir -p "$dest"
cp tools/lint/package.json tools/lint/package-lock.json "$dest/"
(cd "$dest" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null)
echo "$sum" > "$dest/.stamp"
