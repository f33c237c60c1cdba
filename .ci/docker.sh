#!/usr/bin/env bash
# Provisions the Docker daemon that the docker and gvisor backends test
# against: installs docker.io, runsc, busybox-static and docker-registry (for
# the registry pull tests) from Debian when missing, registers runsc as a runtime, starts dockerd in the background and
# waits for its socket. Does nothing when a daemon already answers.
#
# Environment: DOCKER_HOST (default unix:///var/run/docker.sock),
# SHELLBOX_DOCKERD_LOG (default /var/log/shellbox-dockerd.log).
set -euo pipefail

host=${DOCKER_HOST:-unix:///var/run/docker.sock}
sock=${host#unix://}
log=${SHELLBOX_DOCKERD_LOG:-/var/log/shellbox-dockerd.log}

answers() {
	[ -S "$sock" ] && curl -fsS --max-time 5 --unix-socket "$sock" http://localhost/_ping >/dev/null 2>&1
}

# The CNCF distribution registry that the RegistryImage pull tests run on
# loopback (each test starts and stops its own; none runs as a service).
if [ ! -x /usr/bin/docker-registry ] && [ "$(id -u)" = 0 ]; then
	echo "docker.sh: installing docker-registry"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends docker-registry >/dev/null
fi

if answers; then
	echo "docker.sh: a Docker daemon already answers at $sock"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "docker.sh: no daemon at $sock and not root: cannot start one" >&2
	exit 1
fi

need=()
command -v dockerd >/dev/null || need+=(docker.io)
[ -x /usr/bin/runsc ] || need+=(runsc)
dpkg-query -W -f='${Status}' busybox-static 2>/dev/null | grep -q "ok installed" || need+=(busybox-static)
command -v curl >/dev/null || need+=(curl)
if [ ${#need[@]} -gt 0 ]; then
	echo "docker.sh: installing ${need[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# runsc releases before mid-2024 take the presence of
# /proc/sys/net/core/rmem_default as proof of running in the root network
# namespace (gVisor issue 10704); kernels >= 6.x show that file in every
# namespace, so such a runsc refuses to start any container. The wrapper runs
# it in a private mount namespace where /proc/sys/net is hidden.
runsc_path=/usr/bin/runsc
runsc_date=$(/usr/bin/runsc --version 2>/dev/null | sed -n 's/^runsc version [^0-9]*\([0-9.~]*\)\([0-9]\{8\}\).*/\2/p' | head -1)
if [ -n "$runsc_date" ] && [ "$runsc_date" -lt 20240801 ] &&
	unshare --net test -e /proc/sys/net/core/rmem_default 2>/dev/null; then
	runsc_path=/usr/local/libexec/shellbox/runsc
	mkdir -p "$(dirname "$runsc_path")"
	cat >"$runsc_path" <<'EOF'
#!/bin/sh
# Runs Debian's runsc with /proc/sys/net hidden (gVisor issue 10704).
exec unshare --mount --propagation private sh -c 'mount -t tmpfs -o ro,size=4k shellbox-netns-fix /proc/sys/net && exec /usr/bin/runsc "$@"' runsc "$@"
EOF
	chmod 755 "$runsc_path"
	echo "docker.sh: runsc $runsc_date predates the fix for gVisor issue 10704: registering $runsc_path"
fi

# overlay2 when the kernel can mount overlayfs here, vfs otherwise.
driver=vfs
probe=$(mktemp -d)
mkdir -p "$probe"/{l,u,w,m}
if mount -t overlay overlay -o "lowerdir=$probe/l,upperdir=$probe/u,workdir=$probe/w" "$probe/m" 2>/dev/null; then
	umount "$probe/m"
	driver=overlay2
fi
rm -rf "$probe"

# Bridge networking (NetworkAllow) needs iptables; without it the bridge
# still exists but dockerd must not try to program NAT rules.
iptables=true
iptables -t nat -L -n >/dev/null 2>&1 || iptables=false

mkdir -p /etc/docker
python3 - "$runsc_path" "$driver" "$iptables" <<'EOF'
import json, os, sys
path, driver, iptables = sys.argv[1], sys.argv[2], sys.argv[3] == "true"
conf_path = "/etc/docker/daemon.json"
conf = {}
if os.path.exists(conf_path):
    with open(conf_path) as f:
        text = f.read().strip()
    conf = json.loads(text) if text else {}
conf.setdefault("runtimes", {})["runsc"] = {"path": path, "runtimeArgs": ["--platform=ptrace"]}
conf.setdefault("storage-driver", driver)
if not iptables:
    conf["iptables"] = False
with open(conf_path, "w") as f:
    json.dump(conf, f, indent=2)
    f.write("\n")
EOF
echo "docker.sh: /etc/docker/daemon.json: $(tr -d '\n ' </etc/docker/daemon.json)"

mkdir -p "$(dirname "$log")"
# A daemon that is still shutting down holds the pid file: wait for it. A
# stale pid file from a killed daemon makes dockerd refuse to start.
if [ -f /var/run/docker.pid ]; then
	old=$(cat /var/run/docker.pid)
	for _ in $(seq 1 120); do
		kill -0 "$old" 2>/dev/null || break
		sleep 0.5
	done
	if kill -0 "$old" 2>/dev/null; then
		echo "docker.sh: dockerd (pid $old) runs but does not answer at $sock" >&2
		exit 1
	fi
	rm -f /var/run/docker.pid
fi
setsid dockerd --host "unix://$sock" >>"$log" 2>&1 </dev/null &
for _ in $(seq 1 120); do
	if answers; then
		echo "docker.sh: dockerd answers at $sock (storage $driver, iptables $iptables, log $log)"
		exit 0
	fi
	sleep 0.5
done
echo "docker.sh: dockerd did not answer at $sock within 60 s; last log lines:" >&2
tail -n 30 "$log" >&2 || true
exit 1
