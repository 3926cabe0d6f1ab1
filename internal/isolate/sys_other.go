//go:build !linux

package isolate

import "syscall"

func sysProcAttr() *syscall.SysProcAttr { return nil }
