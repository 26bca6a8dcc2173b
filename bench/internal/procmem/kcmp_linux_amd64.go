package procmem

// sysKcmp is kcmp(2)'s number, which package syscall lacks on amd64.
const sysKcmp = 312
