package isolate

import "syscall"

// sysProcAttr makes a worker die with the process that started it, even
// when that one is killed with SIGKILL and cannot close the pool: a worker
// stuck in a hostile document would never read the end of its pipe.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
