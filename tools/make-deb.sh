#!/bin/sh
# make-deb.sh OUT_DIR — builds the Debian package from this tree with
# `dpkg-buildpackage -us -uc -b` (unsigned, binary only; -Jauto) and moves what it
# writes into the parent directory (parapet_VERSION_ARCH.deb, the debug
# symbols package, .buildinfo, .changes) into OUT_DIR.
set -eu
cd "$(dirname "$0")/.."
out=$1
version=$(dpkg-parsechangelog -S Version)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
dpkg-buildpackage -us -uc -b -Jauto # -J: compiles as many at a time as there are cores
mkdir -p "$out"
for f in "parapet_${version}_${arch}.deb" "parapet-dbgsym_${version}_${arch}.deb" \
         "parapet_${version}_${arch}.buildinfo" "parapet_${version}_${arch}.changes"; do
  [ -e "../$f" ] && mv -f "../$f" "$out/"
done
ls "$out/parapet_${version}_${arch}.deb"
