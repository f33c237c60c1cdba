#!/usr/bin/env bash
# Builds the shellbox guest kernel from Debian's linux-source-6.1 with the
# options of lib/backends/qemu/kernel/shellbox.config on top of allnoconfig
# (every driver the guest needs built in, no modules) and prints the path of
# its vmlinux. The result is cached under
# ${XDG_CACHE_HOME:-~/.cache}/shellbox/kernel/<source version>-<config hash>,
# so a second run only prints the path. Build output goes to stderr.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
fragment=$root/lib/backends/qemu/kernel/shellbox.config
package=linux-source-6.1
tools=(flex bison bc make gcc xz)

missing=()
dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'ok installed' || missing+=("$package")
for t in "${tools[@]}"; do command -v "$t" >/dev/null || missing+=("$t"); done
[ -e /usr/include/gelf.h ] || missing+=(libelf-dev) # objtool (the ORC unwinder's tables)
if [ ${#missing[@]} -gt 0 ]; then
  echo "kernel.sh: installing ${missing[*]}" >&2
  pkgs=("$package" flex bison bc make gcc xz-utils libelf-dev)
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >&2
fi

version=$(dpkg-query -W -f='${Version}' "$package")
# The key covers the source, the options and this script's build steps.
hash=$(cat "$fragment" "$0" | sha256sum | cut -c1-16)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/shellbox/kernel
out=$cache/$version-$hash
if [ -f "$out/vmlinux" ]; then
  echo "$out/vmlinux"
  exit 0
fi
mkdir -p "$cache"
# One build per key at a time; a second caller waits and reuses it.
exec 9>"$out.lock"
flock 9
if [ -f "$out/vmlinux" ]; then
  echo "$out/vmlinux"
  exit 0
fi

work=$(mktemp -d "$cache/.build-XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
tarball=/usr/src/$package.tar.xz
echo "kernel.sh: unpacking $tarball ($version)" >&2
nice -n 10 tar -C "$work" -xf "$tarball"
src=$work/$package
# Reproducible: the same source and options give the same image (and so
# the same boot-asset and saved-state cache keys on every machine).
export KBUILD_BUILD_TIMESTAMP='1970-01-01' KBUILD_BUILD_USER=shellbox KBUILD_BUILD_HOST=shellbox KBUILD_BUILD_VERSION=1
make -s -C "$src" O="$work/out" KCONFIG_ALLCONFIG="$fragment" allnoconfig >&2
# Kconfig drops an option whose dependencies are unmet without a word:
# every line of the fragment must have survived.
bad=0
while IFS= read -r line; do
  case $line in
    CONFIG_*=*) grep -qxF "$line" "$work/out/.config" || { echo "kernel.sh: $line did not take effect" >&2; bad=1; } ;;
    '# CONFIG_'*' is not set')
      opt=${line#'# '}; opt=${opt%% *}
      if grep -q "^$opt=" "$work/out/.config"; then echo "kernel.sh: $opt is set, the fragment says not" >&2; bad=1; fi ;;
  esac
done <"$fragment"
[ $bad -eq 0 ] || exit 1
echo "kernel.sh: building vmlinux with $(nproc) jobs" >&2
nice -n 10 make -s -C "$src" O="$work/out" -j"$(nproc)" vmlinux >&2
mkdir "$work/result"
cp "$work/out/vmlinux" "$work/out/.config" "$work/result/"
mv "$work/result" "$out"
echo "kernel.sh: built in $(($(date +%s) - start)) s" >&2
echo "$out/vmlinux"
