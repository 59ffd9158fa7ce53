/*
 * The cache probe's figures (cache.tsv, src/probe/probe_cache.c): read
 * segments, the span a segment holds, read-ahead, the write cache and the
 * command overheads, each with a 95% interval and its method, or none
 * where the rows do not show it.  The methods are documented in
 * hddscope(1), FIT METHODS.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/datafile.h"
#include "hddscope/fit.h"
#include "hddscope/stats.h"

#include "fit_local.h"

/* The columns of a cache file. */
struct cxcols {
	const struct hd_df_col *phase, *x, *off, *len, *lat, *op, *cls;
};

static int cx_cols(const struct hd_df *df, struct cxcols *c)
{
	c->phase = hd_df_col(df, "phase");
	c->x = hd_df_col(df, "x");
	c->off = hd_df_col(df, "offset_bytes");
	c->len = hd_df_col(df, "len_bytes");
	c->lat = hd_df_col(df, "latency_ms");
	c->op = hd_df_col(df, "op");
	c->cls = hd_df_col(df, "class");
	return c->phase && c->x && c->lat && c->cls && c->len && c->phase->type == HD_COL_STR &&
		       c->x->type == HD_COL_NUM && c->lat->type == HD_COL_NUM && c->len->type == HD_COL_NUM &&
		       c->cls->type == HD_COL_STR
		       ? 0
		       : -1;
}

static int is_phase(const struct cxcols *c, size_t i, const char *p)
{
	return strcmp(hd_df_str(c->phase, i), p) == 0 && strcmp(hd_df_str(c->cls, i), "error") != 0;
}

static int is_hit(const struct cxcols *c, size_t i)
{
	return strcmp(hd_df_str(c->cls, i), "cache") == 0;
}

/* Per distinct x of a phase (in the order of the rows, ascending in the probe): trials and hits. */
struct level {
	double x, n, hits;
};

static struct level *levels(const struct hd_df *df, const struct cxcols *c, const char *p, size_t *nl)
{
	struct level *v = malloc((df->nrows + 1) * sizeof(*v));

	*nl = 0;
	for (size_t i = 0; v && i < df->nrows; i++) {
		if (!is_phase(c, i, p))
			continue;
		if (!*nl || v[*nl - 1].x != c->x->num[i])
			v[(*nl)++] = (struct level){ c->x->num[i], 0, 0 };
		v[*nl - 1].n++;
		v[*nl - 1].hits += is_hit(c, i);
	}
	return v;
}

static double frac(const struct level *l)
{
	return l->n > 0 ? l->hits / l->n : 0;
}

/* Least squares y = a + b x over n points; 0, or -1 with fewer than two distinct x. */
static int line(const double *x, const double *y, size_t n, double *a, double *b, double *se_a)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, d, rss = 0;

	for (size_t i = 0; i < n; i++) {
		sx += x[i];
		sy += y[i];
		sxx += x[i] * x[i];
		sxy += x[i] * y[i];
	}
	d = (double)n * sxx - sx * sx;
	if (n < 2 || !(fabs(d) > 0))
		return -1;
	*b = ((double)n * sxy - sx * sy) / d;
	*a = (sy - *b * sx) / (double)n;
	for (size_t i = 0; i < n; i++)
		rss += (y[i] - *a - *b * x[i]) * (y[i] - *a - *b * x[i]);
	*se_a = n > 2 ? sqrt(rss / (double)(n - 2) * sxx / d) : 0;
	return 0;
}

/* The cache hits' cost by size: intercept (ms) and ms per byte from the medians of the hit phase. */
static int hit_line(const struct hd_df *df, const struct cxcols *c, double *a, double *b)
{
	double xs[8], ys[8], v[64], se;
	size_t nx = 0;

	for (size_t i = 0; i < df->nrows && nx < 8;) {
		double x;
		size_t n = 0;

		if (!is_phase(c, i, "hit")) {
			i++;
			continue;
		}
		x = c->x->num[i];
		for (; i < df->nrows && n < 64 && (!is_phase(c, i, "hit") || c->x->num[i] == x); i++)
			if (is_phase(c, i, "hit"))
				v[n++] = c->lat->num[i];
		if (n) {
			xs[nx] = x;
			ys[nx++] = fit_median(v, n);
		}
	}
	return line(xs, ys, nx, a, b, &se);
}

static struct hd_fit_fig fig(double v, double lo, double hi, const char *method)
{
	return (struct hd_fit_fig){ v, lo < 0 ? 0 : lo, hi < 0 ? 0 : hi, method };
}

/*
 * Read-ahead: the bytes past a read found in the cache after the idle
 * wait, the area under the hit fraction over the distance (trapezoids
 * between the grid's points), plus the probing block where the read just
 * past hits.  Bounds: every gap between two points counted at its lower
 * and at its higher end.
 */
static void ra_fig(const struct hd_df *df, const struct cxcols *c, double block, struct hd_fit_fig *f)
{
	size_t nl;
	struct level *l = levels(df, c, "ra", &nl);
	double area = 0, lo = 0, hi = 0, hits = 0, trials = 0;

	if (!l || nl < 2) {
		free(l);
		return;
	}
	for (size_t i = 0; i < nl; i++) {
		hits += l[i].hits;
		trials += l[i].n;
	}
	/* As the probe decides: more hits than a media read's chance of taking a hit's time explains. */
	if (hits < 3 || hits * 20 < trials) {
		*f = fig(0, 0, 0, "none: reads past a read, after the idle wait, hit in fewer than 3 trials or 5% "
				  "of them (no read-ahead)");
		free(l);
		return;
	}
	area = lo = hi = block * frac(&l[0]);
	{
		const char *v = hd_df_meta(df, "readahead_even_range_bytes");
		double range = v ? atof(v) : 0, n = 0, h = 0, p, e;

		for (size_t i = 0; i < df->nrows && range > 0; i++)
			if (is_phase(c, i, "ra-even")) {
				n++;
				h += is_hit(c, i);
			}
		if (n >= 8) {
			/* The mean over distances spread evenly: a binomial fraction of the range. */
			p = h / n;
			e = 1.96 * sqrt(p * (1 - p) / n + 0.25 / (n * n));
			/* A hit needs the whole block cached: each place's data counts a block short. */
			*f = fig(block + range * p, block + range * (p - e), block + range * (p + e),
				 "a block read, an idle wait, a block read at a distance past it at a fresh place each "
				 "time; the hits did not end in one step (read-ahead that depends on the read's place on "
				 "its track): the fraction of hits at distances spread evenly up to past the last hit, "
				 "times that range, plus the block (the mean bytes read ahead, over places)");
			free(l);
			return;
		}
	}
	for (size_t i = 0; i + 1 < nl; i++) {
		double w = l[i + 1].x - l[i].x, a = frac(&l[i]), b = frac(&l[i + 1]);

		area += w * (a + b) / 2;
		lo += w * (a < b ? a : b);
		hi += w * (a > b ? a : b);
	}
	*f = fig(area, lo, hi,
		 "a block read, an idle wait, a block read at a growing distance past it at a fresh place each time: "
		 "the area under the fraction of hits over the distance, plus the block (the mean bytes read ahead, "
		 "over places)");
	free(l);
}

/*
 * Segments: k interleaved streams, each reading its next block round-robin,
 * hit while k is at most the segments.  The count is the last k of the run
 * from k = 1 where most reads hit; exact where that k hit in 3 of 4 reads or
 * more and the next in 1 of 4 or fewer.
 */
static void seg_fig(const struct hd_df *df, const struct cxcols *c, struct hd_fit_fig *f)
{
	size_t nl, n = 0;
	struct level *l = levels(df, c, "seg", &nl);

	while (l && n < nl && frac(&l[n]) >= 0.5)
		n++;
	if (!l || !nl || n == 0) {
		if (l && nl)
			*f = fig(NAN, NAN, NAN, NULL);
		free(l);
		return;
	}
	if (n == nl) {
		/* Hits never collapsed: at least this many, no figure. */
		free(l);
		return;
	}
	if (frac(&l[n - 1]) >= 0.75 && frac(&l[n]) <= 0.25)
		*f = fig(l[n - 1].x, l[n - 1].x, l[n - 1].x,
			 "k interleaved sequential streams read round-robin at places of their own: the largest k "
			 "whose streams kept hitting their read-ahead (or their own blocks without read-ahead); "
			 "hits collapse at k + 1");
	else
		*f = fig(l[n - 1].x, l[n - 1].x - 1, l[n - 1].x + 1,
			 "k interleaved sequential streams read round-robin: the largest k where most reads hit "
			 "(the collapse was not sharp: +-1)");
	free(l);
}

/* Window rows by distance. */
struct wrow {
	double x;
	int hit;
};

static int cmp_wrow(const void *a, const void *b)
{
	double x = ((const struct wrow *)a)->x, y = ((const struct wrow *)b)->x;

	return (x > y) - (x < y);
}

/*
 * The window a segment holds right after a read that fills it: the window
 * rows by distance from the read's start; their longest run of hits (one
 * miss inside a run is taken for a media read that happened to take a
 * hit's time, the other way round), from its first hit to its last and a
 * block.  *lo and *hi: from that to the misses on either side.  0 with no
 * run of two hits.
 */
static double window_width(const struct hd_df *df, const struct cxcols *c, double block, double *lo, double *hi)
{
	struct wrow *w = malloc((df->nrows + 1) * sizeof(*w));
	size_t n = 0, bs = 0, be = 0, best = 0;
	double width = 0;

	if (!w || !hd_df_meta(df, "span_window")) {
		free(w);
		return 0;
	}
	for (size_t i = 0; i < df->nrows; i++)
		if (is_phase(c, i, "window"))
			w[n++] = (struct wrow){ c->x->num[i], is_hit(c, i) };
	qsort(w, n, sizeof(*w), cmp_wrow);
	for (size_t i = 0; i < n;) {
		size_t j = i, hits = 0, last = i;

		if (!w[i].hit) {
			i++;
			continue;
		}
		while (j < n && (w[j].hit || (j + 1 < n && w[j + 1].hit))) {
			if (w[j].hit) {
				hits++;
				last = j;
			}
			j++;
		}
		if (hits > best) {
			best = hits;
			bs = i;
			be = last;
		}
		i = j + 1;
	}
	if (best >= 2) {
		width = w[be].x - w[bs].x + block;
		*lo = width;
		*hi = (be + 1 < n ? w[be + 1].x : w[be].x + block) - (bs ? w[bs - 1].x : w[bs].x) + block;
	}
	free(w);
	return width;
}

/*
 * The segment's size: the window a segment holds right after a read that
 * fills it; without one, the largest read whose first block is still
 * cached right after it (midway to the next size tried), or the read-ahead
 * where that is more (prefetched data lies in a segment).
 */
static void segbytes_fig(const struct hd_df *df, const struct cxcols *c, double block, const struct hd_fit_fig *ra,
			 struct hd_fit_fig *f)
{
	size_t nl, n = 0;
	struct level *l;
	double v = NAN, lo = NAN, hi = NAN, wlo = NAN, whi = NAN, w = window_width(df, c, block, &wlo, &whi);

	{
		/* The fine grid over the hits: their count times its step, and the block a hit needs. */
		const char *fv = hd_df_meta(df, "span_window_fine");
		const char *fs = fv ? strstr(fv, "step_bytes=") : NULL;
		double fstep = fs ? atof(fs + strlen("step_bytes=")) : 0, fh = 0, fn = 0;

		for (size_t i = 0; i < df->nrows && fstep > 0; i++)
			if (is_phase(c, i, "window-fine")) {
				fn++;
				fh += is_hit(c, i);
			}
		if (fn >= 8 && fh >= 2) {
			double e = 1.96 * sqrt(fh * (1 - fh / fn)) + 1;

			*f = fig(fh * fstep + block, (fh - e) * fstep + block, (fh + e) * fstep + block,
				 "a read that fills its segment (twice the first size whose first block did not stay, "
				 "at least 256 KiB), then at once a block at a distance from its start, a fresh place "
				 "each: the hits of an even grid over where they lie, times its step, and the block a "
				 "hit needs (the bytes the segment holds, on average over places)");
			return;
		}
	}
	if (w > 0) {
		*f = fig(w, wlo, whi,
			 "a read that fills its segment (twice the first size whose first block did not stay, at "
			 "least 256 KiB), then at once a block at a distance from its start, a fresh place each "
			 "(an even grid, each edge halved 5 times): the run of hits, first to last and a block");
		return;
	}
	l = levels(df, c, "span", &nl);
	while (l && n < nl && frac(&l[n]) >= 0.5)
		n++;
	if (l && n > 0 && n < nl) {
		lo = l[n - 1].x;
		hi = l[n].x;
		v = (lo + hi) / 2;
	}
	free(l);
	if (isfinite(ra->value) && ra->value > 0 && !(ra->value <= v)) {
		*f = fig(ra->value, ra->low, ra->high,
			 "the read-ahead figure, larger than any read whose first block stayed cached: the prefetched "
			 "data lies in one segment (a lower bound)");
		return;
	}
	if (isfinite(v))
		*f = fig(v, lo, hi,
			 "a read of growing size, then its first block at once: midway between the largest size "
			 "whose first block was still a hit and the next size tried");
}

/*
 * Read overhead: reads at once past a read, at growing distances, that
 * went to the media: the least of them reads where the head already is
 * (read-ahead under way, or the sector arriving as the command ends),
 * with no positioning and no rotational wait.  Minus the interface
 * transfer of the block (the hits' slope); what remains includes the
 * completion overhead and up to a sector's media time.
 */
/* The least time of the reads at once past a read that were no hits (INFINITY without any). */
static double mtbrc_least(const struct hd_df *df, const struct cxcols *c)
{
	double m = INFINITY;

	for (size_t i = 0; i < df->nrows; i++)
		if (is_phase(c, i, "mtbrc") && !is_hit(c, i) && c->lat->num[i] < m)
			m = c->lat->num[i];
	return m;
}

static void rovh_fig(const struct hd_df *df, const struct cxcols *c, double block, double slope,
		     struct hd_fit_fig *f)
{
	double m = mtbrc_least(df, c), v;

	if (!isfinite(m) || !isfinite(slope) || slope <= 0)
		return;
	v = m - block * slope;
	if (v < 0)
		v = 0;
	*f = fig(v, v - 0.03 - 0.05 * v, v + 0.01 + 0.02 * v,
		 "least time of reads at once past a read (no positioning, no rotational wait) minus the block's "
		 "interface transfer (the slope of cache hits by size); includes the completion overhead and up to "
		 "a sector's media time");
}

/*
 * Reads at once past a read that joined the read-ahead under way: their
 * data was in the buffer when the command was done, so two or more of
 * them, at different distances, take the same least time (within 0.2% of
 * a revolution, as band_bottom), the command overhead and the block's
 * interface transfer, where a read that went to the media with no wait
 * comes out once, at the one distance that just caught its sector.  A
 * join is many reads alike (10 to 15 of some 50 on the presets that show
 * one); two alike by chance on a path whose completion times jitter by
 * tens of microseconds (the emulated block device: 2 of some 20 non-hit
 * reads, at 0.7 to 1.0 ms where the overhead is 0.25) are none: at least
 * JOIN_MIN.  *join_ms that time, *bus_ms the block's interface transfer
 * (the hits' slope; NAN unknown).  -1 where no reads joined.
 */
#define JOIN_MIN 4
int fit_cache_join(const struct hd_df *df, double rev, double *join_ms, double *bus_ms)
{
	struct cxcols c;
	double m, a, b, block;
	size_t k = 0;

	if (!df || cx_cols(df, &c))
		return -1;
	m = mtbrc_least(df, &c);
	for (size_t i = 0; isfinite(m) && i < df->nrows; i++)
		k += is_phase(&c, i, "mtbrc") && !is_hit(&c, i) && c.lat->num[i] <= m + 0.002 * rev;
	if (k < JOIN_MIN)
		return -1;
	block = fit_param_num(df, "block", 4096);
	*join_ms = m;
	*bus_ms = hit_line(df, &c, &a, &b) == 0 && b > 0 ? b * block : NAN;
	return 0;
}

/* The write rows of a phase in order: x and latency. */
static size_t writes_of(const struct hd_df *df, const struct cxcols *c, const char *p, double *x, double *y)
{
	size_t n = 0;

	for (size_t i = 0; i < df->nrows; i++)
		if (is_phase(c, i, p)) {
			x[n] = c->x->num[i];
			y[n++] = c->lat->num[i];
		}
	return n;
}

/*
 * Single writes of growing size: the line of the first sizes (the cached
 * writes' cost), extended while each next size lies on it.  Returns how
 * many lie on it; a, b the line.
 */
static size_t wsize_line(const double *x, const double *y, size_t n, double *a, double *b, double *se)
{
	size_t k = 2;

	if (n < 2 || line(x, y, 2, a, b, se))
		return 0;
	while (k < n && y[k] <= (*a + *b * x[k]) * 1.01 + 0.5) {
		k++;
		line(x, y, k, a, b, se);
	}
	return k;
}

/*
 * The write cache and overhead.  Back-to-back random writes of a region
 * held in memory fill a write-back cache: the writes before the latency
 * steps to media speed, less what the drive wrote out meanwhile (their
 * time over the time a write takes once the cache is full).  A cache that
 * takes one write at a time (it writes its segment out before taking a
 * write elsewhere) shows its size in single writes of growing size: the
 * largest on the cached writes' line, midway to the next.
 */
static void wc_figs(const struct hd_df *df, const struct cxcols *c, double block, double hit, struct hd_fit_fig *wc,
		    struct hd_fit_fig *wo)
{
	double *x = malloc((df->nrows + 1) * sizeof(double)), *y = malloc((df->nrows + 1) * sizeof(double));
	double a, b, se, thr;
	size_t n, k, nf = 0;

	if (!x || !y)
		goto out;
	n = writes_of(df, c, "wsize", x, y);
	k = wsize_line(x, y, n, &a, &b, &se);
	if (!k)
		goto out;
	/*
	 * A cached write costs about what a cache hit does; one written through
	 * waits nearly a revolution for the sectors its read has just passed.
	 */
	if (!(isfinite(hit) && y[0] < 3 * hit + 0.5)) {
		*wc = fig(0, 0, 0, "a block written right after reading it took more than three cache hits and "
				   "half a millisecond: the drive writes through (no write cache)");
		goto out;
	}
	*wo = fig(a, a - 2 * se - 0.005, a + 2 * se + 0.005,
		  "intercept of the cached single writes' time by size (each after a read: the overhead after a "
		  "read, with the completion overhead)");
	for (int seq = 0; seq < 2; seq++) {
		double wb = block, y0 = y[0];

		n = writes_of(df, c, seq ? "wseq" : "wfill", x, y);
		/* In order, the writes are larger: the first of them is the cached cost. */
		if (seq && n) {
			for (size_t i = 0; i < df->nrows; i++)
				if (is_phase(c, i, "wseq")) {
					wb = c->len->num[i];
					break;
				}
			y0 = y[0];
		}
		/* In order, a write that waits takes about the media's time for it: a smaller step. */
		thr = seq ? 1.5 * y0 + 0.2 : 2 * y0 + 0.5;
		/* The first write of a run that stays slow: 12 of the next 16 slower than the threshold. */
		for (nf = 0; nf < n; nf++) {
			size_t slow = 0, seen = 0;

			for (size_t j = nf; j < n && seen < 16; j++, seen++)
				slow += y[j] > thr;
			if (y[nf] > thr && seen >= 8 && slow * 4 >= seen * 3)
				break;
		}
		/* A run of writes the cache took: eight or more, nine in ten of them at a cached write's cost. */
		{
			size_t cached = 0;

			for (size_t j = 0; j < nf && j < n; j++)
				cached += y[j] <= 1.5 * y0 + 0.2;
			if (cached * 10 < nf * 9)
				nf = 0;
		}
		if (nf >= (seq ? 4u : 8u) && nf < n) {
			double T = 0, after = 0, raw = (double)nf * wb, v;
			size_t na = 0;

			for (size_t j = 0; j < nf; j++)
				T += y[j];
			for (size_t j = nf; j < n; j++, na++)
				after += y[j];
			after /= (double)na;
			v = raw - T / after * wb;
			if (v < wb)
				v = wb;
			/*
			 * In order, the fill is a few writes long and the head has yet to
			 * reach the region when it ends: the count stands, the drained
			 * ones are its lower bound.
			 */
			if (seq) {
				*wc = fig(raw, v, raw,
					  "back-to-back writes of 16 blocks of a region in order (the bytes read first, "
					  "written back; random ones waited from the second on): the bytes written before "
					  "the time steps to the media's (the interval down to less those the drive could "
					  "have written out meanwhile)");
				goto out;
			}
			*wc = fig(v, v - (raw - v), raw,
				  seq ? ""
				      : "back-to-back writes of a region's blocks in random order (the bytes read first, "
					"written back): the writes before the time steps to the media's, less those the "
					"drive wrote out meanwhile (their time over a write's once the cache is full)");
			goto out;
		}
		/* Random writes that never stepped: the cache holds more than the region. */
		if (!seq && nf >= n && n > 0)
			goto out;
	}
	n = writes_of(df, c, "wsize", x, y);
	if (k < n)
		*wc = fig((x[k - 1] + x[k]) / 2, x[k - 1], x[k],
			  "single writes of growing size after reading their bytes (a cache that writes out its segment "
			  "before taking a write elsewhere): midway between the largest on the cached writes' line and "
			  "the next size");
out:
	free(x);
	free(y);
}

int hd_fit_cache_figs(const struct hd_df *df, struct hd_fit_fig *figs)
{
	struct cxcols c;
	double block, a = NAN, b = NAN;

	if (!df || cx_cols(df, &c))
		return -1;
	block = fit_param_num(df, "block", 4096);
	ra_fig(df, &c, block, &figs[HD_FIG_READAHEAD_BYTES]);
	seg_fig(df, &c, &figs[HD_FIG_CACHE_SEGMENTS]);
	segbytes_fig(df, &c, block, &figs[HD_FIG_READAHEAD_BYTES], &figs[HD_FIG_CACHE_SEGMENT_BYTES]);
	if (hit_line(df, &c, &a, &b) == 0)
		rovh_fig(df, &c, block, b, &figs[HD_FIG_READ_OVERHEAD]);
	wc_figs(df, &c, block, a + b * block, &figs[HD_FIG_WRITE_CACHE_BYTES], &figs[HD_FIG_WRITE_OVERHEAD]);
	return 0;
}
