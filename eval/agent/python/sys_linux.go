//go:build linux

package python

import "syscall"

// The session gets a process group of its own, so that a kill reaches
// every process it started, and dies if paperlens does.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}
