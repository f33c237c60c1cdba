// Package qemu is the QEMU microVM backend: each machine is a
// `-machine microvm` guest booting Debian's cloud kernel directly (PVH, no
// firmware) with an initramfs whose /init is the shellbox guest agent
// (package guest). The image is a staged ext4 disk attached with
// snapshot=on, so machines never change it; the host talks to the agent
// with lib/execd's protocol over one virtio-serial port (streams
// multiplexed by guest/channel).
package qemu
