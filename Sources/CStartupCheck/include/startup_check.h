#ifndef FILMSTRIP_STARTUP_CHECK_H
#define FILMSTRIP_STARTUP_CHECK_H

/// Bytes of address space the limit (`ulimit -v`, RLIMIT_AS) left when the process started,
/// after the executable and its libraries were loaded; -1 without a limit. The check itself
/// runs before main (see startup_check.c).
long long filmstrip_address_space_left_at_start(void);

#endif
