/*
 * Guards for a regular file opened for writing.  A block device is opened
 * with O_EXCL and the kernel refuses it while mounted or held; a regular
 * file has no such rule, so the block backend asks these before its first
 * write and holds the file for the run.  Every function returns 0 or
 * -errno and never prints; where a refusal needs words, they go to why.
 */
#ifndef HDDSCOPE_FILEGUARD_H
#define HDDSCOPE_FILEGUARD_H

#include <stddef.h>
#include <sys/stat.h>

/*
 * Refuse a file that backs a loop device (-EBUSY, why "backs /dev/loopN"),
 * is an active swap file (-EBUSY, "in use as swap") or is open for writing
 * by another process (-EBUSY, "open for writing by another process").
 * st is the file's stat.  Other errors (-EINVAL, -EACCES, ...) mean the
 * check could not be made; why says which.
 */
int hd_guard_check(const char *path, const struct stat *st, char *why, size_t len);

/*
 * Hold fd, the run's read-write descriptor, for the run: an exclusive
 * flock (-EWOULDBLOCK when another process holds a lock) and a write
 * lease, which the kernel grants only while no other process has the
 * file open (-EBUSY, "open by another process").  While the lease is held,
 * another process's open waits and a SIGIO arrives: a reader is let in
 * (the lease is given up, the run goes on), a writer stops the run as an
 * interruption (hd_interrupted = SIGIO) and waits until the file is closed.
 */
int hd_guard_hold(int fd, char *why, size_t len);

/* Give up the lease of hd_guard_hold() before fd is closed (the lock goes with it). */
void hd_guard_release(int fd);

#endif
