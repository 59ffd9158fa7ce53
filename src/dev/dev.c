/*
 * The device interface shared by all backends: opening by spec, bounds and
 * alignment checks, timing around the transfer, aligned buffers.  Backends
 * only move bytes; everything that must hold for every backend lives here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "hddscope/dev.h"

/*
 * The backends by the specs they own, tried in order: a prefix names a
 * backend, and what has none is a path (fio's ioengines, by name).
 */
static const struct hd_backend {
	const char *prefix;
	int (*open)(struct hd_dev *d, const char *spec, int flags, char *err, size_t errlen);
} backends[] = {
	{ "sim:", hd_sim_open },
	{ "", hd_blk_open },
};

static const struct hd_backend *backend_of(const char *spec)
{
	const struct hd_backend *b = backends;

	/* The last entry's empty prefix matches every spec. */
	while (strncmp(spec, b->prefix, strlen(b->prefix)) != 0)
		b++;
	return b;
}

int hd_dev_open(struct hd_dev **out, const char *spec, int flags, char *err, size_t errlen)
{
	const struct hd_backend *b = backend_of(spec);
	struct hd_dev *d = calloc(1, sizeof(*d));
	int rc;

	if (d && !(d->path = strdup(spec))) {
		free(d);
		d = NULL;
	}
	if (!d) {
		snprintf(err, errlen, "open %s: %s", spec, strerror(ENOMEM));
		return -ENOMEM;
	}
	d->rotational = -1;
	err[0] = '\0';
	rc = b->open(d, spec + strlen(b->prefix), flags, err, errlen);
	if (rc) {
		free(d->path);
		free(d);
		return rc;
	}
	if (d->io_align < d->logical_sector_bytes)
		d->io_align = d->logical_sector_bytes;
	*out = d;
	return 0;
}

void hd_dev_close(struct hd_dev *d)
{
	if (!d)
		return;
	if (d->ops && d->ops->close)
		d->ops->close(d);
	free(d->path);
	free(d);
}

size_t hd_dev_align(const struct hd_dev *d)
{
	return d->physical_sector_bytes > 4096 ? d->physical_sector_bytes : 4096;
}

void *hd_buf_alloc(const struct hd_dev *d, size_t len)
{
	size_t al = hd_dev_align(d);
	size_t n = (len + al - 1) / al * al;
	void *p = NULL;

	if (n == 0 || posix_memalign(&p, al, n))
		return NULL;
	/* Touch every page now so that no page fault lands in a timed call. */
	memset(p, 0, n);
	(void)mlock(p, n);
	return p;
}

void hd_buf_free(void *buf, size_t len)
{
	if (!buf)
		return;
	(void)munlock(buf, len);
	free(buf);
}

static int check_access(const struct hd_dev *d, size_t len, uint64_t off)
{
	if (len == 0 || len % d->io_align || off % d->io_align)
		return -EINVAL;
	if (off > d->size || len > d->size - off)
		return -ERANGE;
	return 0;
}

int hd_dev_io(struct hd_dev *d, enum hd_op op, void *buf, size_t len, uint64_t off)
{
	int rc = check_access(d, len, off);

	if (rc)
		return rc;
	if (op == HD_OP_WRITE)
		return d->writable ? d->ops->write(d, buf, len, off) : -EBADF;
	return d->ops->read(d, buf, len, off);
}

int hd_dev_timed(struct hd_dev *d, enum hd_op op, void *buf, size_t len, uint64_t off, int64_t *lat_ns)
{
	const struct hd_dev_ops *ops = d->ops;
	int64_t t0, t1;
	int rc = check_access(d, len, off);

	*lat_ns = 0;
	if (rc)
		return rc;
	if (op == HD_OP_WRITE && !d->writable)
		return -EBADF;
	/* Nothing but the transfer between the two clock reads. */
	if (op == HD_OP_WRITE) {
		t0 = ops->now_ns(d);
		rc = ops->write(d, buf, len, off);
		t1 = ops->now_ns(d);
	} else {
		t0 = ops->now_ns(d);
		rc = ops->read(d, buf, len, off);
		t1 = ops->now_ns(d);
	}
	*lat_ns = t1 - t0;
	return rc;
}

int hd_dev_timed_fua(struct hd_dev *d, void *buf, size_t len, uint64_t off, int64_t *lat_ns)
{
	int64_t t0;
	int rc = check_access(d, len, off);

	*lat_ns = 0;
	if (rc)
		return rc;
	if (!d->writable)
		return -EBADF;
	if (!d->ops->write_fua)
		return -ENOTSUP;
	t0 = d->ops->now_ns(d);
	rc = d->ops->write_fua(d, buf, len, off);
	*lat_ns = d->ops->now_ns(d) - t0;
	return rc;
}

int64_t hd_dev_now(struct hd_dev *d)
{
	return d->ops->now_ns(d);
}

void hd_dev_idle(struct hd_dev *d, int64_t ns)
{
	d->ops->idle_ns(d, ns);
}

int64_t hd_dev_host_wait(struct hd_dev *d)
{
	return d->ops->host_wait_ns ? d->ops->host_wait_ns(d) : -1;
}

int hd_dev_can_queue(const struct hd_dev *d)
{
	return d->ops->submit != NULL && d->ops->reap != NULL;
}

int hd_dev_submit(struct hd_dev *d, struct hd_req *r)
{
	return hd_dev_can_queue(d) ? d->ops->submit(d, r) : -ENOTSUP;
}

int hd_dev_reap(struct hd_dev *d, struct hd_req *r)
{
	return hd_dev_can_queue(d) ? d->ops->reap(d, r) : -ENOTSUP;
}

void hd_dev_identify(struct hd_dev *d, struct hd_identity *id, int ask_drive)
{
	if (d->ops->identify)
		d->ops->identify(d, id, ask_drive);
}

int hd_dev_set_write_cache(struct hd_dev *d, int on, char *err, size_t errlen)
{
	if (!d->ops->set_write_cache) {
		snprintf(err, errlen, "%s: this device cannot switch its write cache", d->path);
		return -ENOTSUP;
	}
	return d->ops->set_write_cache(d, on, err, errlen);
}

int hd_dev_restore_write_cache(struct hd_dev *d, char *err, size_t errlen)
{
	return d->ops->restore_write_cache ? d->ops->restore_write_cache(d, err, errlen) : 0;
}

int hd_dev_set_scheduler(struct hd_dev *d, const char *name, char *was, size_t waslen, char *err, size_t errlen)
{
	if (!d->ops->set_scheduler) {
		snprintf(err, errlen, "%s: this device has no I/O scheduler to set", d->path);
		return -ENOTSUP;
	}
	if (waslen)
		*was = '\0';
	return d->ops->set_scheduler(d, name, was, waslen, err, errlen);
}

int hd_dev_restore_scheduler(struct hd_dev *d, char *err, size_t errlen)
{
	return d->ops->restore_scheduler ? d->ops->restore_scheduler(d, err, errlen) : 0;
}

const char *hd_dev_kind_name(enum hd_dev_kind k)
{
	switch (k) {
	case HD_DEV_BLOCK: return "block device";
	case HD_DEV_FILE: return "regular file";
	case HD_DEV_SIM: return "simulated drive";
	}
	return "unknown";
}

const char *hd_op_name(enum hd_op op)
{
	return op == HD_OP_WRITE ? "write" : "read";
}
