// Package proctools holds ShellSim's process and machine utilities that
// scripts call around their real work: pgrep, pkill, killall, nohup, nice,
// flock, usleep, sync, arch, logname, groups, getconf, and simulated views
// for netstat, ss and lsof (the simulation has no sockets, so they list
// none).
package proctools
