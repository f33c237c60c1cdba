#!/usr/bin/env bash
# Prints the path of a CPython 3.13 interpreter in a virtual environment with
# pytest, for ShellSim's Python differential corpus (lib/shellsim/python,
# TestCorpusLive). The venv lives outside the repository and is reused while
# its interpreter and pytest pin are unchanged.
set -euo pipefail

# The corpus goldens were recorded with this pytest; ShellSim's pytest
# reports the same version (lib/shellsim/python/tools.go).
PYTEST_PIN=pytest==8.3.4
venv=${SHELLBOX_CPYTHON313_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/shellbox/cpython313-venv}

is_313() { "$1" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 13))' 2>/dev/null; }

base=""
candidates=(python3.13 /opt/python3.13/bin/python3.13)
for v in $(ls -d /root/.pyenv/versions/3.13.* "$HOME"/.pyenv/versions/3.13.* 2>/dev/null | sort -rV); do
  candidates+=("$v/bin/python3")
done
for c in "${candidates[@]}"; do
  p=$(command -v "$c" 2>/dev/null || true)
  # A pyenv shim on PATH fails when no 3.13 is selected; is_313 runs it to be sure.
  if [ -n "$p" ] && is_313 "$p"; then
    base=$("$p" -c 'import sys; print(sys.executable)')
    break
  fi
done
if [ -z "$base" ]; then
  echo "no CPython 3.13 found (PATH python3.13, /opt/python3.13, ~/.pyenv/versions/3.13.*); .ci/python312.sh builds one into /opt/python3.13" >&2
  exit 1
fi

stamp="$venv/.shellbox-stamp"
want="$base $PYTEST_PIN"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "creating $venv from $base with $PYTEST_PIN" >&2
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  "$base" -m venv "$venv" >&2
  "$venv/bin/python" -m pip install -q --disable-pip-version-check "$PYTEST_PIN" >&2
  echo "$want" > "$stamp"
fi
is_313 "$venv/bin/python" || { echo "$venv/bin/python is not CPython 3.13" >&2; exit 1; }
echo "$venv/bin/python"
