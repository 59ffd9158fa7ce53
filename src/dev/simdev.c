/*
 * The simulated drive's device backend ("sim:NAME", "sim:FILE.drive"): the
 * ops table over the engine of src/sim/, which costs every access on a
 * virtual clock.  The drive shows 512-byte logical sectors whatever the
 * model's sector size, as a 512e disk does.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/dev.h"
#include "hddscope/identity.h"
#include "hddscope/sim.h"
#include "hddscope/util.h"

/* The logical sector the backend shows. */
#define BLK 512u

struct simdev {
	struct hd_sim_model *m;
	struct hd_sim *s;
	int wc_changed;		/* the write cache was switched: wc_was goes back */
	int wc_was;
	double host_ns;		/* the host path's mean delay (host_us=), 0: none */
	struct hd_rng host_rng;	/* its own stream: the drive's plan is the seed's */
};

static struct hd_sim *sim_of(struct hd_dev *d)
{
	return ((struct simdev *)d->priv)->s;
}

/*
 * The host path (host_us=U): the host learns of each access's completion
 * after a delay drawn from an exponential distribution of mean U
 * microseconds (an interrupt, a wake-up, a busy CPU), while the drive,
 * done, idles.  Only the one-at-a-time accesses; queued ones are reaped
 * when the drive completes them.
 */
static int host_path(struct hd_dev *d, int rc)
{
	struct simdev *sd = d->priv;

	if (sd->host_ns > 0)
		hd_sim_idle(sd->s, (int64_t)(-sd->host_ns * log(1 - hd_rng_uniform(&sd->host_rng))));
	return rc;
}

static int sim_read(struct hd_dev *d, void *buf, size_t len, uint64_t off)
{
	return host_path(d, hd_sim_io(sim_of(d), HD_OP_READ, buf, len, off, NULL));
}

static int sim_write(struct hd_dev *d, const void *buf, size_t len, uint64_t off)
{
	/* The engine only reads from buf on a write. */
	return host_path(d, hd_sim_io(sim_of(d), HD_OP_WRITE, (void *)(uintptr_t)buf, len, off, NULL));
}

/* A forced-unit-access write, then the device's own mode again. */
static int sim_write_fua(struct hd_dev *d, const void *buf, size_t len, uint64_t off)
{
	int rc;

	hd_sim_set_fua(sim_of(d), 1);
	rc = hd_sim_io(sim_of(d), HD_OP_WRITE, (void *)(uintptr_t)buf, len, off, NULL);
	hd_sim_set_fua(sim_of(d), d->sync);
	return host_path(d, rc);
}

static int64_t sim_now(struct hd_dev *d)
{
	return hd_sim_now(sim_of(d));
}

static void sim_idle(struct hd_dev *d, int64_t ns)
{
	hd_sim_idle(sim_of(d), ns);
}

static void sim_close(struct hd_dev *d)
{
	struct simdev *sd = d->priv;

	if (!sd)
		return;
	hd_sim_free(sd->s);
	hd_sim_model_free(sd->m);
	free(sd);
	d->priv = NULL;
}

static int sim_submit(struct hd_dev *d, struct hd_req *r)
{
	return hd_sim_submit(sim_of(d), r);
}

static int sim_reap(struct hd_dev *d, struct hd_req *r)
{
	return hd_sim_reap(sim_of(d), r);
}

/* One SMART attribute of a simulated drive, its raw value as the counter. */
static void sim_attr(struct hd_smart_attr *a, int num, const char *name, uint64_t raw, const char *unit)
{
	memset(a, 0, sizeof(*a));
	a->id = num;
	snprintf(a->name, sizeof(a->name), "%s", name);
	a->value = a->worst = 100;
	a->threshold = num == 5 ? 36 : 0;
	a->raw = raw;
	a->pretty = raw;
	snprintf(a->unit, sizeof(a->unit), "%s", unit);
	a->prefailure = num == 5;
	a->good = a->good_past = 1;
}

/* Temperature of a simulated drive: a steady 35 C, in the attribute's mkelvin. */
#define SIM_TEMP_C 35

/*
 * The SMART of a model that has it (smart = on): the counters a burn-in
 * watches, at the drive's virtual time: its power-on hours, the sectors
 * that went bad (hd_sim_smart_counts), no CRC errors, a steady
 * temperature.  Without memory for the attributes, SMART is not available.
 */
static void sim_smart(const struct hd_sim_model *m, int64_t now, struct hd_identity *id)
{
	uint64_t realloc_n, pending;
	struct hd_smart_attr *a = calloc(6, sizeof(*a));

	if (!a) {
		snprintf(id->smart_reason, sizeof(id->smart_reason), "simulated drive: out of memory");
		return;
	}
	hd_sim_smart_counts(m, now, &realloc_n, &pending);
	sim_attr(&a[0], 5, "reallocated-sector-count", realloc_n, "sectors");
	sim_attr(&a[1], 9, "power-on-hours", (uint64_t)(now / 3600000000000LL), "mseconds");
	a[1].pretty = (uint64_t)(now / 1000000);
	sim_attr(&a[2], 194, "temperature-celsius-2", SIM_TEMP_C, "mkelvin");
	a[2].pretty = SIM_TEMP_C * 1000 + 273150;
	sim_attr(&a[3], 197, "current-pending-sector", pending, "sectors");
	sim_attr(&a[4], 198, "offline-uncorrectable", 0, "sectors");
	sim_attr(&a[5], 199, "udma-crc-error-count", 0, "none");
	id->attrs = a;
	id->nattrs = 6;
	id->smart_available = 1;
	snprintf(id->smart_overall, sizeof(id->smart_overall), "%s", realloc_n + pending ? "BAD_SECTOR" : "GOOD");
	id->smart_status_reported = 1;
	id->have_bad = 1;
	id->bad_sectors = realloc_n + pending;
	id->have_temp = 1;
	id->temperature_c = SIM_TEMP_C;
	id->have_power_on = 1;
	id->power_on_hours = (uint64_t)(now / 3600000000000LL);
}

/* A simulated drive reports its model: name, rpm, caches, queue, marked simulated. */
static void sim_identify(struct hd_dev *d, struct hd_identity *id, int ask_drive)
{
	const struct hd_sim_model *m = ((struct simdev *)d->priv)->m;

	(void)ask_drive;
	id->simulated = 1;
	snprintf(id->source, sizeof(id->source), "simulated drive model");
	snprintf(id->model, sizeof(id->model), "%.*s", (int)sizeof(id->model) - 1, m->name);
	snprintf(id->firmware, sizeof(id->firmware), "sim");
	id->capacity_bytes = d->size;
	id->rpm_nominal = (int)(m->rpm + 0.5);
	id->write_cache_supported = 1;
	id->write_cache = hd_sim_write_cache(sim_of(d));
	id->read_lookahead_supported = 1;
	id->read_lookahead = m->cache_segment_blocks > 0 && m->readahead != HD_SIM_RA_OFF &&
			     (m->readahead_max_blocks > 0 || m->readahead == HD_SIM_RA_STREAM);
	id->logical_sector_bytes = BLK;
	id->physical_sector_bytes = m->sector_bytes;
	id->ncq_depth = m->queue_depth > 1 ? (int)m->queue_depth : 0;
	/* A model is a conventional drive: it reports no zoned capabilities, as such a drive's IDENTIFY does. */
	id->ata_zoned = HD_ATA_ZONED_NOT_REPORTED;
	id->rotational = 1;
	if (m->smart)
		sim_smart(m, hd_sim_now(sim_of(d)), id);
	else
		snprintf(id->smart_reason, sizeof(id->smart_reason), "simulated drive");
}

/* The engine switches the cache as a drive does on SET FEATURES. */
static int sim_set_write_cache(struct hd_dev *d, int on, char *err, size_t errlen)
{
	struct simdev *sd = d->priv;
	int was = hd_sim_write_cache(sd->s), rc;

	if (was == on)
		return 0;
	rc = hd_sim_set_write_cache(sd->s, on);
	if (rc) {
		snprintf(err, errlen, "%s: cannot turn the write cache %s: %s", d->path, on ? "on" : "off",
			 strerror(-rc));
		return rc;
	}
	/* Switched twice before a restore: the setting before the first is the one to put back. */
	if (!sd->wc_changed)
		sd->wc_was = was;
	sd->wc_changed = 1;
	return 0;
}

static int sim_restore_write_cache(struct hd_dev *d, char *err, size_t errlen)
{
	struct simdev *sd = d->priv;
	int rc;

	if (!sd->wc_changed)
		return 0;
	sd->wc_changed = 0;
	rc = hd_sim_set_write_cache(sd->s, sd->wc_was);
	if (rc)
		snprintf(err, errlen, "%s: cannot restore the write cache: %s", d->path, strerror(-rc));
	return rc;
}

/*
 * A simulated drive has no host scheduler: its clients' requests reach the
 * drive's queue in the order they are issued, as with "none".
 */
static int sim_set_scheduler(struct hd_dev *d, const char *name, char *was, size_t waslen, char *err,
			     size_t errlen)
{
	(void)was;
	(void)waslen;
	if (strcmp(name, "none") == 0)
		return 0;
	snprintf(err, errlen, "%s: a simulated drive has no I/O scheduler (requests reach its queue as with "
		 "'none'); --scheduler %s cannot apply", d->path, name);
	return -ENOTSUP;
}

static const struct hd_dev_ops sim_ops = {
	.name = "sim",
	.read = sim_read,
	.write = sim_write,
	.write_fua = sim_write_fua,
	.now_ns = sim_now,
	.idle_ns = sim_idle,
	.close = sim_close,
	.submit = sim_submit,
	.reap = sim_reap,
	.identify = sim_identify,
	.set_write_cache = sim_set_write_cache,
	.restore_write_cache = sim_restore_write_cache,
	.set_scheduler = sim_set_scheduler,
};

/*
 * The options at the end of a spec, in any order: ",seed=N" and
 * ",host_us=U".  *end receives where the name ends.  0, or -EINVAL with
 * the message in err.
 */
static int sim_spec_opts(const char *spec, const char **end, uint64_t *seed, double *host_us, char *err,
			 size_t errlen)
{
	const char *e = spec + strlen(spec), *c;

	for (;;) {
		size_t n = (size_t)(e - spec);
		char v[64];

		for (c = e; c > spec && c[-1] != ','; c--)
			;
		if (c == spec)
			break;
		c--;
		if (n - (size_t)(c - spec) >= sizeof(v))
			break;
		memcpy(v, c, (size_t)(e - c));
		v[e - c] = '\0';
		if (strncmp(v, ",seed=", 6) == 0) {
			if (hd_parse_u64(v + 6, seed)) {
				snprintf(err, errlen, "sim:%s: bad seed '%s'", spec, v + 6);
				return -EINVAL;
			}
		} else if (strncmp(v, ",host_us=", 9) == 0) {
			char *x;

			*host_us = strtod(v + 9, &x);
			if (x == v + 9 || *x || !(*host_us >= 0 && *host_us <= 1e6)) {
				snprintf(err, errlen, "sim:%s: bad host_us '%s' (microseconds, 0 to 1000000)", spec,
					 v + 9);
				return -EINVAL;
			}
		} else {
			break;
		}
		e = c;
	}
	*end = e;
	return 0;
}

/*
 * spec: "NAME" or "PATH.drive", optionally followed by ",seed=N" (default
 * seed 1), which seeds seek jitter and write retries, and ",host_us=U",
 * the host path's mean delay (host_path).
 */
int hd_sim_open(struct hd_dev *d, const char *spec, int flags, char *err, size_t errlen)
{
	struct simdev *sd;
	char name[4096];
	const char *comma;
	uint64_t seed = 1;
	double host_us = 0;
	int rc;

	if ((rc = sim_spec_opts(spec, &comma, &seed, &host_us, err, errlen)))
		return rc;
	if ((size_t)(comma - spec) >= sizeof(name)) {
		snprintf(err, errlen, "open %s: %s", d->path, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	memcpy(name, spec, comma - spec);
	name[comma - spec] = '\0';
	sd = calloc(1, sizeof(*sd));
	if (!sd) {
		snprintf(err, errlen, "malloc %s: %s", d->path, strerror(ENOMEM));
		return -ENOMEM;
	}
	/* The model's own message says it all: "FILE:LINE: reason", "unknown preset ...". */
	rc = hd_sim_model_load(name, &sd->m, err, errlen);
	if (rc) {
		free(sd);
		return rc;
	}
	if ((rc = hd_sim_new(&sd->s, sd->m, seed))) {
		hd_sim_model_free(sd->m);
		free(sd);
		snprintf(err, errlen, "malloc %s: %s", d->path, strerror(-rc));
		return rc;
	}
	sd->host_ns = host_us * 1e3;
	hd_rng_seed(&sd->host_rng, seed ^ 0x686f7374ULL);
	d->ops = &sim_ops;
	d->kind = HD_DEV_SIM;
	d->size = sd->m->sectors * sd->m->sector_bytes;
	d->logical_sector_bytes = BLK;
	d->physical_sector_bytes = sd->m->sector_bytes;
	d->io_align = BLK;
	d->rotational = 1;
	d->direct = 1;
	d->writable = !!(flags & HD_OPEN_WRITE);
	/* A forced-unit-access write goes through to the media, the cache notwithstanding. */
	d->sync = d->writable && (flags & HD_OPEN_SYNC);
	hd_sim_set_fua(sd->s, d->sync);
	snprintf(d->model, sizeof(d->model), "%s", sd->m->name);
	d->priv = sd;
	return 0;
}
