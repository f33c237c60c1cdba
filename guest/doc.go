// Package guest is the program that runs as /init inside a shellbox QEMU
// microVM: it mounts the kernel filesystems, loads the kernel modules the
// host put in the initramfs, switches into the image's root filesystem on
// the virtio block device and serves the host's commands over a
// virtio-serial port with lib/execd's protocol (streams multiplexed by
// package channel).
//
// The program is two processes. PID 1 prepares the machine, starts the
// agent (itself, re-executed with the argument "agent") and then only reaps
// orphans; the agent's own children are waited for by execd, which a
// wait-for-anything reaper in the same process would race with. When the
// agent ends (the host went away) PID 1 powers the machine off.
//
// PID 1 and the agent are exempt from the OOM killer; commands run in a
// cgroup whose memory.max leaves them a reserve, so a memory bomb is
// killed inside it and the machine keeps serving (memory_linux.go).
//
// Kernel command line parameters read by PID 1:
//
//	shellbox.root=/dev/vda   the image's ext4 root (absent: stay in the initramfs)
//	shellbox.time=<ms>       the host's wall clock, Unix milliseconds, at launch
//	                         (exact time, entropy and the working directory
//	                         come with the host's first request, channel.OpSync)
//	shellbox.port=<name>     the virtio-serial port's name (default "shellbox")
//	shellbox.net=user        configure the network card for QEMU's user-mode networking
package guest
