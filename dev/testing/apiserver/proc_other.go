//go:build !linux

package apiserver

import "syscall"

// sysProcAttr: only Linux can kill a child when its parent dies; elsewhere Stop must run.
func sysProcAttr() *syscall.SysProcAttr { return nil }
