/*
 * What every probe shares: the run context (device, generator, progress,
 * interruption, consecutive-failure accounting), the cache-hit calibration
 * that labels each access media or cache, the signed distance generator,
 * and the common part of every data file header.
 */
#ifndef HDDSCOPE_PROBE_H
#define HDDSCOPE_PROBE_H

#include <signal.h>
#include <stdint.h>

#include "hddscope/datafile.h"
#include "hddscope/dev.h"
#include "hddscope/identity.h"
#include "hddscope/msg.h"
#include "hddscope/util.h"

/* A run stops after this many failed accesses in a row. */
#define HD_MAX_CONSEC_ERRORS 10

/* Sample classes. */
enum hd_class {
	HD_CLASS_MEDIA,
	HD_CLASS_CACHE,
	HD_CLASS_ERROR,
	/*
	 * A write the calibration cannot place: the drive's cache takes
	 * writes, yet this one was slower than a hit, so it waited for the
	 * cache to make room (its time is an earlier write's destaging) or
	 * went to the media; nothing in its time tells which.  Also a sample
	 * the host kept waiting for a CPU while it was timed (the interval
	 * probe's, after its retries): its time is the host's as much as the
	 * drive's.
	 */
	HD_CLASS_UNKNOWN,
};
const char *hd_class_name(enum hd_class c);

/*
 * Set hd_interrupted (msg.h) on HUP, INT, QUIT or TERM.  Probes stop after
 * the access in flight.
 */
void hd_install_signals(void);

struct hd_run {
	struct hd_dev *dev;
	/*
	 * Two streams from one seed.  rng draws the plan (distances, offsets,
	 * task order): the same seed gives the same plan on any device under
	 * any load.  aux draws what depends on how the device behaved (the
	 * calibration's positions, redone reference reads), so that a cache
	 * hit or a noisy calibration never shifts the plan.
	 */
	struct hd_rng rng;
	struct hd_rng aux;
	uint64_t seed;
	int quiet;
	int progress;		/* draw a progress line (stderr is a terminal, not quiet) */
	const char *test;
	/*
	 * What the progress line counts ("samples" unless a probe says
	 * otherwise), and by how much done and total exceed it: a probe that
	 * counts thousandths of a step sets unit_scale 1000.
	 */
	const char *unit;
	unsigned unit_scale;
	uint64_t total, done;
	int64_t t_start_ns, t_last_draw_ns;
	int consec_errors;
	uint64_t errors;
	int last_err;		/* -errno of the last failed access */
	uint64_t last_err_off;
	enum hd_op last_err_op;
	int64_t cache_threshold_ns;	/* -1: no gap found, every sample is media */
	int64_t cal_hit_p50_ns, cal_media_p50_ns;
	/*
	 * The write calibration (hd_calibrate_writes): 0 before it, and then
	 * writes are labelled by cache_threshold_ns as reads are (a probe
	 * with a calibration of its own sets that).  After it, writes faster
	 * than wcache_threshold_ns are cache and slower ones unknown, or,
	 * with wcache_threshold_ns -1 (the writes reach the media: --sync,
	 * or no write cache), every write is media.
	 */
	int wcal;
	int64_t wcache_threshold_ns;
	/* Set by hd_position: every reference read came from the cache, the head is not known to be there. */
	int unplaced;
	int64_t cal_wrepeat_p50_ns, cal_wfua_p50_ns;
};

void hd_run_init(struct hd_run *r, struct hd_dev *dev, const char *test, uint64_t seed, int quiet);
/* Advance and redraw the progress line (at most ~10 times a second). */
void hd_run_progress(struct hd_run *r, uint64_t done, uint64_t total);
void hd_run_progress_end(struct hd_run *r);

/*
 * Account one access result.  Returns 1 when the run must stop because of
 * HD_MAX_CONSEC_ERRORS failures in a row.
 */
int hd_run_account(struct hd_run *r, int rc, enum hd_op op, uint64_t off);

/* Classify an access of op against the calibrated thresholds (reads', or writes' once calibrated). */
enum hd_class hd_run_classify(const struct hd_run *r, int rc, enum hd_op op, int64_t lat_ns);

/*
 * Calibrate the cache-hit threshold with blocks of len bytes: time
 * guaranteed hits (a block read twice in a row) against media reads at
 * random far-apart positions.  Sets r->cache_threshold_ns (-1 without a
 * gap).  buf holds at least len bytes.  Failed reads are accounted like
 * any access; returns -EIO when HD_MAX_CONSEC_ERRORS of them came in a
 * row, -EINTR when interrupted, else 0.
 */
int hd_calibrate_cache(struct hd_run *r, void *buf, size_t len);

/*
 * Calibrate the labelling of writes of len bytes, after
 * hd_calibrate_cache: at places drawn from r->aux, the same block written
 * again and again (its bytes read first and written back), timed as the
 * run writes and with FUA (hd_dev_timed_fua).  Where the drive's cache
 * takes the run's writes the first are hits, a fraction of a revolution;
 * the second wait a revolution each.  Without FUA writes, half a media
 * read at a random place stands for the second.  Sets r->wcal,
 * r->wcache_threshold_ns (-1 when the plain repeats are not hits),
 * r->cal_wrepeat_p50_ns and r->cal_wfua_p50_ns (-1 without).  Returns as
 * hd_calibrate_cache does.
 */
int hd_calibrate_writes(struct hd_run *r, void *buf, size_t len);

/* Write the header lines every data file carries (device, geometry, run). */
void hd_run_header(struct hd_run *r, struct hd_df_writer *w);

/* Signed distance generator of the seek probe. */
struct hd_dist {
	int log;		/* 1: |d| log-uniform in [min, range]; 0: d uniform in [-range, range] */
	uint64_t min, range;	/* bytes; multiples of align after hd_dist_setup() */
	uint64_t align;
};
/* Round min up and range down to align; -EINVAL when nothing remains. */
int hd_dist_setup(struct hd_dist *p);
int64_t hd_dist_next(struct hd_rng *r, const struct hd_dist *p);


/*
 * Positioning before a timed access: a media read at a
 * reference point.  pick() draws a reference from g; before() (optional)
 * runs before every reference read, e.g. a write probe's untimed read of
 * its target.  The first reference of a sample comes from the plan stream
 * r->rng, once per sample.  A reference read that was a cache hit did not
 * move the head, and is redone, up to HD_AIM_TRIES times, drawing from
 * r->aux so that the plan stream never depends on the cache:
 *  - back_max 0: at a new reference, pick()ed from r->aux (a probe whose
 *    target does not move with the reference, or whose reference is itself
 *    a planned quantity only up to the cache);
 *  - back_max > 0: at the same reference, read as one longer access that
 *    starts up to back_max bytes before it and ends where it did
 *    (read-ahead caches only forward).  The plan's reference, distance and
 *    offset are kept; what the longer read leaves in the cache lies within
 *    back_max behind the reference, so a probe whose targets are never that
 *    near behind it sets back_max no larger than its smallest distance;
 *    the last two tries (windows of 512 KiB and 1 MiB) may reach further
 *    back.
 * When every try came from the cache, r->unplaced is set (the head is
 * wherever the last media access left it) and the sample goes on.
 * Returns 0 with *ref set, or the -errno of the access that failed, with
 * *fail_off and *fail_op naming it and *lat_ns its time.
 */
#define HD_AIM_TRIES 8
struct hd_aim {
	uint64_t (*pick)(struct hd_run *r, struct hd_rng *g, void *arg);
	int (*before)(struct hd_run *r, uint64_t ref, void *arg, uint64_t *fail_off, int64_t *lat_ns);
	void *arg;
	uint64_t back_max;
};
int hd_position(struct hd_run *r, const struct hd_aim *aim, void *buf, size_t len, uint64_t *ref,
		uint64_t *fail_off, enum hd_op *fail_op, int64_t *lat_ns);

/*
 * The probes' commands (each in its own file under src/probe/).  Each
 * takes the arguments after its name and returns the exit code (msg.h).
 */
int hd_cmd_seek(int argc, char **argv);
int hd_cmd_response(int argc, char **argv);
int hd_cmd_media(int argc, char **argv);
int hd_cmd_queue(int argc, char **argv);
int hd_cmd_interval(int argc, char **argv);
int hd_cmd_bench(int argc, char **argv);
int hd_cmd_zone(int argc, char **argv);
int hd_cmd_cache(int argc, char **argv);
int hd_cmd_layout(int argc, char **argv);

/* The identity lines of a data file header (every probe's, and others that describe a drive). */
void hd_identity_header(struct hd_df_writer *w, const struct hd_identity *id);
/*
 * Its last lines: the kernel queue in effect (scheduler, nr_requests,
 * queue_depth), the zoned model (zoned) and the drive's ATA zoned
 * capabilities (ata_zoned); "n/a" where there is no kernel queue, "unknown"
 * where it could not be read.
 */
void hd_queue_header(struct hd_df_writer *w, const struct hd_identity *id);

#endif
