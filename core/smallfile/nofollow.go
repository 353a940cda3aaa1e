package smallfile

import "syscall"

// oNoFollow refuses a last component that became a symbolic link after Resolve.
const oNoFollow = syscall.O_NOFOLLOW
