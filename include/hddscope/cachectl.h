/*
 * Setting a drive's write cache for a run and putting it back afterwards:
 * through sysfs cache_type for a SCSI/SATA disk, through the backend for a
 * simulated drive.  Where it cannot be changed the run must not start.
 */
#ifndef HDDSCOPE_CACHECTL_H
#define HDDSCOPE_CACHECTL_H

#include <stddef.h>

#include "hddscope/dev.h"

struct hd_cachectl {
	struct hd_dev *dev;
	int changed;		/* something to restore */
	int sim_was;		/* simulated drive: the setting before */
	char path[512];		/* block device: the cache_type attribute */
	char saved[64];		/* its value before */
};

/* want: -1 keep (nothing is touched), 0 off, 1 on.  0 or -errno with a message in err. */
int hd_cache_set(struct hd_cachectl *c, struct hd_dev *d, int want, char *err, size_t errlen);
/* Put back what hd_cache_set changed (safe to call twice); 0 or -errno with a message. */
int hd_cache_restore(struct hd_cachectl *c, char *err, size_t errlen);

#endif
