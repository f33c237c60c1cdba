#!/usr/bin/env bash
# Prints the path of a Python >= 3.12 (Harbor needs it), building CPython 3.13
# from Debian trixie's source package into /opt/python3.13 only when the
# machine has none.
set -euo pipefail

is_new_enough() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; }

candidates=(/opt/python3.13/bin/python3.13 python3.13 python3.12)
for v in $(ls -d /root/.pyenv/versions/3.1[2-9]* 2>/dev/null | sort -rV); do candidates+=("$v/bin/python3"); done
for c in "${candidates[@]}"; do
  p=$(command -v "$c" 2>/dev/null || true)
  if [ -n "$p" ] && is_new_enough "$p"; then echo "$p"; exit 0; fi
done

echo "no Python >= 3.12 found: building CPython 3.13 from Debian's source package" >&2
export DEBIAN_FRONTEND=noninteractive
if ! grep -rqs 'deb-src .* trixie' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo 'deb-src http://deb.debian.org/debian trixie main' > /etc/apt/sources.list.d/trixie-src.list
fi
apt-get update -qq >&2
apt-get install -y -qq build-essential dpkg-dev libssl-dev zlib1g-dev libbz2-dev libreadline-dev \
  libsqlite3-dev libffi-dev liblzma-dev uuid-dev libgdbm-dev libncurses-dev >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get source --download-only python3.13 >&2)
tarball=$(ls "$work"/python3.13_*.orig.tar.* | head -n1)
tar -C "$work" -xf "$tarball"
src=$(find "$work" -maxdepth 1 -type d -name 'Python-3.13*' | head -n1)
(cd "$src" && ./configure --prefix=/opt/python3.13 --with-ensurepip=install >&2 && make -j"$(nproc)" >&2 && make install >&2)
echo /opt/python3.13/bin/python3.13
