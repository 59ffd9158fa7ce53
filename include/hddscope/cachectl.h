/*
 * Setting a drive's write cache for a run and putting it back afterwards.
 * The backend does the switching and remembers what was there (its
 * set_write_cache and restore_write_cache hooks: sysfs cache_type for a
 * SCSI/SATA disk, the model for a simulated drive).  Where it cannot be
 * changed the run must not start.
 */
#ifndef HDDSCOPE_CACHECTL_H
#define HDDSCOPE_CACHECTL_H

#include <stddef.h>

#include "hddscope/dev.h"

struct hd_cachectl {
	struct hd_dev *dev;
	int changed;		/* the backend was asked to switch: something may need restoring */
};

/* want: -1 keep (nothing is touched), 0 off, 1 on.  0 or -errno with a message in err. */
int hd_cache_set(struct hd_cachectl *c, struct hd_dev *d, int want, char *err, size_t errlen);
/* Put back what hd_cache_set changed (safe to call twice); 0 or -errno with a message. */
int hd_cache_restore(struct hd_cachectl *c, char *err, size_t errlen);

#endif
