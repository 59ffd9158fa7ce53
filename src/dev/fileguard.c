/*
 * Guards for a regular file written by a probe.  Writes are data-preserving
 * only while nobody else writes the file: a block read, then written back
 * after another writer changed it, reverts that writer.  So a file that
 * backs a loop device, is active swap, or is open for writing elsewhere is
 * refused, and the file is held for the run.
 *
 * Why the checks are sound, and what they cannot see:
 *  - Loop devices and swap are matched by device and inode, never by name:
 *    the names the kernel shows go stale when a file is renamed or a link
 *    removed.  LOOP_GET_STATUS64 gives the inode even where the name is
 *    gone.
 *  - Writers: the kernel grants a read lease (F_SETLEASE, F_RDLCK) on a
 *    read-only descriptor only while no descriptor of the file is open for
 *    writing, by anyone; a mapping made writable keeps such a descriptor.
 *    It does not see a writer that opens the file later.
 *  - For the run the file is held with flock(LOCK_EX), which stops anyone
 *    who locks before writing, and with a write lease, which the kernel
 *    grants only while nobody else has the file open at all: from then on
 *    another process's open waits (up to /proc/sys/fs/lease-break-time)
 *    and we are told with SIGIO.  A reader is let in at once (reading
 *    cannot lose data; from then on later openers go unseen); a writer
 *    stops the run after the access in flight, which writes back the bytes
 *    it read, and the writer's open completes only when the file is
 *    closed.  Writes through a descriptor opened before the run, or
 *    through a mapping, are refused up front by the read-lease check.
 *  - Leases need the caller to own the file (or CAP_LEASE) and a file
 *    system that grants them; where one cannot be had nothing can be
 *    promised, and the file is refused.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "hddscope/fileguard.h"
#include "hddscope/msg.h"

static int same_file(const char *name, const struct stat *st)
{
	struct stat s;

	return stat(name, &s) == 0 && s.st_dev == st->st_dev && s.st_ino == st->st_ino;
}

/* One loop device's backing file, by its sysfs name and, failing that, by the device's own word. */
static int loop_backs(const char *loop, const struct stat *st)
{
	char path[320], name[4096];
	struct loop_info64 li;
	FILE *f;
	int fd, hit = 0;

	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", loop);
	f = fopen(path, "re");
	if (!f)
		return 0;	/* not bound to a file */
	if (fgets(name, sizeof(name), f)) {
		name[strcspn(name, "\n")] = '\0';
		hit = same_file(name, st);
	}
	fclose(f);
	if (hit)
		return 1;
	snprintf(path, sizeof(path), "/dev/%s", loop);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	if (ioctl(fd, LOOP_GET_STATUS64, &li) == 0)
		hit = li.lo_device == (uint64_t)st->st_dev && li.lo_inode == (uint64_t)st->st_ino;
	close(fd);
	return hit;
}

static int check_loops(const struct stat *st, char *why, size_t len)
{
	DIR *dir = opendir("/sys/block");
	struct dirent *e;
	int rc = 0;

	if (!dir)
		return 0;	/* no sysfs: no loop device can be known either */
	while (rc == 0 && (e = readdir(dir))) {
		if (strncmp(e->d_name, "loop", 4) != 0 || !loop_backs(e->d_name, st))
			continue;
		snprintf(why, len, "backs /dev/%s", e->d_name);
		rc = -EBUSY;
	}
	closedir(dir);
	return rc;
}

/* /proc/swaps escapes blanks and backslashes in names as \ooo. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' &&
		    s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

static int check_swaps(const struct stat *st, char *why, size_t len)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[4096 + 128];
	int rc = 0;

	if (!f)
		return 0;	/* no /proc/swaps: no swap is active */
	while (rc == 0 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, " \t\n")] = '\0';
		unescape(line);
		if (line[0] == '/' && same_file(line, st)) {
			snprintf(why, len, "in use as swap");
			rc = -EBUSY;
		}
	}
	fclose(f);
	return rc;
}

/* The read lease is granted only while no descriptor of the file is open for writing. */
static int check_writers(const char *path, const struct stat *st, char *why, size_t len)
{
	struct stat s;
	int fd, rc = 0;

	/* O_NONBLOCK: against someone's lease, fail at once rather than wait for its break. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		snprintf(why, len, "%s", rc == -EWOULDBLOCK ? "held under a lease by another process"
							     : "cannot open it to check for other writers");
		return rc == -EWOULDBLOCK ? -EBUSY : rc;
	}
	if (fstat(fd, &s) < 0 || s.st_dev != st->st_dev || s.st_ino != st->st_ino) {
		snprintf(why, len, "replaced while being checked");
		close(fd);
		return -EBUSY;
	}
	if (fcntl(fd, F_SETLEASE, F_RDLCK) < 0) {
		rc = -errno;
		if (rc == -EAGAIN) {
			snprintf(why, len, "open for writing by another process");
			rc = -EBUSY;
		} else {
			snprintf(why, len, "cannot tell whether another process writes it (F_SETLEASE: %s)",
				 strerror(-rc));
		}
	} else {
		fcntl(fd, F_SETLEASE, F_UNLCK);
	}
	close(fd);
	return rc;
}

int hd_guard_check(const char *path, const struct stat *st, char *why, size_t len)
{
	int rc = check_loops(st, why, len);

	if (rc == 0)
		rc = check_swaps(st, why, len);
	if (rc == 0)
		rc = check_writers(path, st, why, len);
	return rc;
}

/* The descriptor holding the write lease, for the SIGIO handler; -1 when none. */
static volatile sig_atomic_t lease_fd = -1;
static struct sigaction old_sigio;

/*
 * A lease break: another process is opening the file.  F_GETLEASE says
 * what it wants: F_RDLCK a reader, let in now; F_UNLCK a writer, which
 * waits while the run stops after the access in flight.  fcntl() is
 * async-signal-safe.
 */
static void on_lease_break(int sig)
{
	int e = errno, fd = lease_fd, l;

	if (fd >= 0) {
		l = fcntl(fd, F_GETLEASE);
		if (l == F_RDLCK) {
			fcntl(fd, F_SETLEASE, F_UNLCK);
			lease_fd = -1;
		} else if (l == F_UNLCK && !hd_interrupted) {
			hd_interrupted = sig;
		}
	}
	errno = e;
}

int hd_guard_hold(int fd, char *why, size_t len)
{
	struct sigaction sa;
	int rc;

	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		rc = -errno;
		snprintf(why, len, "%s", rc == -EWOULDBLOCK ? "locked by another process" : "cannot lock it");
		return rc;
	}
	if (lease_fd >= 0) {
		snprintf(why, len, "another file of this run is held");
		return -EBUSY;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_lease_break;
	sigemptyset(&sa.sa_mask);
	/* SA_RESTART: a lease break is not a stop by itself; only a writer's interrupts the run. */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGIO, &sa, &old_sigio);
	lease_fd = fd;
	if (fcntl(fd, F_SETLEASE, F_WRLCK) < 0) {
		rc = -errno;
		lease_fd = -1;
		sigaction(SIGIO, &old_sigio, NULL);
		if (rc == -EAGAIN) {
			snprintf(why, len, "open by another process");
			return -EBUSY;
		}
		snprintf(why, len, "cannot hold it against other writers (F_SETLEASE: %s)", strerror(-rc));
		return rc;
	}
	return 0;
}

void hd_guard_release(int fd)
{
	/* The handler may have let the lease go already; F_UNLCK then changes nothing. */
	fcntl(fd, F_SETLEASE, F_UNLCK);
	lease_fd = -1;
	sigaction(SIGIO, &old_sigio, NULL);
}
