/*
 * The cache probe: the drive's read cache, read-ahead, write cache and
 * command overheads, by DIXtrac's kind of experiment (Schindler & Ganger,
 * CMU-CS-99-176), timed from the host.  Each phase is a pattern of reads
 * (and, with --write, data-preserving writes) whose rows fit reads back:
 *
 *  hit     a block read, then read again at once: cache hits of one sector,
 *          --block and four blocks (the hit window that labels every other
 *          read, and the interface rate);
 *  ra      a read, an idle wait long enough for the prefetch to finish, a
 *          read at a growing distance past its end (x: the distance);
 *  seg     k interleaved sequential streams (x: k): each stream's first
 *          block read at a place of its own with a short pause, then each
 *          stream's next block, round-robin, twice; with no read-ahead the
 *          streams' own blocks are read again instead;
 *  span    a read of x bytes, then its first block again at once;
 *  mtbrc   a read, then at once a read x bytes past its end: the reads the
 *          drive serves from the media with no positioning;
 *  wsize   (--write) a single write of x bytes after reading them, the
 *          same bytes written back;
 *  wfill   (--write) blocks of a --span region read into memory, then
 *          written back one block at a time in random order, back to back
 *          (x: the write's index), until the latency has stepped to media
 *          speed for a while.
 *
 * Every place is fresh (drawn from the plan stream, far from the last), so
 * that one trial's cached data never serves another's.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/cli.h"
#include "hddscope/msg.h"
#include "hddscope/probes.h"
#include "hddscope/session.h"
#include "hddscope/stats.h"

#define O(member) offsetof(struct hd_cache_opts, member)

/* The segment-window trials' distances a pass: at most (--window-points). */
#define WINDOW_MAX 64

static const struct hd_option cache_options[] = {
	HD_BLOCK_OPTION("block", struct hd_cache_opts, block, "4k", "bytes per probing access"),
	{ .name = "reps", .kind = HD_OPT_COUNT, .arg = "N", .off = O(reps), .def = "3", .lo = 1, .hi = 1000,
	  .help = "trials per distance (read-ahead) and per size (segment)" },
	{ .name = "streams", .kind = HD_OPT_COUNT, .arg = "N", .off = O(streams), .def = "40", .lo = 2, .hi = 1024,
	  .help = "most interleaved streams (segments counted up to N - 2)" },
	{ .name = "idle", .kind = HD_OPT_DURATION, .arg = "DURATION", .off = O(idle_ns),
	  .given = HD_OPT_GIVEN(struct hd_cache_opts, have_idle), .shown = "5 revolutions, at least 20ms",
	  .help = "wait after a read for its read-ahead to finish" },
	{ .name = "max-reach", .kind = HD_OPT_SIZE, .arg = "SIZE", .off = O(max_reach), .def = "16m", .lo = 4096,
	  .hi = 1ull << 30, .help = "largest read-ahead distance and segment size tried" },
	{ .name = "even", .kind = HD_OPT_COUNT, .arg = "N", .off = O(even), .def = "64", .lo = 8, .hi = 10000,
	  .help = "read-ahead trials at evenly spread distances, per --reps, where the hits fade gradually" },
	{ .name = "window-points", .kind = HD_OPT_COUNT, .arg = "N", .off = O(window_points), .def = "32", .lo = 8,
	  .hi = WINDOW_MAX, .help = "distances in each of the two passes of the segment-window trials" },
	{ .name = "span", .kind = HD_OPT_SIZE, .arg = "SIZE", .off = O(span), .def = "64m", .lo = 1 << 20,
	  .hi = 1ull << 30, .writes = 1, .help = "region the write-cache fill writes back (held in memory)" },
	{ .kind = HD_OPT_END },
};

static const struct hd_cmdspec cache_spec = {
	HD_PROBE_SPEC("cache", "[OPTIONS] [DEVICE]"),
	.intro = "The drive's cache and overheads, DIXtrac's way: cache hits by size (hit\n"
		 "window, interface rate), read-ahead reach (a read, an idle wait, a read at a\n"
		 "growing distance past it), the number of read segments (k interleaved\n"
		 "sequential streams read round-robin: hits collapse once k exceeds the\n"
		 "segments), the span a segment holds (a read, then its first block again) and\n"
		 "reads served from the media with no positioning (the read overhead).  With\n"
		 "--write also single writes of growing size and a back-to-back fill of the\n"
		 "write cache, both data-preserving (the blocks are read first and the same\n"
		 "bytes written back): the write cache's size and the write overhead.  fit\n"
		 "turns the rows into figures.\n"
		 "\n",
	.opts = cache_options,
	.outro = "\n"
		 "Output: cache.tsv unless -o is given.\n",
	.writes = 1,
};

/* The probe's state: the session, its buffers, the hit window. */
struct cx {
	struct hd_session s;
	struct hd_dev *d;
	uint64_t block, al, sector;
	void *buf, *buf2;
	int64_t idle_ns, rev_ns;
	int64_t hit_lo_ns, hit_hi_ns;	/* a read of block bytes inside this window is a hit */
	int have_window;
	int64_t wcached_ns;	/* the first single write (a block), the cached writes' cost; 0: none */
	uint64_t wsize_on;	/* the largest single write on the cached writes' line */
	uint64_t planned;	/* about the accesses the run will time, for the progress line */
	uint64_t even;		/* read-ahead trials at even distances, per rep (--even) */
	int wpoints;		/* segment-window distances a pass (--window-points) */
};

/*
 * A place for len bytes, anywhere they fit, from the plan stream; aligned
 * to the physical sector, so that no write covers part of one (a drive
 * reads the rest of such a sector first).
 */
static uint64_t cx_place(struct cx *c, uint64_t len)
{
	uint64_t units = (c->d->size - len) / c->sector;

	return hd_rng_below(&c->s.run.rng, units ? units : 1) * c->sector;
}

/* Place i of k spread over the device: a random place within the first half of its slot. */
static uint64_t cx_slot(struct cx *c, uint64_t i, uint64_t k, uint64_t len)
{
	uint64_t slot = (c->d->size - len) / k / c->sector, half = slot / 2 ? slot / 2 : 1;

	return (i * slot + hd_rng_below(&c->s.run.rng, half)) * c->sector;
}

/* An untimed access; 1 when the run must stop. */
static int cx_io(struct cx *c, enum hd_op op, void *buf, uint64_t len, uint64_t off)
{
	int rc = hd_dev_io(c->d, op, buf, len, off);

	if (hd_run_account(&c->s.run, rc, op, off))
		c->s.fatal = 1;
	return hd_session_stop(&c->s);
}

/*
 * One timed access and its row.  A read of block bytes is labelled by the
 * hit window (a cache hit costs the same every time: the overhead and the
 * transfer), other reads by the session's threshold; writes are unknown,
 * fit tells them apart by their pattern.  *lat receives the latency (-1
 * on failure).  Returns 1 when the run must stop.
 */
static int cx_timed(struct cx *c, const char *phase, uint64_t x, enum hd_op op, void *buf, uint64_t len,
		    uint64_t off, int64_t *lat)
{
	enum hd_class cls;
	int64_t ns = 0;
	int rc = hd_dev_timed(c->d, op, buf, len, off, &ns);

	if (rc == -EINTR && hd_interrupted)
		return 1;
	hd_session_sample(&c->s, rc, op, off, ns, &cls);
	if (!rc && op == HD_OP_WRITE && cls != HD_CLASS_UNKNOWN) {
		c->s.nmedia -= cls == HD_CLASS_MEDIA;
		c->s.ncache -= cls == HD_CLASS_CACHE;
		cls = HD_CLASS_UNKNOWN;
		c->s.nunknown++;
	} else if (!rc && op == HD_OP_READ && c->have_window && len == c->block) {
		enum hd_class w = ns >= c->hit_lo_ns && ns <= c->hit_hi_ns ? HD_CLASS_CACHE : HD_CLASS_MEDIA;

		if (w != cls) {
			c->s.nmedia += (w == HD_CLASS_MEDIA) - (cls == HD_CLASS_MEDIA);
			c->s.ncache += (w == HD_CLASS_CACHE) - (cls == HD_CLASS_CACHE);
			cls = w;
		}
	}
	fprintf(c->s.rows, "%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t", phase, x, off, len);
	hd_put_ms(c->s.rows, rc ? 0 : ns);
	fprintf(c->s.rows, "\t%s\t%s\n", hd_op_name(op), hd_class_name(cls));
	*lat = rc ? -1 : ns;
	hd_run_progress(&c->s.run, c->s.nrows, c->s.nrows < c->planned ? c->planned : c->s.nrows + 1);
	return hd_session_stop(&c->s);
}

static int cx_hit(struct cx *c, int64_t lat)
{
	return lat >= c->hit_lo_ns && lat <= c->hit_hi_ns;
}

static void cx_idle(struct cx *c, int64_t ns)
{
	if (ns > 0)
		hd_dev_idle(c->d, ns);
}

#define HIT_PLACES 8

/*
 * Hits by size: a block read, then read twice more at once.  The window is
 * the block-size hits' range widened by their spread, at least 20 us or 3%.
 */
static int phase_hit(struct cx *c)
{
	uint64_t sizes[3] = { c->sector, c->block, 4 * c->block };
	int64_t h[2 * HIT_PLACES], lat, lo, hi, tol;
	int nh = 0;

	for (int k = 0; k < 3; k++)
		for (int i = 0; i < HIT_PLACES; i++) {
			uint64_t off = cx_place(c, sizes[k]);

			if (cx_io(c, HD_OP_READ, c->buf2, sizes[k], off))
				return 1;
			for (int r = 0; r < 2; r++) {
				if (cx_timed(c, "hit", sizes[k], HD_OP_READ, c->buf2, sizes[k], off, &lat))
					return 1;
				if (k == 1 && lat >= 0)
					h[nh++] = lat;
			}
		}
	if (nh < 4)
		return 0;
	hd_sort_i64(h, (size_t)nh);
	/*
	 * A re-read that waited for its sector to come round is no hit, steady
	 * as it is: a hit takes under half a media read at a random place.
	 */
	if (!(2 * h[nh / 2] < c->s.run.cal_media_p50_ns))
		return 0;
	/*
	 * Nor is a re-read that took over twice the median part of the hits'
	 * range (it waited for its sector, or for the host): three of sixteen
	 * at 3.8 to 7 ms beside hits of 1.2 ms once took the window to 24 ms
	 * through an emulated drive, and every read of the probe with it.
	 */
	for (int m = nh / 2; nh > m + 1 && h[nh - 1] > 2 * h[m];)
		nh--;
	lo = h[0];
	hi = h[nh - 1];
	tol = (h[nh * 9 / 10] - h[nh / 10]) * 3;
	if (tol < 20000)
		tol = 20000;
	if (tol < h[nh / 2] * 3 / 100)
		tol = h[nh / 2] * 3 / 100;
	c->hit_lo_ns = lo - tol;
	c->hit_hi_ns = hi + tol;
	c->have_window = 1;
	hd_dfw_meta(c->s.w, "hit_window_ms", "%.6f %.6f", (double)c->hit_lo_ns / 1e6, (double)c->hit_hi_ns / 1e6);
	return 0;
}

/* The geometric grid's j-th point: base * 2^(j/per), aligned, at least base. */
static uint64_t grid_at(uint64_t base, int j, int per, uint64_t al)
{
	double v = (double)base * pow(2.0, (double)j / per);
	uint64_t u = (uint64_t)llround(v / (double)al) * al;

	return u < base ? base : u;
}

/*
 * One read-ahead trial: a block at a fresh place, the idle wait, a block d
 * past it; 1 to stop.  The wait is longer by a fraction of a revolution
 * drawn from the plan: a whole number of revolutions would bring every
 * trial's second read to the same phase, and a media read that happens to
 * take a hit's time would do so in every trial at that distance.
 */
static int ra_trial(struct cx *c, const char *phase, uint64_t d, int *hit)
{
	uint64_t p = cx_place(c, 2 * c->block + d);
	double u = hd_rng_uniform(&c->s.run.rng);
	int64_t lat;

	if (cx_timed(c, "ra-first", 0, HD_OP_READ, c->buf, c->block, p, &lat))
		return 1;
	cx_idle(c, c->idle_ns + (int64_t)(u * (double)c->rev_ns));
	if (cx_timed(c, phase, d, HD_OP_READ, c->buf, c->block, p + c->block + d, &lat))
		return 1;
	*hit = lat >= 0 && cx_hit(c, lat);
	return 0;
}

/*
 * Read-ahead reach: at distance 0, then 4 points an octave from one block
 * to --max-reach, --reps trials each.  Ends after 8 points in a row with no
 * hit (two octaves past the reach).  Where the hits do not end in one step
 * (some points hit in some trials only, or a point hits after one that
 * missed: read-ahead that depends on where the read lies on its track),
 * --even x --reps more trials at distances spread evenly, with a random
 * jitter, up to twice the grid point after the last hit (the grid may have
 * missed the last hits of a sparse tail): their mean, unlike the
 * grid's, weighs every distance alike.  Returns 1 to stop; *any says
 * whether some distance hit in most of its trials (read-ahead).
 */
static int phase_ra(struct cx *c, uint64_t reps, uint64_t max, int *any)
{
	int dry = 0, j = -1, gradual = 0, missed = 0, hit;
	uint64_t prev = UINT64_MAX, after = 0, total = 0, trials = 0;

	*any = 0;
	for (;; j++) {
		uint64_t d = j < 0 ? 0 : grid_at(c->block, j, 4, c->al);
		uint64_t hits = 0;

		if (d > max || dry >= 8)
			break;
		if (d == prev)
			continue;
		prev = d;
		for (uint64_t r = 0; r < reps; r++) {
			if (ra_trial(c, "ra", d, &hit))
				return 1;
			hits += hit;
		}
		gradual |= (hits && hits < reps) || (hits && missed);
		missed |= !hits && total;
		total += hits;
		trials += reps;
		if (hits)
			after = 0;
		else if (total && !after)
			after = 2 * d;
		dry = hits ? 0 : dry + 1;
	}
	/* Read-ahead: more hits than a media read's chance of taking a hit's time explains. */
	*any = total >= 3 && total * 20 >= trials;
	if (!*any || !gradual || !after)
		return 0;
	hd_dfw_meta(c->s.w, "readahead_even_range_bytes", "%" PRIu64, after);
	for (uint64_t i = 0, n = c->even * reps; i < n; i++) {
		double u = ((double)i + hd_rng_uniform(&c->s.run.rng)) / (double)n;
		uint64_t d = (uint64_t)(u * (double)after) / c->al * c->al;

		if (ra_trial(c, "ra-even", d, &hit))
			return 1;
	}
	return 0;
}

/*
 * k interleaved streams, k = 1, 2, ...: each stream's first block with a
 * pause of a millisecond (read-ahead covers the next block, and wraps no
 * segment), then two rounds of each stream's next block: the first finds
 * it read ahead, the second still cached, while k is at most the segments;
 * past them every read misses, and each miss takes the least recently used
 * segment, the one the stream read next would need.  Where nothing was
 * read ahead, the streams' own blocks are read again instead.  Ends after
 * two k in a row where fewer than half hit.
 */
static int phase_seg(struct cx *c, uint64_t kmax, int readahead)
{
	uint64_t *q = calloc(kmax, sizeof(*q));
	int low = 0, rc = 0;

	if (!q) {
		hd_err("%s: out of memory", c->d->path);
		c->s.fatal = 1;
		return 1;
	}
	for (uint64_t k = 1; k <= kmax && low < 2 && !rc; k++) {
		uint64_t hits = 0, n = 0;
		int64_t lat;

		for (uint64_t i = 0; i < k && !rc; i++) {
			q[i] = cx_slot(c, i, k, 4 * c->block);
			rc = cx_timed(c, "seg-first", k, HD_OP_READ, c->buf, c->block, q[i], &lat);
			cx_idle(c, 1000000);
		}
		for (int round = 1; round <= 2 && !rc; round++)
			for (uint64_t i = 0; i < k && !rc; i++) {
				uint64_t off = readahead ? q[i] + c->block : q[i];

				rc = cx_timed(c, "seg", k, HD_OP_READ, c->buf, c->block, off, &lat);
				hits += lat >= 0 && cx_hit(c, lat);
				n++;
			}
		low = hits * 2 < n ? low + 1 : 0;
	}
	free(q);
	return rc;
}

/*
 * The span a segment holds: a read of L bytes, then its first block at
 * once, L from two blocks up at 4 points an octave.  Ends after 4 sizes in
 * a row where the first block missed in every trial.
 */

/* One window trial: a read of L bytes at a fresh place, then at once a block x past its start; 1 to stop. */
static int window_trial(struct cx *c, void *big, uint64_t L, uint64_t x, const char *phase, int *hit)
{
	uint64_t p = cx_place(c, 2 * L + c->block);
	int64_t lat;

	if (cx_timed(c, "window-first", x, HD_OP_READ, big, L, p, &lat) ||
	    cx_timed(c, phase, x, HD_OP_READ, c->buf, c->block, p + x, &lat))
		return 1;
	*hit = lat >= 0 && cx_hit(c, lat);
	return 0;
}

/* A buffer of len bytes for one access (what: "read" or "write"); NULL, the run marked fatal, without memory. */
static void *cx_buf(struct cx *c, uint64_t len, const char *what)
{
	void *b = hd_buf_alloc(c->d, len);

	if (!b) {
		hd_err("%s: out of memory for a %" PRIu64 "-byte %s", c->d->path, len, what);
		c->s.fatal = 1;
	}
	return b;
}

/*
 * The window a segment holds right after a read that fills it: a read of L
 * bytes (twice the first size whose first block did not stay cached, and
 * at least 256 KiB, so that it crosses a track and its read-ahead is not
 * cut short by the track's end), then at once one block at a distance x
 * from the read's start, a fresh place each: --window-points distances
 * spread evenly over [0, 2L), then as many over the hits' span and a step
 * either side (window-fine), whose hits count the segment's bytes on
 * average over places.  The hits span the segment, wherever read-ahead
 * during the transfer has moved it (a drive whose interface is slower
 * than its media).
 */
static int phase_window(struct cx *c, uint64_t L, uint64_t max)
{
	uint64_t step;
	int hit[WINDOW_MAX], first = -1, last = -1, h, n = c->wpoints;
	void *big;

	L = 2 * L > (256u << 10) ? 2 * L : 256u << 10;
	if (L > max)
		L = max;
	L = L / c->sector * c->sector;
	step = 2 * L / (uint64_t)n / c->sector * c->sector;
	if (!step || 3 * L > c->d->size / 2)
		return 0;
	big = cx_buf(c, L, "read");
	if (!big)
		return 1;
	hd_dfw_meta(c->s.w, "span_window", "read_bytes=%" PRIu64 " step_bytes=%" PRIu64, L, step);
	for (int i = 0; i < n; i++) {
		if (window_trial(c, big, L, (uint64_t)i * step, "window", &hit[i]))
			goto stop;
		if (hit[i] && first < 0)
			first = i;
		if (hit[i])
			last = i;
	}
	if (first < 0)
		goto done;
	/* The hits' span and a step either side, again at n distances: their count is the size. */
	{
		uint64_t lo = first ? (uint64_t)(first - 1) * step : 0, hi = (uint64_t)(last + 2) * step;
		uint64_t fine = (hi - lo) / (uint64_t)n / c->sector * c->sector;

		if (!fine)
			fine = c->sector;
		hd_dfw_meta(c->s.w, "span_window_fine", "from_bytes=%" PRIu64 " step_bytes=%" PRIu64, lo, fine);
		for (int i = 0; i < n; i++) {
			uint64_t x = lo + (uint64_t)i * fine;

			if (x + c->block > 2 * L)
				break;
			if (window_trial(c, big, L, x, "window-fine", &h))
				goto stop;
		}
	}
done:
	hd_buf_free(big, L);
	return 0;
stop:
	hd_buf_free(big, L);
	return 1;
}

static int phase_span(struct cx *c, uint64_t reps, uint64_t max)
{
	int dry = 0, any = 0;
	uint64_t prev = 0, first_miss = 0;

	for (int j = 0; dry < 4; j++) {
		uint64_t L = grid_at(2 * c->block, j, 4, c->al);
		int hits = 0;
		void *big;

		if (L > max)
			break;
		if (L == prev)
			continue;
		prev = L;
		big = cx_buf(c, L, "read");
		if (!big)
			return 1;
		for (uint64_t r = 0; r < reps; r++) {
			uint64_t p = cx_place(c, L);
			int64_t lat;

			if (cx_timed(c, "span-first", L, HD_OP_READ, big, L, p, &lat) ||
			    cx_timed(c, "span", L, HD_OP_READ, c->buf, c->block, p, &lat)) {
				hd_buf_free(big, L);
				return 1;
			}
			hits += lat >= 0 && cx_hit(c, lat);
		}
		hd_buf_free(big, L);
		dry = hits ? 0 : dry + 1;
		any |= hits > 0;
		if (!hits && any && !first_miss)
			first_miss = L;
	}
	return first_miss ? phase_window(c, first_miss, max) : 0;
}

/* Reads at once past a read: one sector to 1 MiB, 6 points an octave. */
static int phase_mtbrc(struct cx *c)
{
	uint64_t prev = UINT64_MAX;

	for (int j = 0;; j++) {
		uint64_t g = grid_at(c->sector, j, 6, c->al);
		uint64_t p = cx_place(c, 2 * c->block + g);
		int64_t lat;

		if (g > (1u << 20))
			break;
		if (g == prev)
			continue;
		prev = g;
		if (cx_timed(c, "mtbrc-first", g, HD_OP_READ, c->buf, c->block, p, &lat) ||
		    cx_timed(c, "mtbrc", g, HD_OP_READ, c->buf, c->block, p + c->block + g, &lat))
			return 1;
	}
	return 0;
}

/* Is lat above the line c0 + slope * L by more than the step's margin? */
static int above_line(double c0, double slope, uint64_t L, int64_t lat)
{
	double pred = c0 + slope * (double)L;

	return (double)lat > pred * 1.01 + 500000;
}

/*
 * Single writes of growing size, each after reading its bytes (written
 * back the same), then an idle wait for the cache to write it out.  The
 * line through the first two sizes is the cached writes' cost; ends after
 * three sizes above it, or past 8 times the last size on it before the
 * first above.
 */
static int phase_wsize(struct cx *c, uint64_t max)
{
	double c0 = 0, slope = 0;
	int above = 0, n = 0;
	uint64_t prev = 0, L0 = 0, Lon = 0;
	int64_t lat0 = 0;

	for (int j = 0; above < 3; j++) {
		uint64_t L = grid_at(c->block, j, 4, c->sector), p;
		int64_t lat, rl = 0;
		int rr;
		void *big;

		/* Past the first size off the line, a write beyond it tells no more: 8 times at most. */
		if (L > max || (above && L > 8 * Lon))
			break;
		if (L == prev)
			continue;
		prev = L;
		big = cx_buf(c, L, "write");
		if (!big)
			return 1;
		p = cx_place(c, L);
		/* The read is the data-preserving one: the write puts back exactly its bytes. */
		rr = hd_dev_timed(c->d, HD_OP_READ, big, L, p, &rl);
		if (rr) {
			if (hd_run_account(&c->s.run, rr, HD_OP_READ, p))
				c->s.fatal = 1;
			hd_buf_free(big, L);
			if (hd_session_stop(&c->s))
				return 1;
			continue;
		}
		if (cx_timed(c, "wsize", L, HD_OP_WRITE, big, L, p, &lat)) {
			hd_buf_free(big, L);
			return 1;
		}
		hd_buf_free(big, L);
		/* Time for the cache to write it out: twice its read, and the read-ahead wait. */
		cx_idle(c, 2 * rl + c->idle_ns);
		if (lat < 0)
			continue;
		if (n == 0) {
			c->wcached_ns = lat;
			L0 = L;
			lat0 = lat;
		} else if (n == 1) {
			slope = (double)(lat - lat0) / (double)(L - L0);
			c0 = (double)lat0 - slope * (double)L0;
		} else if (above_line(c0, slope, L, lat)) {
			above++;
		} else if (!above) {
			Lon = L;
			c->wsize_on = L;
		}
		n++;
	}
	return 0;
}

/*
 * The write-cache fill: the region [base, base + span) read into memory
 * (untimed), then its blocks written back in random order, back to back.
 * A write slower than twice a cached write (the first single write, else
 * the first writes' median) and half a millisecond waited for the media;
 * the fill ends 256 writes after the first such, or when the region is
 * written.
 */
static int phase_wfill(struct cx *c, uint64_t span, int seq, int *run)
{
	uint64_t wb = seq ? 16 * c->block : c->block, nblk = span / wb, base, *perm, end = UINT64_MAX;
	unsigned char *region = hd_buf_alloc(c->d, span);
	int64_t first[8], thr = c->wcached_ns > 0 ? c->wcached_ns * 2 + 500000 : -1;
	int nf = 0, rc = 0;

	perm = malloc(nblk * sizeof(*perm));
	if (!region || !perm) {
		hd_err("%s: out of memory for a %" PRIu64 "-byte region (--span)", c->d->path, span);
		hd_buf_free(region, span);
		free(perm);
		c->s.fatal = 1;
		return 1;
	}
	base = cx_place(c, span);
	for (uint64_t o = 0; o < span && !rc; o += 1u << 20)
		rc = cx_io(c, HD_OP_READ, region + o, span - o < (1u << 20) ? span - o : 1u << 20, base + o);
	for (uint64_t i = 0; i < nblk; i++)
		perm[i] = i;
	for (uint64_t i = nblk - 1; i > 0 && !seq; i--) {
		uint64_t j = hd_rng_below(&c->s.run.rng, i + 1), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
	/*
	 * In order, the head is sent half the device away first: the drive
	 * cannot write out while the fill lasts, and the count of writes is the
	 * cache's.
	 */
	if (seq && !rc) {
		uint64_t far = (base + c->d->size / 2) % (c->d->size - c->block) / c->sector * c->sector;

		rc = cx_io(c, HD_OP_READ, c->buf, c->block, far);
	}
	hd_dfw_meta(c->s.w, seq ? "fill_region_sequential" : "fill_region", "%" PRIu64 " %" PRIu64, base, span);
	*run = 0;
	for (uint64_t i = 0; i < nblk && !rc && i < end; i++) {
		uint64_t off = perm[i] * wb;
		int64_t lat;

		rc = cx_timed(c, seq ? "wseq" : "wfill", i, HD_OP_WRITE, region + off, wb, base + off, &lat);
		if (lat < 0)
			continue;
		if (end == UINT64_MAX && c->wcached_ns > 0 && lat <= c->wcached_ns * 3 / 2 + 200000)
			(*run)++;
		/* In order, each write is 16 blocks: its cost is the sixteen's, the threshold set by the first. */
		if (seq && i == 0)
			thr = lat * 3 / 2 + 200000;
		if (thr < 0 && nf < 8) {
			first[nf++] = lat;
			if (nf == 8) {
				hd_sort_i64(first, 8);
				thr = first[4] * 2 + 500000;
			}
		}
		if (thr >= 0 && lat > thr && end == UINT64_MAX)
			end = i + 257;
	}
	hd_buf_free(region, span);
	free(perm);
	return rc;
}

static int cache_run(void *vo)
{
	struct hd_cache_opts o = *(const struct hd_cache_opts *)vo;
	struct cx c;
	int ex, any0 = 0, stop, run = 0;
	uint64_t region;

	memset(&c, 0, sizeof(c));
	ex = hd_session_begin(&c.s, "cache", &o.c, o.c.write_ok, "cache.tsv");
	if (ex)
		return ex;
	c.d = c.s.dev;
	c.al = c.d->io_align;
	c.sector = c.d->physical_sector_bytes > c.al ? c.d->physical_sector_bytes : c.al;
	c.block = o.block;
	if (o.block % c.sector) {
		hd_err("--block %" PRIu64 ": not a multiple of the %" PRIu64 "-byte physical sector of %s", o.block,
		       c.sector, c.d->path);
		hd_session_abort(&c.s);
		return HD_EXIT_USAGE;
	}
	if (c.d->size < (16u << 20)) {
		hd_err("%s: device too small (%" PRIu64 " bytes; the cache probe needs 16 MiB)", c.d->path, c.d->size);
		hd_session_abort(&c.s);
		return HD_EXIT_SETUP;
	}
	/* A small device (a file, a loop device) is probed within a quarter of it; the header says so. */
	if (o.max_reach > c.d->size / 4)
		o.max_reach = c.d->size / 4 / c.sector * c.sector;
	if (o.span > c.d->size / 4)
		o.span = c.d->size / 4 / c.sector * c.sector;
	o.span = o.span / o.block * o.block;
	c.rev_ns = c.s.id.rpm_nominal > 1 ? (int64_t)(60e9 / c.s.id.rpm_nominal) : HD_PHASE_REV_UNKNOWN_NS;
	c.even = o.even;
	c.wpoints = (int)o.window_points;
	c.idle_ns = o.have_idle ? o.idle_ns : (5 * c.rev_ns > 20000000 ? 5 * c.rev_ns : 20000000);
	c.buf = hd_buf_alloc(c.d, 4 * o.block);
	c.buf2 = hd_buf_alloc(c.d, 4 * o.block);
	if (!c.buf || !c.buf2) {
		hd_err("%s: out of memory", c.d->path);
		hd_buf_free(c.buf, 4 * o.block);
		hd_buf_free(c.buf2, 4 * o.block);
		hd_session_abort(&c.s);
		return HD_EXIT_SETUP;
	}
	hd_dfw_meta(c.s.w, "params",
		    "block=%" PRIu64 " reps=%" PRIu64 " streams=%" PRIu64 " idle_ms=%.3f max_reach=%" PRIu64
		    " span=%" PRIu64 " even=%" PRIu64 " window_points=%" PRIu64 " ops=%s seed=%" PRIu64,
		    o.block, o.reps, o.streams, (double)c.idle_ns / 1e6, o.max_reach, o.span, o.even, o.window_points,
		    o.c.write_ok ? "read,write" : "read", o.c.seed);
	hd_dfw_meta(c.s.w, "sector_probe_bytes", "%" PRIu64, c.sector);
	hd_dfw_meta(c.s.w, "phase", "random by placement (every trial reads a fresh place drawn from the plan); the "
		    "read-ahead trials' idle wait is longer by a fraction of a revolution drawn from the plan");
	/* Read-ahead, streams, sizes, window, mtbrc; the writes: a rough count for the progress line. */
	c.planned = 48 + o.reps * 120 + 300 + 40 * o.reps + 140 + 140 + (o.c.write_ok ? 700 : 0);
	/* The count is a guess: an interrupted run says how many it kept, not of how many. */
	c.s.timed = 1;
	hd_session_calibrate(&c.s, c.buf, o.block);
	stop = hd_session_stop(&c.s) || phase_hit(&c);
	if (!c.have_window && !stop) {
		hd_dfw_meta(c.s.w, "hit_window_ms", "none");
		hd_warn("%s: no cache hits to calibrate against: the read cache phases label nothing a hit",
			c.d->path);
		c.hit_lo_ns = 1;
		c.hit_hi_ns = 0;
	}
	stop = stop || phase_ra(&c, o.reps, o.max_reach, &any0);
	stop = stop || phase_seg(&c, o.streams, any0);
	stop = stop || phase_span(&c, o.reps, o.max_reach);
	stop = stop || phase_mtbrc(&c);
	if (o.c.write_ok) {
		stop = stop || phase_wsize(&c, o.span);
		/*
		 * The region: four times the largest single write the cache took
		 * (a write-back cache takes about its size in one), at least 4 MiB,
		 * at most --span; reading it costs a fill's worth of time.
		 */
		region = 4 * c.wsize_on > (4u << 20) ? 4 * c.wsize_on : 4u << 20;
		region = (region < o.span ? region : o.span) / (16 * o.block) * (16 * o.block);
		if (!region)
			region = o.span;
		stop = stop || phase_wfill(&c, region, 0, &run);
		/*
		 * Random writes that waited from the second on: a cache that writes
		 * its segment out before it takes a write elsewhere.  It may still
		 * take a sequential stream faster than the media, written out as it
		 * comes: filled in order, after a wait for what the first fill left.
		 */
		if (!stop && run < 8) {
			cx_idle(&c, c.idle_ns);
			stop = phase_wfill(&c, region, 1, &run);
		}
	}
	ex = hd_session_end(&c.s, "phase x offset_bytes len_bytes latency_ms op class", !stop);
	hd_buf_free(c.buf, 4 * o.block);
	hd_buf_free(c.buf2, 4 * o.block);
	return ex;
}

const struct hd_probe hd_probe_cache = { "cache", &cache_spec, sizeof(struct hd_cache_opts), cache_run };

int hd_cmd_cache(int argc, char **argv)
{
	return hd_probe_main(&hd_probe_cache, argc, argv);
}
