// Package local is the "local" backend: each machine is one persistent
// bubblewrap sandbox on this host, running shellbox-sandboxd (package
// execd), which executes every command of the machine so that files,
// background processes and the working directory persist until Close.
//
// A HostImage machine sees the host's system directories read-only (as
// symbolic links where the host has merged-/usr links), the factory's and
// the source's read-only and bin directories, and a private writable root
// made from a per-machine host directory: its workdir, /tmp and
// /home/shellbox. A PreparedImage machine sees an OCI image unpacked once
// into a cache keyed by manifest digest: the image's system directories
// (usr, bin, sbin, lib*, etc, opt, var, boot) are bound read-only and its
// other top-level entries (root, home, srv, the workdir, ...) are copied
// into the machine's writable root, with /tmp, /var/tmp and /run writable.
// Bubblewrap 0.8 has no overlay mounts, so the image's system directories
// cannot be written.
//
// The sandbox has its own PID, IPC, UTS and cgroup namespaces, no network
// but loopback unless the spec allows it, and a user namespace unless the
// host process is root (then commands may run as other users). Commands
// run without capabilities and with no_new_privs.
package local
