//go:build !linux

package cgroup

import (
	"errors"
	"syscall"
)

func intoCgroup(*syscall.SysProcAttr, int) error {
	return errors.New("cgroup: control groups are Linux's")
}
