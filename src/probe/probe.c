/*
 * The machinery every probe shares: run context, progress line, signal
 * handling, failure accounting, the cache-hit calibration and the signed
 * distance generator.  Probes build request patterns; this file makes sure
 * they all measure, label and stop the same way.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/probe.h"
#include "hddscope/stats.h"

static void on_signal(int sig)
{
	/* The first signal names the interruption; a second one changes nothing. */
	if (!hd_interrupted)
		hd_interrupted = sig;
}

void hd_install_signals(void)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/*
	 * No SA_RESTART: a sleep in idle_ns ends early, the access in flight
	 * completes.  HUP (a dropped ssh session) and QUIT end a run like
	 * Ctrl-C: their default actions would leave the write cache changed
	 * and the data file unfinished.  A HUP ignored from the start stays
	 * ignored: that is nohup's way of asking a long run to outlive the
	 * session.  (INT and QUIT are not kept so: a shell ignores them in
	 * every background job it starts.)
	 */
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		if (sigs[i] == SIGHUP && sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}

const char *hd_class_name(enum hd_class c)
{
	switch (c) {
	case HD_CLASS_MEDIA: return "media";
	case HD_CLASS_CACHE: return "cache";
	case HD_CLASS_ERROR: return "error";
	case HD_CLASS_UNKNOWN: return "unknown";
	}
	return "error";
}

void hd_run_init(struct hd_run *r, struct hd_dev *dev, const char *test, uint64_t seed, int quiet)
{
	memset(r, 0, sizeof(*r));
	r->dev = dev;
	r->test = test;
	r->unit = "samples";
	r->unit_scale = 1;
	r->seed = seed;
	r->quiet = quiet;
	r->progress = !quiet && isatty(STDERR_FILENO);
	r->cache_threshold_ns = -1;
	r->wcache_threshold_ns = -1;
	hd_rng_seed(&r->rng, seed);
	/* A different start of the same generator: the streams never overlap in practice. */
	hd_rng_seed(&r->aux, seed ^ 0x5ca1ab1e0ddba11ULL);
	r->t_start_ns = hd_mono_ns();
}

void hd_run_progress(struct hd_run *r, uint64_t done, uint64_t total)
{
	int64_t now;
	double el, eta;

	r->done = done;
	r->total = total;
	if (!r->progress)
		return;
	now = hd_mono_ns();
	if (done < total && now - r->t_last_draw_ns < 100000000)
		return;
	r->t_last_draw_ns = now;
	el = (double)(now - r->t_start_ns) / 1e9;
	eta = done ? el * (double)(total - done) / (double)done : 0;
	if (r->unit_scale > 1)
		fprintf(stderr, "\r%s: %.1f/%.0f %s (%3.0f%%)  ETA %4.0fs ", r->test, (double)done / r->unit_scale,
			(double)total / r->unit_scale, r->unit, total ? 100.0 * (double)done / (double)total : 100.0,
			eta);
	else
		fprintf(stderr, "\r%s: %llu/%llu %s (%3.0f%%)  ETA %4.0fs ", r->test, (unsigned long long)done,
			(unsigned long long)total, r->unit, total ? 100.0 * (double)done / (double)total : 100.0,
			eta);
}

void hd_run_progress_end(struct hd_run *r)
{
	if (r->progress && r->t_last_draw_ns)
		fputc('\n', stderr);
}

int hd_run_account(struct hd_run *r, int rc, enum hd_op op, uint64_t off)
{
	if (rc == 0) {
		r->consec_errors = 0;
		return 0;
	}
	r->errors++;
	r->consec_errors++;
	r->last_err = rc;
	r->last_err_off = off;
	r->last_err_op = op;
	return r->consec_errors >= HD_MAX_CONSEC_ERRORS;
}

enum hd_class hd_run_classify(const struct hd_run *r, int rc, enum hd_op op, int64_t lat_ns)
{
	if (rc)
		return HD_CLASS_ERROR;
	if (op == HD_OP_WRITE && r->wcal) {
		if (r->wcache_threshold_ns < 0)
			return HD_CLASS_MEDIA;
		return lat_ns < r->wcache_threshold_ns ? HD_CLASS_CACHE : HD_CLASS_UNKNOWN;
	}
	if (r->cache_threshold_ns >= 0 && lat_ns < r->cache_threshold_ns)
		return HD_CLASS_CACHE;
	return HD_CLASS_MEDIA;
}

#define CAL_N 24

/* One timed calibration read at off: its latency joins lat[] when it succeeded. */
static int cal_read(struct hd_run *r, void *buf, size_t len, uint64_t off, int64_t *lat, int *n)
{
	int64_t ns;
	int rc = hd_dev_timed(r->dev, HD_OP_READ, buf, len, off, &ns);

	if (rc == -EINTR || hd_interrupted)
		return -EINTR;
	if (hd_run_account(r, rc, HD_OP_READ, off))
		return -EIO;
	if (rc == 0)
		lat[(*n)++] = ns;
	return 0;
}

/* Guaranteed hits: the same block read again right away, at CAL_N / 4 places. */
static int cal_hits(struct hd_run *r, void *buf, size_t len, uint64_t nblk, int64_t *hit, int *nh)
{
	struct hd_dev *d = r->dev;
	int rc;

	*nh = 0;
	for (int i = 0; i < CAL_N / 4 && *nh < CAL_N; i++) {
		uint64_t off = hd_rng_below(&r->aux, nblk ? nblk : 1) * d->io_align;

		rc = hd_dev_io(d, HD_OP_READ, buf, len, off);
		if (hd_run_account(r, rc, HD_OP_READ, off))
			return -EIO;
		if (rc)
			continue;
		for (int k = 0; k < 4; k++) {
			rc = cal_read(r, buf, len, off, hit, nh);
			if (rc)
				return rc;
		}
	}
	hd_sort_i64(hit, (size_t)*nh);
	return 0;
}

/* Where the threshold sits above the hits' median: a quarter of it, at least 0.1 ms. */
static int64_t cal_margin(int64_t h50)
{
	return h50 / 4 > 100000 ? h50 / 4 : 100000;
}

/*
 * A calibration's rounds of latencies that should cost the same each time
 * (cur[n], sorted): round_better says whether a round's q-th percentile
 * lies below the one kept so far (best[nb]), round_steady whether its q-th
 * and (100 - q)-th lie within the margin of each other.
 */
static int round_better(const int64_t *cur, int n, const int64_t *best, int nb, int q)
{
	return nb < 4 || hd_percentile_i64(cur, (size_t)n, q) < hd_percentile_i64(best, (size_t)nb, q);
}

static int round_steady(const int64_t *cur, int n, int q)
{
	return hd_percentile_i64(cur, (size_t)n, q) - hd_percentile_i64(cur, (size_t)n, 100 - q) <=
	       cal_margin(hd_percentile_i64(cur, (size_t)n, 50));
}

/*
 * A hit's cost is steady, so hits whose middle half spreads wider than
 * the margin met a host that kept them waiting (on the emulated drive, a
 * quarter of one round's hits at 3.7 ms where they cost 1.28 put the
 * threshold at 4 ms, and the seek samples short of it were called hits):
 * the hits are taken again, up to CAL_HIT_ROUNDS rounds, and the round
 * with the least upper quartile kept.
 */
#define CAL_HIT_ROUNDS 3
static int cal_steady_hits(struct hd_run *r, void *buf, size_t len, uint64_t nblk, int64_t *hit, int *nh)
{
	int64_t cur[CAL_N];
	int n, rc;

	*nh = 0;
	for (int round = 0; round < CAL_HIT_ROUNDS; round++) {
		rc = cal_hits(r, buf, len, nblk, cur, &n);
		if (rc)
			return rc;
		if (n < 4)
			continue;
		if (round_better(cur, n, hit, *nh, 75)) {
			memcpy(hit, cur, (size_t)n * sizeof(*cur));
			*nh = n;
		}
		if (round_steady(cur, n, 75))
			break;
	}
	return 0;
}

/*
 * The hits' own cluster, of the sorted hits: those within the margin of
 * their lower quartile, where that holds at least half of them (else all).
 * A drive busy with its read-ahead when a hit arrives keeps it waiting
 * some milliseconds (the emulated atlas3: one re-read in five at 5.8 to
 * 7.1 ms among hits at 1.22, in every round, which put the upper quartile
 * and the threshold at 4 to 7 ms now and then): those are no cost of a
 * hit, and a threshold above them calls media reads with a short
 * rotational wait hits.  Returns how many of the least hits it holds.
 */
static int hit_cluster(const int64_t *hit, int nh)
{
	int64_t lo = hd_percentile_i64(hit, (size_t)nh, 25), top = lo + cal_margin(lo);
	int n = 0;

	while (n < nh && hit[n] <= top)
		n++;
	return 2 * n >= nh ? n : nh;
}

int hd_calibrate_cache(struct hd_run *r, void *buf, size_t len)
{
	struct hd_dev *d = r->dev;
	int64_t hit[CAL_N], media[CAL_N];
	uint64_t nblk = (d->size - len) / d->io_align;
	int nh = 0, nm = 0, rc;

	r->cache_threshold_ns = -1;
	/*
	 * Media reads at random positions: each lands far from the last one,
	 * so neither a read cache nor read-ahead can serve it.  Alternating
	 * halves of the device keeps every step long.
	 */
	for (int i = 0; i < CAL_N; i++) {
		uint64_t half = nblk / 2, blk = hd_rng_below(&r->aux, half ? half : 1);
		uint64_t off = ((i & 1) ? blk + half : blk) * d->io_align;

		rc = cal_read(r, buf, len, off, media, &nm);
		if (rc)
			return rc;
	}
	rc = cal_steady_hits(r, buf, len, nblk, hit, &nh);
	if (rc)
		return rc;
	/* Too few good reads to tell hits from media: label everything media. */
	if (nh < 4 || nm < 4)
		return 0;
	hd_sort_i64(media, (size_t)nm);
	nh = hit_cluster(hit, nh);
	r->cal_hit_p50_ns = hd_percentile_i64(hit, (size_t)nh, 50);
	r->cal_media_p50_ns = hd_percentile_i64(media, (size_t)nm, 50);
	{
		int64_t h50 = r->cal_hit_p50_ns, h75 = hd_percentile_i64(hit, (size_t)nh, 75);
		int64_t m10 = hd_percentile_i64(media, (size_t)nm, 10);
		int64_t thr = h75 + cal_margin(h50);

		/*
		 * A gap means hits and media reads are different populations.  The
		 * threshold sits just above the hits (a hit's cost is steady: command
		 * overhead plus the transfer), since a media access to a nearby
		 * block can cost little more than a hit plus a head switch.  Their
		 * upper quartile, not their tail: on a busy host a few hits wait
		 * milliseconds for the CPU, and a threshold above those would call
		 * media reads with a short rotational wait hits.  On an SSD or a
		 * RAM-backed device there is no gap: everything is media.
		 */
		if (m10 > 2 * h75 && thr < m10)
			r->cache_threshold_ns = thr;
	}
	return 0;
}

#define WCAL_PLACES 6
#define WCAL_REPEATS 4

/*
 * One place of the write calibration: its bytes read, written once
 * untimed, then WCAL_REPEATS writes of the same bytes timed as the run
 * writes (into plain[]) and as many with FUA (into fua[], while *fua_ok).
 */
static int wcal_place(struct hd_run *r, void *buf, size_t len, uint64_t off, int64_t *plain, int *np,
		      int64_t *fua, int *nf, int *fua_ok)
{
	int rc = hd_dev_io(r->dev, HD_OP_READ, buf, len, off);

	if (!rc)
		rc = hd_dev_io(r->dev, HD_OP_WRITE, buf, len, off);
	if (rc == -EINTR || hd_interrupted)
		return -EINTR;
	if (hd_run_account(r, rc, rc ? HD_OP_READ : HD_OP_WRITE, off))
		return -EIO;
	for (int k = 0; !rc && k < 2 * WCAL_REPEATS; k++) {
		int with_fua = k >= WCAL_REPEATS;
		int64_t ns;

		if (with_fua && !*fua_ok)
			break;
		/*
		 * A plain write follows a read, as a probe's timed write follows its
		 * positioning read: a drive that writes its one write segment out
		 * before it serves another request (DiskSim's fast write level 2)
		 * then takes the write into a clean cache, as it takes the probes'.
		 */
		if (!with_fua && (rc = hd_dev_io(r->dev, HD_OP_READ, buf, len, off)) != 0) {
			if (rc == -EINTR || hd_interrupted)
				return -EINTR;
			if (hd_run_account(r, rc, HD_OP_READ, off))
				return -EIO;
			continue;
		}
		rc = with_fua ? hd_dev_timed_fua(r->dev, buf, len, off, &ns)
			      : hd_dev_timed(r->dev, HD_OP_WRITE, buf, len, off, &ns);
		if (rc == -ENOTSUP && with_fua) {
			*fua_ok = 0;
			return 0;
		}
		if (rc == -EINTR || hd_interrupted)
			return -EINTR;
		if (hd_run_account(r, rc, HD_OP_WRITE, off))
			return -EIO;
		if (!rc && with_fua)
			fua[(*nf)++] = ns;
		else if (!rc)
			plain[(*np)++] = ns;
	}
	return 0;
}

/*
 * The write calibration's repeats, as the read calibration's hits: the
 * same write again costs the same each time, so repeats whose 10th to
 * 90th percentiles (the threshold stands on the 90th) lie wider apart
 * than the margin met a host that kept some waiting, and the places are
 * taken again (fresh ones), up to CAL_HIT_ROUNDS rounds; the round with
 * the least 90th percentile of its plain repeats is kept, with its FUA
 * writes.  The plain repeats come back sorted.
 */
static int wcal_steady(struct hd_run *r, void *buf, size_t len, int64_t *plain, int *np, int64_t *fua, int *nf)
{
	struct hd_dev *d = r->dev;
	uint64_t nblk = (d->size - len) / d->io_align;
	int64_t p[WCAL_PLACES * WCAL_REPEATS], f[WCAL_PLACES * WCAL_REPEATS];
	int fua_ok = 1, rc;

	*np = *nf = 0;
	for (int round = 0; round < CAL_HIT_ROUNDS; round++) {
		int n = 0, m = 0;

		for (int i = 0; i < WCAL_PLACES; i++) {
			uint64_t off = hd_rng_below(&r->aux, nblk ? nblk : 1) * d->io_align;

			if ((rc = wcal_place(r, buf, len, off, p, &n, f, &m, &fua_ok)))
				return rc;
		}
		if (n < 4)
			continue;
		hd_sort_i64(p, (size_t)n);
		if (round_better(p, n, plain, *np, 90)) {
			memcpy(plain, p, (size_t)n * sizeof(*p));
			memcpy(fua, f, (size_t)m * sizeof(*f));
			*np = n;
			*nf = m;
		}
		if (round_steady(p, n, 90))
			break;
	}
	return 0;
}

int hd_calibrate_writes(struct hd_run *r, void *buf, size_t len)
{
	int64_t plain[WCAL_PLACES * WCAL_REPEATS], fua[WCAL_PLACES * WCAL_REPEATS], h90, m10, margin;
	int np = 0, nf = 0, rc;

	r->wcal = 1;
	r->wcache_threshold_ns = -1;
	r->cal_wrepeat_p50_ns = r->cal_wfua_p50_ns = -1;
	if ((rc = wcal_steady(r, buf, len, plain, &np, fua, &nf)))
		return rc;
	if (np < 4)
		return 0;
	r->cal_wrepeat_p50_ns = hd_percentile_i64(plain, (size_t)np, 50);
	h90 = hd_percentile_i64(plain, (size_t)np, 90);
	margin = cal_margin(r->cal_wrepeat_p50_ns);
	/*
	 * A repeated write that reaches the media waits for its sector to come
	 * round again, a revolution; one the cache takes costs the command and
	 * the transfer.  The writes with FUA are the first kind for sure; where
	 * the system cannot send them, a revolution is about what a media read
	 * at a random place costs, so half of that stands in.  The threshold
	 * sits just above the plain repeats when they are the second kind.
	 */
	if (nf >= 4) {
		hd_sort_i64(fua, (size_t)nf);
		r->cal_wfua_p50_ns = hd_percentile_i64(fua, (size_t)nf, 50);
		m10 = hd_percentile_i64(fua, (size_t)nf, 10);
	} else if (r->cal_media_p50_ns > 0) {
		m10 = r->cal_media_p50_ns / 2;
	} else {
		return 0;
	}
	if (m10 > 2 * h90 && h90 + margin < m10)
		r->wcache_threshold_ns = h90 + margin;
	return 0;
}

void hd_run_header(struct hd_run *r, struct hd_df_writer *w)
{
	struct hd_dev *d = r->dev;
	char when[32];

	hd_dfw_meta(w, "device", "%s", d->path);
	hd_dfw_meta(w, "device_kind", "%s", hd_dev_kind_name(d->kind));
	hd_dfw_meta(w, "capacity_bytes", "%llu", (unsigned long long)d->size);
	hd_dfw_meta(w, "sector_bytes", "%u", d->logical_sector_bytes);
	hd_dfw_meta(w, "physical_sector_bytes", "%u", d->physical_sector_bytes);
	hd_dfw_meta(w, "rotational", "%s", d->rotational < 0 ? "unknown" : d->rotational ? "yes" : "no");
	hd_dfw_meta(w, "direct_io", "%s", d->direct ? "yes" : "no");
	hd_dfw_meta(w, "hddscope_version", "%s", HDDSCOPE_VERSION);
	hd_dfw_meta(w, "started", "%s", hd_utc_now(when, sizeof(when)));
}

int hd_dist_setup(struct hd_dist *p)
{
	if (p->align == 0)
		return -EINVAL;
	p->min = (p->min + p->align - 1) / p->align * p->align;
	if (p->min == 0)
		p->min = p->align;
	p->range = p->range / p->align * p->align;
	if (p->range == 0 || (p->log && p->min > p->range))
		return -EINVAL;
	return 0;
}

int64_t hd_dist_next(struct hd_rng *r, const struct hd_dist *p)
{
	uint64_t units = p->range / p->align, mag;

	if (!p->log) {
		/* Uniform over every aligned d in [-range, +range]. */
		uint64_t k = hd_rng_below(r, 2 * units + 1);
		return ((int64_t)k - (int64_t)units) * (int64_t)p->align;
	}
	{
		double lo = log((double)p->min), hi = log((double)p->range);
		double m = exp(lo + hd_rng_uniform(r) * (hi - lo));

		mag = (uint64_t)llround(m / (double)p->align) * p->align;
		if (mag < p->min)
			mag = p->min;
		if (mag > p->range)
			mag = p->range;
	}
	return (hd_rng_next(r) >> 63) ? -(int64_t)mag : (int64_t)mag;
}

/*
 * Redo a reference read that hit the cache, keeping the reference: read
 * [ref - back, ref + len) in one access.  The part before ref is not in
 * the cache (read-ahead only caches forward, and back grows with every
 * try), so the drive goes to the media and the head ends where a media
 * read of ref would have left it.  The longer read cannot be judged by the
 * threshold calibrated with len bytes, so it is read again at once: a
 * drive that went to the media the first time serves the second from its
 * cache, more than twice as fast, or, where the interface is slow enough
 * that the transfer of the longer read outweighs the positioning, faster
 * by more than the calibration's margin between a hit and a media read
 * (two hits of one block cost the same).  back comes from the aux stream,
 * within a window of 16 KiB at the first redo that doubles with every try
 * up to aim->back_max: small enough at first that the longer read fits a
 * small cache segment (else its second read goes to the media too, and
 * tells nothing).  Returns 1
 * when the head is at ref, 0 when the read came from the cache again, or
 * -errno with *fail_off set.
 */
static int aim_extend(struct hd_run *r, const struct hd_aim *aim, uint64_t ref, size_t len, int tries,
		      uint64_t *fail_off, int64_t *lat_ns)
{
	uint64_t al = r->dev->io_align, max = (uint64_t)8 << 10 << tries, back;
	int64_t again = 0;
	void *buf;
	int rc;

	/*
	 * The last tries may start further back than back_max: a target that
	 * near behind the reference may then come from the cache and be
	 * labelled so, which is better than a head in an unknown place.
	 */
	if (max > aim->back_max && tries < HD_AIM_TRIES - 2)
		max = aim->back_max;
	if (max > ref)
		max = ref;
	max = max / al * al;
	if (max == 0)
		return 0;
	back = max - hd_rng_below(&r->aux, max / al / 2 + 1) * al;
	buf = hd_buf_alloc(r->dev, back + len);
	if (!buf)
		return -ENOMEM;
	*fail_off = ref - back;
	rc = hd_dev_timed(r->dev, HD_OP_READ, buf, back + len, ref - back, lat_ns);
	if (rc == 0 && *lat_ns >= r->cache_threshold_ns && !hd_interrupted)
		rc = hd_dev_timed(r->dev, HD_OP_READ, buf, back + len, ref - back, &again);
	hd_buf_free(buf, back + len);
	if (rc)
		return rc;
	return *lat_ns >= r->cache_threshold_ns &&
	       (*lat_ns > 2 * again || *lat_ns - again > r->cache_threshold_ns - r->cal_hit_p50_ns);
}

int hd_position(struct hd_run *r, const struct hd_aim *aim, void *buf, size_t len, uint64_t *ref,
		uint64_t *fail_off, enum hd_op *fail_op, int64_t *lat_ns)
{
	int rc;

	*ref = aim->pick(r, &r->rng, aim->arg);
	r->unplaced = 1;
	for (int tries = 0; tries < HD_AIM_TRIES; tries++) {
		if (tries && !aim->back_max)
			*ref = aim->pick(r, &r->aux, aim->arg);
		if (aim->before) {
			rc = aim->before(r, *ref, aim->arg, fail_off, lat_ns);
			if (rc) {
				*fail_op = HD_OP_READ;
				return rc;
			}
		}
		if (tries == 0 || !aim->back_max) {
			*fail_off = *ref;
			rc = hd_dev_timed(r->dev, HD_OP_READ, buf, len, *ref, lat_ns);
			rc = rc ? rc : hd_run_classify(r, 0, HD_OP_READ, *lat_ns) == HD_CLASS_MEDIA;
		} else {
			rc = aim_extend(r, aim, *ref, len, tries, fail_off, lat_ns);
		}
		if (rc < 0) {
			*fail_op = HD_OP_READ;
			return rc;
		}
		if (rc > 0) {
			r->unplaced = 0;
			break;
		}
		if (hd_interrupted)
			break;
	}
	return 0;
}

void hd_identity_header(struct hd_df_writer *w, const struct hd_identity *id)
{
	hd_dfw_meta(w, "model", "%s", id->model[0] ? id->model : "unknown");
	hd_dfw_meta(w, "serial", "%s", id->serial[0] ? id->serial : "unknown");
	hd_dfw_meta(w, "firmware", "%s", id->firmware[0] ? id->firmware : "unknown");
	if (id->rpm_nominal > 1)
		hd_dfw_meta(w, "rpm_nominal", "%d", id->rpm_nominal);
	else
		hd_dfw_meta(w, "rpm_nominal", "%s", id->rpm_nominal == 1 ? "non-rotating" : "unknown");
	hd_dfw_meta(w, "write_cache", "%s", hd_onoff(id->write_cache));
	hd_dfw_meta(w, "read_lookahead", "%s", hd_onoff(id->read_lookahead));
	hd_dfw_meta(w, "smart_overall", "%s", id->smart_available ? id->smart_overall : "unknown");
	if (id->smart_available && id->have_bad)
		hd_dfw_meta(w, "smart_bad_sectors", "%llu", (unsigned long long)id->bad_sectors);
	if (!id->smart_available)
		hd_dfw_meta(w, "smart", "not available (%s)", id->smart_reason[0] ? id->smart_reason : "unknown");
	hd_dfw_meta(w, "identity_source", "%s", id->source);
	hd_queue_header(w, id);
}

void hd_queue_header(struct hd_df_writer *w, const struct hd_identity *id)
{
	char b[24];

	hd_dfw_meta(w, "scheduler", "%s", hd_queue_scheduler_word(id));
	hd_dfw_meta(w, "nr_requests", "%s", hd_queue_int_word(id, id->nr_requests, b, sizeof(b)));
	hd_dfw_meta(w, "queue_depth", "%s", hd_queue_int_word(id, id->queue_depth, b, sizeof(b)));
	hd_dfw_meta(w, "zoned", "%s", hd_queue_zoned_word(id));
	hd_dfw_meta(w, "ata_zoned", "%s", hd_ata_zoned_word(id));
}
