#!/bin/sh
# deps.sh — installs the Debian 12 packages parapet needs to build, test and
# benchmark (--bench) or run tests/security/run (--security). Runs apt-get
# only when something is missing (as root, or via sudo).
set -eu
packages="build-essential pkg-config libmicrohttpd-dev libgnutls28-dev libjansson-dev libsimdjson-dev
libsqlite3-dev libidn2-dev libpcap-dev libcurl4-gnutls-dev clang curl knot knot-dnsutils gnutls-bin
iso-codes netbase geoip-database libgeoip-dev libmaxminddb-dev libmaxmind-db-writer-perl libmodsecurity-dev libpcre2-dev modsecurity-crs openssl slowhttptest sqlite3
nginx-light libnginx-mod-http-modsecurity bird2 fastnetmon"
# nginx-light: the Application Protection data plane (with ModSecurity and
# the CRS). The tests run their own nginx on their own prefix and loopback
# ports (20000 and up), never the system one the package may start.
# bird2, fastnetmon: the Origin Protection and CleanPipe data planes. Their
# packaged services are kept from starting (FastNetMon's stock configuration
# reports usage to its vendor every hour): parapet renders its own
# configuration, and the tests run their own daemons on loopback.
# libpq-dev: the PostgreSQL store (--store postgresql://...); postgresql-15:
# the test suite's second pass runs on a throwaway cluster (tests/pg/cluster.sh).
packages="$packages libpq-dev postgresql-15"
# nftables, libnftables-dev: the nftables scrubber data plane (checked and
# applied through libnftables; tests only inside network namespaces they
# make). pmacct: the flow collector (nfacctd/sfacctd); netsniff-ng (trafgen),
# hping3, softflowd: packets and flow export for tests/netns and `make demo`;
# ethtool: the test turns the veths' offloads off (counts of real packets).
packages="$packages nftables libnftables-dev pmacct netsniff-ng hping3 softflowd ethtool"
daemons="bird2:bird fastnetmon:fastnetmon postgresql-15:postgresql pmacct:nfacctd pmacct:sfacctd pmacct:pmacctd softflowd:softflowd"
# (not nftables.service: stopping it flushes the host's whole ruleset; Debian leaves it disabled)
# OpenAPI: python3-jsonschema for the contract test (tests/contract); Node and
# npm for the pinned linter (tools/lint) only when no node/npm is installed
# already (e.g. a NodeSource Node, which brings its own npm).
packages="$packages python3 python3-jsonschema"; command -v node >/dev/null && command -v npm >/dev/null || packages="$packages nodejs npm"
# the web console (issue 21): Chart.js served from /usr/share/javascript/chart.js;
# headless Chromium, its driver and Selenium for tests/console/run
packages="$packages libjs-chart.js chromium chromium-driver python3-selenium"
# the Debian package (issue 36): libsystemd-dev for sd_notify; debhelper and
# lintian build and check it (make deb, tests/package/run), systemd for
# systemd-analyze verify/security
packages="$packages libsystemd-dev debhelper lintian systemd adduser"
[ "${1:-}" = "--bench" ] && packages="$packages wrk time"
# tests/security/run: the TLS scan (its short version, in tests/check, needs
# only slowhttptest)
[ "${1:-}" = "--security" ] && packages="$packages testssl.sh"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing$missing" >&2
if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
guard=""
if [ ! -e /usr/sbin/policy-rc.d ]; then # no service starts during this install
  printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
  $sudo chmod 755 /usr/sbin/policy-rc.d
  guard=1
fi
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null || { [ -n "$guard" ] && $sudo rm -f /usr/sbin/policy-rc.d; exit 1; }
[ -n "$guard" ] && $sudo rm -f /usr/sbin/policy-rc.d
for d in $daemons; do
  case " $missing " in *" ${d%%:*} "*)
    if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
      $sudo systemctl disable --now "${d#*:}" >/dev/null 2>&1 || true
    fi ;;
  esac
done
