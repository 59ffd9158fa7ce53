/*
 * The write cache setting of a run.  The original value is kept and put
 * back by hd_cache_restore, which every way out of a probe passes through
 * (the end of the run, Ctrl-C, too many errors, a setup failure).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "hddscope/cachectl.h"
#include "hddscope/identity.h"
#include "hddscope/sysfs.h"

static int sysfs_wants(const char *cur, int want)
{
	return (strstr(cur, "write back") != NULL) == want;
}

int hd_cache_set(struct hd_cachectl *c, struct hd_dev *d, int want, char *err, size_t errlen)
{
	struct stat st;
	char cur[64], val[64];
	int rc;

	memset(c, 0, sizeof(*c));
	c->dev = d;
	if (want < 0)
		return 0;
	if (d->kind == HD_DEV_SIM) {
		struct hd_identity id;

		if (!d->ops->identify || !d->ops->set_write_cache) {
			snprintf(err, errlen, "%s: this simulated drive cannot switch its write cache", d->path);
			return -ENOTSUP;
		}
		hd_identity_init(&id);
		d->ops->identify(d, &id);
		c->sim_was = id.write_cache;
		if (id.write_cache == want)
			return 0;
		rc = d->ops->set_write_cache(d, want);
		if (rc) {
			snprintf(err, errlen, "%s: cannot turn the write cache %s: %s", d->path, want ? "on" : "off",
				 strerror(-rc));
			return rc;
		}
		c->changed = 1;
		return 0;
	}
	if (d->kind != HD_DEV_BLOCK || stat(d->path, &st) < 0 || !S_ISBLK(st.st_mode)) {
		snprintf(err, errlen, "%s: a regular file has no write cache of its own; --write-cache needs a disk "
			 "or a simulated drive", d->path);
		return -ENOTSUP;
	}
	if (!hd_sysfs_cache_type_path(st.st_rdev, c->path, sizeof(c->path))) {
		snprintf(err, errlen, "%s: the kernel exposes no cache_type for this device (not a SCSI or SATA "
			 "disk), so its write cache cannot be set", d->path);
		return -ENOTSUP;
	}
	rc = hd_sysfs_read(c->path, cur, sizeof(cur));
	if (rc) {
		snprintf(err, errlen, "read %s: %s", c->path, strerror(-rc));
		return rc;
	}
	snprintf(c->saved, sizeof(c->saved), "%s", cur);
	if (sysfs_wants(cur, want))
		return 0;
	/* Keep the read cache part of the setting as it was. */
	snprintf(val, sizeof(val), "%s%s", want ? "write back" : "write through",
		 strstr(cur, "no read") ? ", no read (daft)" : "");
	rc = hd_sysfs_write(c->path, val);
	if (rc) {
		snprintf(err, errlen, "write %s: %s; cannot turn the write cache of %s %s", c->path, strerror(-rc),
			 d->path, want ? "on" : "off");
		return rc;
	}
	c->changed = 1;
	/* The kernel may accept the write and the drive refuse the mode page: check. */
	rc = hd_sysfs_read(c->path, cur, sizeof(cur));
	if (rc || !sysfs_wants(cur, want)) {
		char e2[160];
		hd_cache_restore(c, e2, sizeof(e2));
		snprintf(err, errlen, "%s: the drive did not take write cache %s (cache_type reads '%s')", d->path,
			 want ? "on" : "off", rc ? "?" : cur);
		return -EIO;
	}
	return 0;
}

int hd_cache_restore(struct hd_cachectl *c, char *err, size_t errlen)
{
	int rc;

	if (!c->changed)
		return 0;
	c->changed = 0;
	if (c->dev && c->dev->kind == HD_DEV_SIM) {
		rc = c->dev->ops->set_write_cache(c->dev, c->sim_was);
		if (rc)
			snprintf(err, errlen, "%s: cannot restore the write cache: %s", c->dev->path, strerror(-rc));
		return rc;
	}
	rc = hd_sysfs_write(c->path, c->saved);
	if (rc)
		snprintf(err, errlen, "write %s: %s; the write cache was left changed, it was '%s'", c->path,
			 strerror(-rc), c->saved);
	return rc;
}
