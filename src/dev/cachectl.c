/*
 * The write cache setting of a run.  The original value is kept by the
 * backend and put back by hd_cache_restore, which every way out of a probe
 * passes through (the end of the run, Ctrl-C, too many errors, a setup
 * failure).
 */
#include "hddscope/cachectl.h"

int hd_cache_set(struct hd_cachectl *c, struct hd_dev *d, int want, char *err, size_t errlen)
{
	c->dev = d;
	c->changed = 0;
	if (want < 0)
		return 0;
	/* A backend restores only what it changed, so asking it to is always safe. */
	c->changed = 1;
	return hd_dev_set_write_cache(d, want, err, errlen);
}

int hd_cache_restore(struct hd_cachectl *c, char *err, size_t errlen)
{
	if (!c->changed)
		return 0;
	c->changed = 0;
	return hd_dev_restore_write_cache(c->dev, err, errlen);
}
