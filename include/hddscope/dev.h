/*
 * The device interface: one ops table per backend (block device or regular
 * file, simulated drive).  Probes issue I/O only through these calls, so a
 * backend can be added without touching any probe.
 */
#ifndef HDDSCOPE_DEV_H
#define HDDSCOPE_DEV_H

#include <stddef.h>
#include <stdint.h>

#include "hddscope/ioreq.h"

struct hd_dev;
struct hd_identity;

enum hd_dev_kind {
	HD_DEV_BLOCK,
	HD_DEV_FILE,
	HD_DEV_SIM,
};

/* The target when a command is given no DEVICE. */
#define HD_DEFAULT_TARGET "sim:atlas3"

/* Flags for hd_dev_open(). */
#define HD_OPEN_WRITE 0x1	/* open for writing (O_EXCL on block devices) */
#define HD_OPEN_SYNC 0x2	/* a write completes only once it is on the media (O_DSYNC: FUA or a flush) */

/*
 * The ops table.  Every hook returns 0 or -errno and never prints.
 *  read/write: transfer len bytes at byte offset off; len and off are
 *    multiples of the device's logical sector, buf is aligned to
 *    hd_dev_align(); the whole range lies inside the device.  A short
 *    transfer is reported as -EIO.
 *  write_fua (optional): a write that completes only once it is on the
 *    media (FUA), whatever the mode the device was opened in; -ENOTSUP
 *    where the system cannot send one.
 *  now_ns: the backend's clock in nanoseconds (CLOCK_MONOTONIC for real
 *    devices, the virtual clock for the simulated drive).
 *  idle_ns: let ns nanoseconds pass without I/O (a real sleep on a real
 *    device; on the simulated drive, background work progresses).
 *  host_wait_ns (optional): how long this thread has waited for a CPU so
 *    far (hd_run_wait_ns), on backends whose clock is the host's; NULL on
 *    a virtual clock, which no host delay reaches.
 *  close: release everything; the dev pointer is freed by hd_dev_close().
 *  submit/reap (optional, NULL when unsupported): queue a request; reap
 *    waits for the next completion, in completion order, fills it in and
 *    returns 0, or -EAGAIN when nothing is outstanding.
 *  identify (optional): what the drive says of itself, into an identity
 *    already initialised (hd_identity_init); ask_drive 0 when saved SMART
 *    data will stand in for the drive's own (no ATA command is sent).
 *  set_write_cache (optional): turn the drive's write cache on (1) or off
 *    (0) for a run, remembering the setting before; 0, or -errno with the
 *    whole message in err (-ENOTSUP where it cannot be switched).
 *  restore_write_cache (optional with set_write_cache): put back what
 *    set_write_cache changed, once; 0 when nothing was changed, else 0 or
 *    -errno with the whole message in err.
 *  set_scheduler (optional): make name the I/O scheduler of the device's
 *    kernel queue for a run, remembering the one before and its
 *    nr_requests (the one before also into was, "" where there was no
 *    switch to make); 0, or -errno with the whole message in err (-ENOTSUP
 *    where the device has no scheduler to set).
 *  restore_scheduler (optional with set_scheduler): put back the
 *    scheduler and nr_requests set_scheduler changed, once; 0 when nothing
 *    was changed, else 0 or -errno with the whole message in err.
 */
struct hd_dev_ops {
	const char *name;
	int (*read)(struct hd_dev *d, void *buf, size_t len, uint64_t off);
	int (*write)(struct hd_dev *d, const void *buf, size_t len, uint64_t off);
	int (*write_fua)(struct hd_dev *d, const void *buf, size_t len, uint64_t off);
	int64_t (*now_ns)(struct hd_dev *d);
	void (*idle_ns)(struct hd_dev *d, int64_t ns);
	int64_t (*host_wait_ns)(struct hd_dev *d);
	void (*close)(struct hd_dev *d);
	int (*submit)(struct hd_dev *d, struct hd_req *r);
	int (*reap)(struct hd_dev *d, struct hd_req *r);
	void (*identify)(struct hd_dev *d, struct hd_identity *id, int ask_drive);
	int (*set_write_cache)(struct hd_dev *d, int on, char *err, size_t errlen);
	int (*restore_write_cache)(struct hd_dev *d, char *err, size_t errlen);
	int (*set_scheduler)(struct hd_dev *d, const char *name, char *was, size_t waslen, char *err, size_t errlen);
	int (*restore_scheduler)(struct hd_dev *d, char *err, size_t errlen);
};

struct hd_dev {
	const struct hd_dev_ops *ops;
	char *path;		/* as given by the user, e.g. "/dev/sdb" or "sim:atlas3" */
	enum hd_dev_kind kind;
	uint64_t size;		/* bytes */
	uint32_t logical_sector_bytes;
	uint32_t physical_sector_bytes;
	uint32_t io_align;	/* offsets and lengths of every access are multiples of this */
	int rotational;		/* 1, 0, or -1 when unknown */
	int writable;
	int direct;		/* 1 when O_DIRECT is in effect */
	int sync;		/* 1 when writes complete only on the media (HD_OPEN_SYNC) */
	char model[128];	/* drive model where known, else "" */
	void *priv;		/* backend state */
};

/*
 * Open "PATH" (block device or regular file) or "sim:NAME" / "sim:FILE.drive".
 * Returns 0 or -errno; on failure err holds the whole message to show,
 * naming the target and what failed: "open /dev/sdb: Permission denied",
 * "/tmp/f: backs /dev/loop3; refusing to write", "x.drive:12: reason".
 */
int hd_dev_open(struct hd_dev **out, const char *spec, int flags, char *err, size_t errlen);
void hd_dev_close(struct hd_dev *d);

/* Buffer alignment for this device: max(4096, physical sector). */
size_t hd_dev_align(const struct hd_dev *d);
/* An aligned, zero-touched, (where allowed) locked buffer; free with hd_buf_free. */
void *hd_buf_alloc(const struct hd_dev *d, size_t len);
void hd_buf_free(void *buf, size_t len);

/*
 * A timed access: checks alignment and bounds (-EINVAL, -ERANGE without any
 * I/O), reads the clock immediately around the transfer and stores the
 * elapsed nanoseconds in *lat_ns (also on failure).
 */
int hd_dev_timed(struct hd_dev *d, enum hd_op op, void *buf, size_t len, uint64_t off,
		 int64_t *lat_ns);

/*
 * A timed write with FUA (the write_fua hook), as hd_dev_timed times a
 * write; -ENOTSUP where the backend has no such write.
 */
int hd_dev_timed_fua(struct hd_dev *d, void *buf, size_t len, uint64_t off, int64_t *lat_ns);

/* Untimed access with the same checks. */
int hd_dev_io(struct hd_dev *d, enum hd_op op, void *buf, size_t len, uint64_t off);

/* The backend's clock in nanoseconds (the virtual clock on a simulated drive). */
int64_t hd_dev_now(struct hd_dev *d);
/* Let ns nanoseconds pass without I/O; nothing happens for ns <= 0 on any backend. */
void hd_dev_idle(struct hd_dev *d, int64_t ns);
/* The thread's wait for a CPU so far in ns (see host_wait_ns); -1 where the backend or the kernel cannot tell. */
int64_t hd_dev_host_wait(struct hd_dev *d);

/* 1 when the backend holds a queue of its own (submit/reap), else 0. */
int hd_dev_can_queue(const struct hd_dev *d);
/* The queued interface (see struct hd_dev_ops); -ENOTSUP where there is no queue. */
int hd_dev_submit(struct hd_dev *d, struct hd_req *r);
int hd_dev_reap(struct hd_dev *d, struct hd_req *r);

/* What the backend knows of the drive (see the identify hook); nothing where it knows nothing. */
void hd_dev_identify(struct hd_dev *d, struct hd_identity *id, int ask_drive);
/* The write cache hooks; -ENOTSUP with a message where the backend cannot switch it. */
int hd_dev_set_write_cache(struct hd_dev *d, int on, char *err, size_t errlen);
int hd_dev_restore_write_cache(struct hd_dev *d, char *err, size_t errlen);
/* The scheduler hooks; -ENOTSUP with a message where the device has no scheduler to set. */
int hd_dev_set_scheduler(struct hd_dev *d, const char *name, char *was, size_t waslen, char *err, size_t errlen);
int hd_dev_restore_scheduler(struct hd_dev *d, char *err, size_t errlen);

const char *hd_dev_kind_name(enum hd_dev_kind k);
const char *hd_op_name(enum hd_op op);

/*
 * Backend constructors, called by hd_dev_open() for the specs they own
 * (its table of backends).  Each fills a freshly allocated struct hd_dev
 * (d->path already set to the whole spec; spec is what follows the
 * backend's prefix) and answers as hd_dev_open() does.
 */
int hd_blk_open(struct hd_dev *d, const char *spec, int flags, char *err, size_t errlen);
int hd_sim_open(struct hd_dev *d, const char *spec, int flags, char *err, size_t errlen);

#endif
