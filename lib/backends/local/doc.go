// Package local is the "local" backend: each machine is one persistent
// bubblewrap sandbox on this host, running shellbox-sandboxd (package
// execd), which executes every command of the machine so that files,
// background processes and the working directory persist until Close.
//
// A HostImage machine sees the host's program directories (/usr, /bin,
// /sbin, /lib*) read-only (as symbolic links where the host has merged-/usr
// links), the factory's and the source's read-only and bin directories,
// and a private writable root made from a per-machine host directory: its
// workdir, /tmp, /opt and /home/shellbox. Its /etc is its own (a 16 MiB
// tmpfs) and holds copies of only the runtime configuration programs need
// (etc.go: account databases without password fields, name resolution, the
// loader cache, the time zone, shell defaults; alternatives and public CA
// certificates bound read-only), never shadow, environment, sudoers or
// keys. A PreparedImage
// machine sees an OCI image unpacked once into a cache keyed by manifest
// digest: the image's system directories (usr, bin, sbin, lib*, etc, opt,
// var, boot) are bound read-only and its other top-level entries (root,
// home, srv, the workdir, ...) are copied into the machine's writable root,
// with /tmp, /var/tmp and /run writable. Bubblewrap 0.8 has no overlay
// mounts, so the image's system directories cannot be written.
//
// The sandbox has its own PID, IPC, UTS and cgroup namespaces, no network
// but loopback unless the spec allows it, and a user namespace unless the
// host process is root (then commands may run as other users). Commands
// run without capabilities and with no_new_privs. Every host-global knob
// under /proc (sys, sysrq-trigger, fs, kcore, keys...) is read-only or
// hidden, /sys is an empty read-only tmpfs, and the helper is the
// sandbox's PID 1, so no process inside carries a host path in its command
// line (/proc/self/mountinfo still names the machine directory as the
// source of the root bind: the kernel shows a bind's path within its file
// system, and nothing inside can act on a host path).
//
// Commands run with RLIMIT_FSIZE 1 GiB (uploads too) and RLIMIT_CORE 0,
// and, without root, RLIMIT_NPROC = the user's host tasks + 256. Where a
// pids cgroup can be made (cgroup v2, or the v1 pids hierarchy), each
// machine has one with pids.max (Options.PidsLimit, 1024 by default); a
// command whose background jobs run the machine out of processes (a fork
// bomb) is held until its timeout and then stopped, timed out.
//
// With Options.SystemDirectories "copy_on_write", a HostImage machine's
// real system directories are overlays instead: the launcher mounts one
// per directory (lower: the host's, upper and work: the machine directory)
// in a mount namespace of its own before it forks bubblewrap, which has no
// overlay mounts of its own in 0.8; the mounts live only as long as that
// namespace, and the host's mounts inside those directories are bound
// again read-only. As root these are the kernel's overlays; without root
// the namespace is in a user namespace of its own and the overlays are
// fuse-overlayfs servers that end with it (the kernel's overlayfs there
// cannot write below a directory the host's root owns). With Options.CgroupParent (a
// cgroup v2 directory with cpu, memory and pids delegated, or a path in a
// v1 hierarchy, used at the same relative path in the cpu, cpuacct and
// memory hierarchies), each machine gets cgroups there that enforce
// Spec.CPUs (CFS quota) and Spec.MemoryMB (swap off), report each
// command's CPU time and peak memory (Result.Usage), and are killed and
// removed on Close. Options.TTL closes a machine that lives too long; its
// operations then fail as terminated. Single-file transfers to and from
// the machine's private root go straight through the host's file system
// (direct_linux.go: openat2 beneath the root, no symbolic link followed).
//
// Bubblewrap is started by the helper binary's launcher mode (package
// launcher): it passes on only the sandbox's descriptors, puts bubblewrap
// into the machine's cgroup, reaps every orphan as a child subreaper and
// ends the sandbox when the owner's lifeline breaks. Each machine
// directory is flock()ed by its owner and launcher; a factory start removes
// those whose lock is free (owners killed by SIGKILL or gone by os._exit).
package local
