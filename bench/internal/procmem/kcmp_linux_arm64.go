package procmem

// sysKcmp is kcmp(2)'s number.
const sysKcmp = 272
