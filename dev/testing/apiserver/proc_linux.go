package apiserver

import "syscall"

// sysProcAttr makes the kernel kill a server process when the test binary dies without
// stopping it (a test timeout's panic, a signal).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
