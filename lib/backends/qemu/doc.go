// Package qemu is the QEMU microVM backend: each machine is a
// `-machine microvm` guest booting Debian's cloud kernel directly (PVH, no
// firmware; the bzImage is decompressed to a vmlinux by package boot) with
// an initramfs whose /init is the shellbox guest program (package guest),
// carrying the virtio modules the kernel needs.
//
// Images (RegistryImage pulled with containers/image, DockerfileSource
// built by the local Docker daemon through its Engine API, DockerImage
// exported from the daemon, PreparedImage, or a staged QemuBundle) become ext4 disks staged once per manifest digest and
// size (mkfs.ext4 -d), attached copy-on-write so machines never change
// them. The host talks to the agent with lib/execd's protocol over one
// virtio-serial port, one yamux stream per operation in flight
// (guest/channel); a stream whose operation ended cleanly is kept for the
// next one (execd.Client), so successive commands open none.
//
// The first create of a configuration boots a template and saves its
// state by migration to a file; every create then restores that state
// (-incoming, cont) on a fresh overlay of the template's qcow2 disk, and
// the first request on the channel gives the guest its clock, entropy and
// working directory. The template's RAM is a file the restored machines
// map copy-on-write (x-ignore-shared: the saved stream is device state
// only), so idle restored machines share their unchanged pages. The cache
// is bounded (cache_max_mb): least recently used disks, states and layouts
// are evicted, never one a machine holds (cache.go). Inside the guest, the
// agent is exempt from the OOM killer and commands run in a
// memory-bounded cgroup (package guest). Acceleration AUTO uses KVM only
// after a bounded probe boot proved it works (cached per kernel and host
// boot), TCG otherwise.
package qemu
