# shellbox: `make test` runs every test; `make wheel` builds the wheel.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
GO     ?= go
GOTESTFLAGS ?= -count=1 -timeout 30m
# containers/image's pure-Go OpenPGP signature verifier instead of GPGME
# (cgo); without it registry pulls refuse to run (lib/oci's package doc).
# setup.py builds with the same tag.
GOTAGS := containers_image_openpgp
# ShellSim's commands are also checked against the host's GNU tools
# (random inputs with fixed seeds); .ci/run installs those tools.
HOSTCHECKS := ARCHIVE_HOST=1 DIFF_RANDOM=1 PATCH_RANDOM=1 DIGEST_RANDOM=1 BC_RANDOM=1

.PHONY: all native venv test gotest pytest wheel bench clean kernel

all: native

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q --upgrade "pytest>=8" "pytest-asyncio>=0.23" "setuptools>=75" wheel uv

venv: $(PY)

# The Go library and helpers, built into python/shellbox for in-tree use.
native: $(PY)
	$(PY) setup.py -q build_go

test: gotest pytest

gotest:
	$(HOSTCHECKS) $(GO) test -tags $(GOTAGS) $(GOTESTFLAGS) ./...

# The run gets a temporary directory of its own, so the leak checks (tests/leaks.py)
# count only what this run made, not what a go test or another checkout beside it makes.
pytest: native
	tmp=$$(mktemp -d /tmp/pytest-run-XXXXXX) && chmod 1777 "$$tmp" && \
	TMPDIR=$$tmp PYTHONPATH=python $(PY) -m pytest -q -ra tests; \
	rc=$$?; rm -rf --one-file-system "$$tmp"; exit $$rc

wheel: $(PY)
	$(PY) -m pip wheel --no-deps -w dist .

bench: native
	PYTHONPATH=python $(PY) bench/local.py

# The QEMU guest kernel: Debian's linux-source-6.1 with
# lib/backends/qemu/kernel/shellbox.config, cached; prints the vmlinux's path
# (export SHELLBOX_QEMU_KERNEL=$(.ci/kernel.sh) to use and package it).
kernel:
	.ci/kernel.sh

clean:
	rm -rf build dist python/shellbox/_lib python/shellbox/_bin python/shellbox/_kernel
