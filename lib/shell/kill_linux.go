package shell

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// killSession sends SIGKILL to every process of session sid: the
// shell's jobs each have their own process group, so killing the shell's
// group alone would leave them running.
func killSession(sid int) {
	_ = syscall.Kill(-sid, syscall.SIGKILL)
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// Fields after the command name (which may hold spaces): state ppid pgrp session.
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 4 {
			continue
		}
		if sess, err := strconv.Atoi(f[3]); err == nil && sess == sid {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
