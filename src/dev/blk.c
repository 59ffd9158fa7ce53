/*
 * Block device and regular file backend: pread/pwrite with O_DIRECT,
 * CLOCK_MONOTONIC.  Geometry comes from the kernel (BLKGETSIZE64,
 * BLKSSZGET, BLKPBSZGET, sysfs) for a block device and from stat() for a
 * file, which is reported as 512-byte logical and 4096-byte physical sectors.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "hddscope/dev.h"
#include "hddscope/fileguard.h"
#include "hddscope/identity.h"
#include "hddscope/msg.h"
#include "hddscope/sysfs.h"
#include "hddscope/util.h"

struct blk {
	int fd;
	int held;		/* a regular file held with hd_guard_hold() */
	int wc_changed;		/* cache_type was written: wc_saved goes back */
	char wc_path[512];	/* the disk's cache_type attribute */
	char wc_saved[64];	/* its value before the run */
	int sched_changed;	/* queue/scheduler was written: sched_saved goes back */
	char sched_path[512];	/* the disk's queue/scheduler attribute */
	char sched_saved[64];	/* the scheduler in effect before the run */
	char nrreq_saved[32];	/* queue/nr_requests before the run ("" when unreadable) */
};

/* The room for why an open for writing was refused: "backs /dev/loop3", ... */
#define REFUSAL_LEN 160

/* Refuse the open: *errcall "refused" tells hd_blk_open() to show the refusal. */
static int refuse(const char **errcall, int rc)
{
	*errcall = "refused";
	return rc;
}

static int blk_fd(struct hd_dev *d)
{
	return ((struct blk *)d->priv)->fd;
}

static int blk_read(struct hd_dev *d, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(blk_fd(d), buf, len, (off_t)off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

static int blk_write(struct hd_dev *d, const void *buf, size_t len, uint64_t off)
{
	ssize_t n = pwrite(blk_fd(d), buf, len, (off_t)off);

	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

/* One write with FUA (RWF_DSYNC on an O_DIRECT descriptor), whatever the descriptor's own mode. */
static int blk_write_fua(struct hd_dev *d, const void *buf, size_t len, uint64_t off)
{
#ifdef RWF_DSYNC
	struct iovec iov = { (void *)(uintptr_t)buf, len };
	ssize_t n = pwritev2(blk_fd(d), &iov, 1, (off_t)off, RWF_DSYNC);

	if (n < 0)
		return errno == EOPNOTSUPP || errno == ENOSYS ? -ENOTSUP : -errno;
	return (size_t)n == len ? 0 : -EIO;
#else
	(void)d, (void)buf, (void)len, (void)off;
	return -ENOTSUP;
#endif
}

static int64_t blk_now(struct hd_dev *d)
{
	(void)d;
	return hd_mono_ns();
}

/*
 * Idle gaps are part of what some probes measure (write-interval delay), so
 * they are timed to an absolute deadline: sleep until shortly before it,
 * then spin the last stretch, where a sleep's wake-up latency would show.
 */
#define BLK_SPIN_NS 200000

static void blk_idle(struct hd_dev *d, int64_t ns)
{
	int64_t deadline = hd_mono_ns() + ns, wake = deadline - BLK_SPIN_NS;

	(void)d;
	if (ns <= 0)
		return;
	if (ns > BLK_SPIN_NS) {
		struct timespec ts = { wake / 1000000000, wake % 1000000000 };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			if (hd_interrupted)
				return;
	}
	while (hd_mono_ns() < deadline)
		;
}

/* A regular file: nothing beyond the reason; a block device: sysfs, and the drive when asked. */
static void blk_identify(struct hd_dev *d, struct hd_identity *id, int ask_drive)
{
	if (d->kind == HD_DEV_FILE)
		snprintf(id->smart_reason, sizeof(id->smart_reason), "regular file");
	else
		hd_identity_of_disk(d->path, id, ask_drive);
}

static int cache_type_wants(const char *cur, int want)
{
	return (strstr(cur, "write back") != NULL) == want;
}

static int blk_restore_write_cache(struct hd_dev *d, char *err, size_t errlen)
{
	struct blk *b = d->priv;
	int rc;

	if (!b->wc_changed)
		return 0;
	b->wc_changed = 0;
	rc = hd_sysfs_write(b->wc_path, b->wc_saved);
	/* A message cut short at errlen is still the message: the return value says so, nothing more. */
	if (rc && snprintf(err, errlen, "write %s: %s; the write cache was left changed, it was '%s'", b->wc_path,
			   strerror(-rc), b->wc_saved) < 0)
		err[0] = 0;
	return rc;
}

/* Whether d is a block device (its stat in *st): the settings of a disk live in its sysfs. */
static int blk_is_disk(const struct hd_dev *d, struct stat *st)
{
	return d->kind == HD_DEV_BLOCK && stat(d->path, st) == 0 && S_ISBLK(st->st_mode);
}

/* The cache_type attribute of a SCSI or SATA disk, or why there is none; 0 or -errno with a message. */
static int blk_cache_type(struct hd_dev *d, char *cur, size_t len, char *err, size_t errlen)
{
	struct blk *b = d->priv;
	struct stat st;
	int rc;

	if (!blk_is_disk(d, &st)) {
		snprintf(err, errlen, "%s: a regular file has no write cache of its own; --write-cache needs a disk "
			 "or a simulated drive", d->path);
		return -ENOTSUP;
	}
	if (!hd_sysfs_cache_type_path(st.st_rdev, b->wc_path, sizeof(b->wc_path))) {
		snprintf(err, errlen, "%s: the kernel exposes no cache_type for this device (not a SCSI or SATA "
			 "disk), so its write cache cannot be set", d->path);
		return -ENOTSUP;
	}
	rc = hd_sysfs_read(b->wc_path, cur, len);
	if (rc)
		snprintf(err, errlen, "read %s: %s", b->wc_path, strerror(-rc));
	return rc;
}

static int blk_set_write_cache(struct hd_dev *d, int want, char *err, size_t errlen)
{
	struct blk *b = d->priv;
	char cur[64], val[64];
	int rc;

	rc = blk_cache_type(d, cur, sizeof(cur), err, errlen);
	if (rc)
		return rc;
	/* Switched twice before a restore: the setting before the first is the one to put back. */
	if (!b->wc_changed)
		snprintf(b->wc_saved, sizeof(b->wc_saved), "%s", cur);
	if (cache_type_wants(cur, want))
		return 0;
	/* Keep the read cache part of the setting as it was. */
	snprintf(val, sizeof(val), "%s%s", want ? "write back" : "write through",
		 strstr(cur, "no read") ? ", no read (daft)" : "");
	rc = hd_sysfs_write(b->wc_path, val);
	if (rc) {
		snprintf(err, errlen, "write %s: %s; cannot turn the write cache of %s %s", b->wc_path, strerror(-rc),
			 d->path, want ? "on" : "off");
		return rc;
	}
	b->wc_changed = 1;
	/* The kernel may accept the write and the drive refuse the mode page: check. */
	rc = hd_sysfs_read(b->wc_path, cur, sizeof(cur));
	if (rc || !cache_type_wants(cur, want)) {
		char e2[160];
		blk_restore_write_cache(d, e2, sizeof(e2));
		snprintf(err, errlen, "%s: the drive did not take write cache %s (cache_type reads '%s')", d->path,
			 want ? "on" : "off", rc ? "?" : cur);
		return -EIO;
	}
	return 0;
}

/*
 * The I/O scheduler of a block device's kernel queue.  Switching it is a
 * setting of the target the user named, like its write cache: the one in
 * effect and nr_requests (which the kernel resets on every switch) are
 * kept and put back exactly.
 */

/* The active scheduler of "mq-deadline [none] bfq" into out; the whole line when nothing is bracketed. */
static void active_scheduler(const char *line, char *out, size_t len)
{
	const char *a = strchr(line, '['), *b = a ? strchr(a, ']') : NULL;

	int w = a && b ? snprintf(out, len, "%.*s", (int)(b - a - 1), a + 1) : snprintf(out, len, "%s", line);

	/* A scheduler's name is a few letters; a longer one is cut at len, and nothing is set from it. */
	if (w < 0 && len)
		out[0] = 0;
}

/* The queue's attribute attr (a sibling of sched_path) into path. */
static int queue_attr_path(const struct blk *b, const char *attr, char *path, size_t len)
{
	const char *slash = strrchr(b->sched_path, '/');
	int n = slash ? (int)(slash - b->sched_path) : 0;

	return (size_t)snprintf(path, len, "%.*s/%s", n, b->sched_path, attr) < len ? 0 : -ENAMETOOLONG;
}

static int blk_restore_scheduler(struct hd_dev *d, char *err, size_t errlen)
{
	struct blk *b = d->priv;
	char path[512], cur[32];
	int rc;

	if (!b->sched_changed)
		return 0;
	b->sched_changed = 0;
	rc = hd_sysfs_write(b->sched_path, b->sched_saved);
	if (rc) {
		snprintf(err, errlen, "write %s: %s; the I/O scheduler of %s was left changed, it was '%s'",
			 b->sched_path, strerror(-rc), d->path, b->sched_saved);
		return rc;
	}
	/* The switch back reset nr_requests to the scheduler's default: a value the user set goes back too. */
	if (!b->nrreq_saved[0] || queue_attr_path(b, "nr_requests", path, sizeof(path)) ||
	    (hd_sysfs_read(path, cur, sizeof(cur)) == 0 && strcmp(cur, b->nrreq_saved) == 0))
		return 0;
	rc = hd_sysfs_write(path, b->nrreq_saved);
	if (rc)
		snprintf(err, errlen, "write %s: %s; nr_requests of %s was left changed, it was %s", path,
			 strerror(-rc), d->path, b->nrreq_saved);
	return rc;
}

/* Why name was refused: the schedulers the kernel offers. */
static void scheduler_refused(struct hd_dev *d, const char *name, int rc, const char *offered, char *err,
			      size_t errlen)
{
	struct blk *b = d->priv;

	if (rc == -EINVAL)
		snprintf(err, errlen, "write %s: %s; '%s' is not an I/O scheduler %s offers (%s)", b->sched_path,
			 strerror(-rc), name, d->path, offered);
	else
		snprintf(err, errlen, "write %s: %s; cannot set the I/O scheduler of %s to '%s'", b->sched_path,
			 strerror(-rc), d->path, name);
}

static int blk_set_scheduler(struct hd_dev *d, const char *name, char *was, size_t waslen, char *err,
			     size_t errlen)
{
	struct blk *b = d->priv;
	char line[256], cur[64], path[512];
	struct stat st;
	int rc;

	if (!blk_is_disk(d, &st)) {
		snprintf(err, errlen, "%s: a regular file has no I/O scheduler of its own (its disk's is not the "
			 "target's to change); --scheduler applies to a block device", d->path);
		return -ENOTSUP;
	}
	if (hd_sysfs_disk_attr_path(st.st_rdev, "queue/scheduler", b->sched_path, sizeof(b->sched_path))) {
		snprintf(err, errlen, "%s: the kernel shows no queue/scheduler for this device", d->path);
		return -ENOTSUP;
	}
	rc = hd_sysfs_read(b->sched_path, line, sizeof(line));
	if (rc) {
		snprintf(err, errlen, "read %s: %s", b->sched_path, strerror(-rc));
		return rc;
	}
	active_scheduler(line, cur, sizeof(cur));
	/* Switched twice before a restore: the setting before the first is the one to put back. */
	if (!b->sched_changed) {
		snprintf(b->sched_saved, sizeof(b->sched_saved), "%s", cur);
		if (queue_attr_path(b, "nr_requests", path, sizeof(path)) ||
		    hd_sysfs_read(path, b->nrreq_saved, sizeof(b->nrreq_saved)))
			b->nrreq_saved[0] = '\0';
	}
	snprintf(was, waslen, "%s", b->sched_saved);
	if (strcmp(cur, name) == 0)
		return 0;
	rc = hd_sysfs_write(b->sched_path, name);
	if (rc) {
		scheduler_refused(d, name, rc, line, err, errlen);
		return rc;
	}
	b->sched_changed = 1;
	rc = hd_sysfs_read(b->sched_path, line, sizeof(line));
	if (rc == 0)
		active_scheduler(line, cur, sizeof(cur));
	if (rc || strcmp(cur, name) != 0) {
		char e2[160];

		blk_restore_scheduler(d, e2, sizeof(e2));
		snprintf(err, errlen, "%s: the kernel did not take the I/O scheduler '%s' (%s reads '%s')", d->path,
			 name, b->sched_path, rc ? "?" : line);
		return -EIO;
	}
	return 0;
}

static void blk_close(struct hd_dev *d)
{
	struct blk *b = d->priv;

	if (b) {
		if (b->held)
			hd_guard_release(b->fd);
		close(b->fd);
		free(b);
	}
}

static int64_t blk_host_wait(struct hd_dev *d)
{
	(void)d;
	return hd_run_wait_ns();
}

static const struct hd_dev_ops blk_ops = {
	.name = "blk",
	.read = blk_read,
	.write = blk_write,
	.write_fua = blk_write_fua,
	.now_ns = blk_now,
	.idle_ns = blk_idle,
	.host_wait_ns = blk_host_wait,
	.close = blk_close,
	.identify = blk_identify,
	.set_write_cache = blk_set_write_cache,
	.restore_write_cache = blk_restore_write_cache,
	.set_scheduler = blk_set_scheduler,
	.restore_scheduler = blk_restore_scheduler,
};

/* The descriptor of the run: a descriptor or -errno; d->direct says whether O_DIRECT is in effect. */
static int blk_open_fd(struct hd_dev *d, const char *path, const struct stat *st, int flags)
{
	int fd, oflags = O_CLOEXEC | O_DIRECT;

	oflags |= (flags & HD_OPEN_WRITE) ? O_RDWR : O_RDONLY;
	/* O_DSYNC with O_DIRECT: the kernel sends each write with FUA, or flushes after it. */
	if ((flags & HD_OPEN_WRITE) && (flags & HD_OPEN_SYNC))
		oflags |= O_DSYNC;
	/* O_EXCL on a block device: the kernel refuses it while mounted or held. */
	if ((flags & HD_OPEN_WRITE) && S_ISBLK(st->st_mode))
		oflags |= O_EXCL;
	/* A file someone holds a lease on: fail now rather than wait out the lease break. */
	if ((flags & HD_OPEN_WRITE) && S_ISREG(st->st_mode))
		oflags |= O_NONBLOCK;
	fd = open(path, oflags);
	d->direct = fd >= 0;
	if (fd < 0 && errno == EINVAL && S_ISREG(st->st_mode)) {
		/* A file system without O_DIRECT (tmpfs on older kernels). */
		fd = open(path, oflags & ~O_DIRECT);
		d->direct = 0;
	}
	if (fd < 0)
		return -errno;
	if ((oflags & O_NONBLOCK) && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	return fd;
}

/* A block device's size and sectors from the kernel; a read-only one is refused for writing. */
static int blk_geometry(struct hd_dev *d, int fd, const struct stat *st, int flags, const char **errcall,
			char *refusal)
{
	uint64_t size;
	int lss = 0, ro = 0;
	unsigned int pbs = 0;
	char buf[128];

	d->kind = HD_DEV_BLOCK;
	*errcall = "ioctl BLKGETSIZE64";
	if (ioctl(fd, BLKGETSIZE64, &size) < 0)
		return -errno;
	*errcall = "ioctl BLKSSZGET";
	if (ioctl(fd, BLKSSZGET, &lss) < 0)
		return -errno;
	*errcall = "ioctl BLKPBSZGET";
	if (ioctl(fd, BLKPBSZGET, &pbs) < 0)
		return -errno;
	/* A read-only device may still open O_RDWR and then fail every write. */
	*errcall = "ioctl BLKROGET";
	if ((flags & HD_OPEN_WRITE) && ioctl(fd, BLKROGET, &ro) < 0)
		return -errno;
	if (ro) {
		snprintf(refusal, REFUSAL_LEN, "read-only device");
		return refuse(errcall, -EROFS);
	}
	*errcall = "open";
	d->size = size;
	d->logical_sector_bytes = (uint32_t)lss;
	d->physical_sector_bytes = pbs ? pbs : (uint32_t)lss;
	d->io_align = d->logical_sector_bytes;
	if (hd_sysfs_disk_attr(st->st_rdev, "queue/rotational", buf, sizeof(buf)) == 0)
		d->rotational = atoi(buf) != 0;
	if (hd_sysfs_disk_attr(st->st_rdev, "device/model", buf, sizeof(buf)) == 0) {
		size_t n = strlen(buf);
		while (n && buf[n - 1] == ' ')
			buf[--n] = '\0';
		snprintf(d->model, sizeof(d->model), "%s", buf);
	}
	return 0;
}

/* A regular file: its size, nominal sectors, and the rotation of the disk under its file system. */
static int file_geometry(struct hd_dev *d, const struct stat *st)
{
	char buf[128];

	d->kind = HD_DEV_FILE;
	d->size = (uint64_t)st->st_size;
	d->logical_sector_bytes = 512;
	d->physical_sector_bytes = 4096;
	/* O_DIRECT on a file system wants its block alignment. */
	d->io_align = st->st_blksize > 512 ? (uint32_t)st->st_blksize : 512;
	if (hd_sysfs_disk_attr(st->st_dev, "queue/rotational", buf, sizeof(buf)) == 0)
		d->rotational = atoi(buf) != 0;
	return 0;
}

/* The open itself: 0 or -errno with *errcall naming the call, or "refused" with the reason in refusal. */
static int blk_open(struct hd_dev *d, const char *path, int flags, const char **errcall, char *refusal)
{
	struct stat st;
	struct blk *b;
	int fd, rc;

	*errcall = "open";
	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode)) {
		/* Character devices, FIFOs and sockets have no stable offsets to time. */
		*errcall = "open (not a block device or regular file)";
		return -ENOTSUP;
	}
	/* Before our own descriptor for writing exists: it would count as a writer too. */
	if ((flags & HD_OPEN_WRITE) && S_ISREG(st.st_mode)) {
		rc = hd_guard_check(path, &st, refusal, REFUSAL_LEN);
		if (rc)
			return refuse(errcall, rc);
	}
	fd = blk_open_fd(d, path, &st, flags);
	if (fd < 0) {
		if (fd == -EROFS && (flags & HD_OPEN_WRITE)) {
			snprintf(refusal, REFUSAL_LEN, "%s",
				 S_ISBLK(st.st_mode) ? "read-only device" : "on a read-only file system");
			return refuse(errcall, fd);
		}
		if (fd == -EWOULDBLOCK) {
			snprintf(refusal, REFUSAL_LEN, "held under a lease by another process");
			return refuse(errcall, -EBUSY);
		}
		return fd;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		close(fd);
		return -ENOMEM;
	}
	b->fd = fd;
	d->priv = b;
	if ((flags & HD_OPEN_WRITE) && S_ISREG(st.st_mode)) {
		rc = hd_guard_hold(fd, refusal, REFUSAL_LEN);
		if (rc) {
			blk_close(d);
			d->priv = NULL;
			return refuse(errcall, rc);
		}
		b->held = 1;
	}
	d->ops = &blk_ops;
	d->writable = !!(flags & HD_OPEN_WRITE);
	d->sync = d->writable && (flags & HD_OPEN_SYNC);
	rc = S_ISBLK(st.st_mode) ? blk_geometry(d, fd, &st, flags, errcall, refusal) : file_geometry(d, &st);
	if (rc) {
		blk_close(d);
		d->priv = NULL;
	}
	return rc;
}

int hd_blk_open(struct hd_dev *d, const char *spec, int flags, char *err, size_t errlen)
{
	char refusal[REFUSAL_LEN] = "";
	const char *call = "open";
	int rc = blk_open(d, spec, flags, &call, refusal);

	if (rc == 0)
		return 0;
	if (strcmp(call, "refused") == 0)
		snprintf(err, errlen, "%s: %s; refusing to write", spec, refusal);
	else if (rc == -EBUSY && (flags & HD_OPEN_WRITE))
		snprintf(err, errlen, "%s: device is busy (mounted or in use); refusing to write", spec);
	else if (rc == -ENOTSUP)
		snprintf(err, errlen, "%s: not a block device or regular file", spec);
	else
		snprintf(err, errlen, "%s %s: %s", call, spec, strerror(-rc));
	return rc;
}
