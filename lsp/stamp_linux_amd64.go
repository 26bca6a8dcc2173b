package lsp

import "syscall"

// sysFstatat is fstatat(2)'s number (see statStampZ).
const sysFstatat = syscall.SYS_NEWFSTATAT
