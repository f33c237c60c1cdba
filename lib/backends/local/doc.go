// Package local is the "local" backend: each machine is one persistent
// bubblewrap sandbox on this host, running shellbox-sandboxd, which executes
// every command of the machine so that files, background processes and the
// working directory persist until Close. The software comes from the host
// (HostImage) or from an OCI image layout unpacked into a cached root
// filesystem (PreparedImage).
package local
