//go:build linux

package cgroup

import "syscall"

// intoCgroup makes the child start in the group open as fd (clone3 with
// CLONE_INTO_CGROUP, Linux 5.7).
func intoCgroup(sp *syscall.SysProcAttr, fd int) error {
	sp.UseCgroupFD = true
	sp.CgroupFD = fd
	return nil
}
