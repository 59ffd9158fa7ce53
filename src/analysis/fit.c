/*
 * fit: the drive's mechanics from the data files of a profile directory.
 * Only the files are read, never a device, so a profile measured on one
 * machine can be fitted on another.  Every estimate names its method; the
 * methods are documented in README.md ("fit") and, briefly, where they are
 * computed below.  The simulated-drive writer (--drive-out) is in
 * fit_drive.c.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/datafile.h"
#include "hddscope/fit.h"
#include "hddscope/fsutil.h"
#include "hddscope/json.h"
#include "hddscope/stats.h"
#include "hddscope/util.h"

#define MAX_FILES 64
#define BINS_PER_OCTAVE 3
#define MIN_BIN 6		/* samples a seek bin needs */

static void fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ---- the inputs ---- */

struct inputs {
	struct hd_df *df[MAX_FILES];
	size_t n;
	const struct hd_df *seek, *resp, *interval, *zone, *queue, *qreq;
};

/* A sample: signed distance and latency (ms); start is the response's start_bytes. */
struct samp {
	double d, lat, start;
	int key;		/* the seek bin it falls in */
};

static size_t count_rows(const struct hd_df *df, const char *op)
{
	const struct hd_df_col *o = hd_df_col(df, "op"), *c = hd_df_col(df, "class");
	size_t n = 0;

	for (size_t i = 0; i < df->nrows; i++)
		if ((!o || o->type != HD_COL_STR || strcmp(hd_df_str(o, i), op) == 0) &&
		    (!c || c->type != HD_COL_STR || strcmp(hd_df_str(c, i), "error") != 0))
			n++;
	return n;
}

/* The value of key=NUM in the "params" header, or def. */
static double param_num(const struct hd_df *df, const char *key, double def)
{
	const char *p = df ? hd_df_meta(df, "params") : NULL;
	size_t kl = strlen(key);

	while (p && *p) {
		if (strncmp(p, key, kl) == 0 && p[kl] == '=')
			return atof(p + kl + 1);
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	return def;
}

/* "calibration: hit_p50_ms=X media_p50_ms=Y": the hit figure, or NAN. */
static double hit_p50(const struct hd_df *df)
{
	const char *v = df ? hd_df_meta(df, "calibration") : NULL;
	const char *h = v ? strstr(v, "hit_p50_ms=") : NULL;

	return h ? atof(h + strlen("hit_p50_ms=")) : NAN;
}

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

/*
 * Read every data file in dir (not our own output) and pick, per test, the
 * file with the most usable rows.
 */
static int load_inputs(const char *dir, struct inputs *in, char *err, size_t errlen)
{
	DIR *dh = opendir(dir);
	struct dirent *e;
	size_t best_seek = 0, best_resp = 0;

	memset(in, 0, sizeof(*in));
	if (!dh) {
		fail(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(dh))) {
		char path[4096];
		struct hd_df *df;
		const char *t;

		if (!ends_with(e->d_name, ".tsv") || strcmp(e->d_name, "seekcurve.tsv") == 0)
			continue;
		if (in->n == MAX_FILES)
			break;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (hd_df_read(path, &df, err, errlen)) {
			closedir(dh);
			return -1;
		}
		in->df[in->n++] = df;
		t = hd_df_meta(df, "test");
		if (!t)
			continue;
		if (strcmp(t, "seek") == 0 && hd_df_col(df, "distance_bytes") && count_rows(df, "read") > best_seek) {
			best_seek = count_rows(df, "read");
			in->seek = df;
		} else if (strcmp(t, "response") == 0 && hd_df_col(df, "start_bytes") &&
			   count_rows(df, "read") > best_resp) {
			best_resp = count_rows(df, "read");
			in->resp = df;
		} else if (strcmp(t, "interval") == 0 && hd_df_col(df, "actual_interval_ms")) {
			in->interval = df;
		} else if (strcmp(t, "zone") == 0 && hd_df_col(df, "mb_s")) {
			in->zone = df;
		} else if (strcmp(t, "queue") == 0 && !hd_df_meta(df, "table") && hd_df_col(df, "iops")) {
			in->queue = df;
		} else if (strcmp(t, "queue") == 0 && hd_df_col(df, "offset_bytes") && hd_df_col(df, "start_ms")) {
			in->qreq = df;
		}
	}
	closedir(dh);
	return 0;
}

static void free_inputs(struct inputs *in)
{
	for (size_t i = 0; i < in->n; i++)
		hd_df_free(in->df[i]);
}

/*
 * The samples of df with the given op whose class is in classes (a list
 * like "media cache"), with distance and latency; NULL columns give none.
 */
static struct samp *samples(const struct hd_df *df, const char *op, const char *classes, size_t *n)
{
	const struct hd_df_col *d, *l, *o, *c, *s;
	struct samp *v;

	*n = 0;
	if (!df)
		return NULL;
	d = hd_df_col(df, "distance_bytes");
	l = hd_df_col(df, "latency_ms");
	o = hd_df_col(df, "op");
	c = hd_df_col(df, "class");
	s = hd_df_col(df, "start_bytes");
	if (!d || !l || d->type != HD_COL_NUM || l->type != HD_COL_NUM || !df->nrows)
		return NULL;
	v = malloc(df->nrows * sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < df->nrows; i++) {
		if (o && o->type == HD_COL_STR && strcmp(hd_df_str(o, i), op) != 0)
			continue;
		if (c && c->type == HD_COL_STR && !strstr(classes, hd_df_str(c, i)))
			continue;
		v[*n] = (struct samp){ d->num[i], l->num[i], s && s->type == HD_COL_NUM ? s->num[i] : NAN, 0 };
		(*n)++;
	}
	return v;
}

static int cmp_samp_d(const void *a, const void *b)
{
	double x = ((const struct samp *)a)->d, y = ((const struct samp *)b)->d;

	return (x > y) - (x < y);
}

/* Median of n values (v is reordered). */
static double median(double *v, size_t n)
{
	hd_sort_doubles(v, n);
	return hd_percentile_sorted(v, n, 50);
}

/*
 * Group sorted samples by equal distance: calls fn for each group
 * [i, j) with the median latency.
 */
struct group {
	double d, med;
	size_t n;
};

static struct group *groups(const struct samp *v, size_t n, size_t *ng)
{
	struct group *g = malloc((n ? n : 1) * sizeof(*g));
	double *tmp = malloc((n ? n : 1) * sizeof(*tmp));

	*ng = 0;
	if (!g || !tmp) {
		free(g);
		free(tmp);
		return NULL;
	}
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i; j < n && v[j].d == v[i].d; j++)
			tmp[j - i] = v[j].lat;
		g[(*ng)++] = (struct group){ v[i].d, median(tmp, j - i), j - i };
	}
	free(tmp);
	return g;
}

/* ---- revolution time ---- */

/*
 * From the response probe at tiny distances.  A read a few sectors behind
 * the start of the read before it has just passed the head and waits
 * almost a revolution: latency = rev * (1 - d/B) with B the track's bytes;
 * a read a few sectors ahead, whose start passed while the drive finished
 * the previous read, waits rev * (1 + d/B).  Overheads cancel: latency is
 * measured from the moment the previous read completed, and both reads
 * take the same time from their first sector to completion.  A line
 * through the per-distance medians (signed d) meets d = 0 at one
 * revolution.  Reads that did not wait (a read-ahead hit, a target caught
 * on the fly) are left out by the 25% window around the first estimate.
 */
static int rev_from_response(const struct hd_df *resp, double block, double *rev, double *unc, size_t *npts)
{
	size_t n, ng, k = 0;
	struct samp *v = samples(resp, "read", "media cache", &n);
	struct group *g;
	double negs[64], rough, sx = 0, sy = 0, sxx = 0, sxy = 0, sw = 0, xs[128], ys[128];
	size_t nn = 0;

	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (fabs(v[i].d) <= 2 * block && v[i].d != 0)
			v[k++] = v[i];
	qsort(v, k, sizeof(*v), cmp_samp_d);
	g = groups(v, k, &ng);
	free(v);
	if (!g)
		return -1;
	for (size_t i = 0; i < ng && nn < 64; i++)
		if (g[i].d < 0 && g[i].n >= 3)
			negs[nn++] = g[i].med;
	if (!nn) {
		free(g);
		return -1;
	}
	rough = median(negs, nn);
	k = 0;
	for (size_t i = 0; i < ng && k < 128; i++) {
		if (g[i].n < 3 || fabs(g[i].med - rough) > 0.25 * rough)
			continue;
		xs[k] = g[i].d;
		ys[k++] = g[i].med;
	}
	free(g);
	/* Nothing near the first estimate: the tiny distances show no rotation. */
	if (k == 0)
		return -1;
	for (size_t i = 0; i < k; i++) {
		sw += 1;
		sx += xs[i];
		sy += ys[i];
		sxx += xs[i] * xs[i];
		sxy += xs[i] * ys[i];
	}
	*npts = k;
	if (k >= 3 && sw * sxx - sx * sx > 0) {
		double den = sw * sxx - sx * sx, s = (sw * sxy - sx * sy) / den, r = (sy - s * sx) / sw, sse = 0;

		for (size_t i = 0; i < k; i++)
			sse += (ys[i] - r - s * xs[i]) * (ys[i] - r - s * xs[i]);
		*rev = r;
		*unc = sqrt(sse / (double)(k - 2) * sxx / den);
	} else {
		/* One or two distances: their mean, uncertain by the distance term. */
		*rev = sy / sw;
		*unc = fabs(ys[0] - ys[k - 1]) / 2 + 0.005 * *rev;
	}
	if (*unc < 1e-4 * *rev)
		*unc = 1e-4 * *rev;
	return *rev > 0 ? 0 : -1;
}

/*
 * From the spread of the seek samples, where nothing else shows the
 * rotation (a drive whose read-ahead or large physical sectors serve every
 * read near the previous one).  In a narrow distance bin the positioning
 * time is nearly constant and the rotational wait uniform over one
 * revolution, so the band of latencies is one revolution wide; the range
 * of m samples covers (m - 1) / (m + 1) of it on average.  The median over
 * bins of 40 or more samples is the estimate, the spread of the bins its
 * uncertainty.
 */
static int rev_from_seek_spread(const struct hd_df *seek, double *rev, double *unc, size_t *npts)
{
	size_t n, nb = 0;
	struct samp *v = samples(seek, "read", "media", &n);
	double w[64], dev[64];

	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++)
		v[i].d = fabs(v[i].d);
	qsort(v, n, sizeof(*v), cmp_samp_d);
	for (size_t a = 0; a < n && nb < 64;) {
		/* Bins of an eighth of a decade. */
		double top = v[a].d * 1.3335;
		size_t b = a;
		double *x;

		while (b < n && v[b].d < top)
			b++;
		if (b - a >= 40 && (x = malloc((b - a) * sizeof(*x)))) {
			for (size_t k = a; k < b; k++)
				x[k - a] = v[k].lat;
			hd_sort_doubles(x, b - a);
			/* The range of m uniform draws covers (m - 1) / (m + 1) of the band, on average. */
			w[nb++] = (x[b - a - 1] - x[0]) * (double)(b - a + 1) / (double)(b - a - 1);
			free(x);
		}
		a = b;
	}
	free(v);
	if (nb < 3)
		return -1;
	*rev = median(w, nb);
	for (size_t i = 0; i < nb; i++)
		dev[i] = fabs(w[i] - *rev);
	*unc = 1.4826 * median(dev, nb) / sqrt((double)nb);
	*npts = nb;
	return *rev > 0 ? 0 : -1;
}

/* Resultant length of the phases of x modulo T: 1 when all agree. */
static double resultant(const double *x, size_t n, double T)
{
	double c = 0, s = 0;

	for (size_t i = 0; i < n; i++) {
		c += cos(2 * M_PI * x[i] / T);
		s += sin(2 * M_PI * x[i] / T);
	}
	return sqrt(c * c + s * s) / (double)n;
}

/*
 * From the write-interval sawtooth (write cache off): the second write
 * completes a fixed time after X' passes the head, so latency plus the
 * idle time is constant modulo one revolution.  The revolution is the
 * period T that lines those sums up best (the largest such T: T/2, T/3
 * line them up as well), searched from 3 to 20 ms and refined.
 */
static int rev_from_interval(const struct hd_df *df, double *rev, double *unc, size_t *npts)
{
	const struct hd_df_col *a = hd_df_col(df, "actual_interval_ms"), *l = hd_df_col(df, "latency_ms"),
			       *c = hd_df_col(df, "class");
	double *x, best = 0, bestT = 0, lo, hi, R, sd, mean = 0, var = 0;
	size_t n = 0;

	if (!a || !l || a->type != HD_COL_NUM || l->type != HD_COL_NUM || !df->nrows)
		return -1;
	x = malloc(df->nrows * sizeof(*x));
	if (!x)
		return -1;
	for (size_t i = 0; i < df->nrows; i++)
		if (!c || c->type != HD_COL_STR || strcmp(hd_df_str(c, i), "media") == 0)
			x[n++] = a->num[i] + l->num[i];
	if (n < 20) {
		free(x);
		return -1;
	}
	for (double T = 3.0; T <= 20.0; T += 0.002)
		best = fmax(best, resultant(x, n, T));
	if (best < 0.7) {
		free(x);
		return -1;
	}
	for (double T = 3.0; T <= 20.0; T += 0.002)
		if (resultant(x, n, T) >= 0.9 * best)
			bestT = T;
	/* The last T above 90% lies on the far flank of the peak: search around it. */
	lo = bestT - 0.05;
	hi = bestT + 0.002;
	best = 0;
	for (double T = lo; T <= hi; T += 1e-5) {
		R = resultant(x, n, T);
		if (R > best) {
			best = R;
			*rev = T;
		}
	}
	/* Phase scatter over the spread of the sums, in cycles, gives the period's error. */
	for (size_t i = 0; i < n; i++)
		mean += x[i] / (double)n;
	for (size_t i = 0; i < n; i++)
		var += (x[i] - mean) * (x[i] - mean) / (double)n;
	sd = sqrt(-2 * log(best)) * *rev / (2 * M_PI);
	*unc = sd / (sqrt(var) / *rev * sqrt((double)n));
	if (*unc < 1e-5 * *rev)
		*unc = 1e-5 * *rev;
	*npts = n;
	free(x);
	return 0;
}

/* ---- the seek curve ---- */

/*
 * A bin of samples at similar distances: L = C + P(d) + W, with W uniform
 * over one revolution.  The band [C + P, C + P + rev) is located by its
 * two edges: the widest run of samples that fits in one revolution (which
 * leaves out the rare sample delayed beyond it, such as a transfer that
 * crossed a track), and (first + last - rev) / 2 of that run estimates
 * C + P with an error that falls as 1/n, where the mean (minus rev / 2)
 * falls as 1/sqrt(n) and the lower envelope alone is biased by rev / (n + 1).
 *
 * Bins pool both directions; each direction's own band edge is kept in
 * proportion to how far the directions differ beyond their noise
 * (empirical-Bayes shrinkage), so a symmetric drive gets the pooled
 * figure and an asymmetric one its two curves.
 */
struct pbin {
	double d;		/* geometric mean of |d| */
	double lo;		/* C + P at d */
	double spread;		/* last - first of the run in one revolution */
	size_t i0, im, i1;	/* samples: [i0, im) negative, [im, i1) positive */
	int key;
};

/* The lower band edge from latencies r[0..n) (reordered): see above. */
static double band_edge(double *r, size_t n, double rev, double *spread)
{
	size_t bi = 0, bj = 0, best = 0;

	hd_sort_doubles(r, n);
	for (size_t i = 0, j = 0; i < n; i++) {
		if (j < i)
			j = i;
		while (j + 1 < n && r[j + 1] <= r[i] + 1.01 * rev)
			j++;
		/* Strictly more: of equal runs the lowest, since delays only add. */
		if (j - i + 1 > best) {
			best = j - i + 1;
			bi = i;
			bj = j;
		}
	}
	*spread = r[bj] - r[bi];
	return (r[bi] + r[bj] - rev) / 2;
}

/* The band edge at |d|, piecewise linear in log|d| between bins (sorted by d), flat beyond them. */
static double curve_at(const struct pbin *b, size_t nb, double d)
{
	double x = log(fabs(d));
	size_t i = 1;

	if (fabs(d) <= b[0].d)
		return b[0].lo;
	while (i < nb && b[i].d < fabs(d))
		i++;
	if (i == nb)
		return b[nb - 1].lo;
	return b[i - 1].lo + (b[i].lo - b[i - 1].lo) * (x - log(b[i - 1].d)) / (log(b[i].d) - log(b[i - 1].d));
}

static int cmp_pbin(const void *a, const void *b)
{
	double x = ((const struct pbin *)a)->d, y = ((const struct pbin *)b)->d;

	return (x > y) - (x < y);
}

/* Sort by bin key, then negative before positive, then |d|. */
static int cmp_key(const void *a, const void *b)
{
	const struct samp *x = a, *y = b;

	if (x->key != y->key)
		return (x->key > y->key) - (x->key < y->key);
	if ((x->d < 0) != (y->d < 0))
		return (y->d < 0) - (x->d < 0);
	return (fabs(x->d) > fabs(y->d)) - (fabs(x->d) < fabs(y->d));
}

static double geo_mean(const struct samp *v, size_t i0, size_t i1)
{
	double s = 0;

	for (size_t i = i0; i < i1; i++)
		s += log(fabs(v[i].d));
	return exp(s / (double)(i1 - i0));
}

/* ---- the fit ---- */

/* A row of seekcurve.tsv: signed distance, positioning, samples. */
struct srow {
	double d, ms;
	size_t n;
};

struct fit {
	double block, cap, ref;
	double rev, rev_unc;
	const char *rev_method;
	size_t rev_points;
	double C;
	const char *C_method;
	struct srow *rows;	/* the signed seek curve, as seekcurve.tsv lists it */
	size_t nrows;
	double tau;		/* spread of the directions' true difference (ms) */
	double resp_from;	/* response bins from this |d| on */
	struct hd_fit_pt *pool;	/* |d| pooled over both signs */
	size_t npool;
	struct hd_fit_rw rw;
	int have_rw;
	double far_c, far_e;	/* the curve's far end, c + e * tracks, for the full stroke */
	int have_far;
	struct samp *far;	/* response and queue samples beyond half the device */
	size_t nfar;
	double t2t, avg, full;
	int ra;			/* -1 unknown, 0 no, 1 yes */
	double ra_bytes;
	int wc;			/* -1 unknown, 0 off, 1 on */
	const char *wc_method;
	double wc_median;
	double trk_outer, trk_inner;	/* bytes per revolution at the ends */
	double hit_ms;
	int qdepth_hint;
};

/* Weighted least squares of y = p + q * g(x); returns the weighted SSE. */
static double lsq(const struct hd_fit_pt *pt, size_t a, size_t b, int sq, double *p, double *q)
{
	double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, den, sse = 0;

	for (size_t i = a; i < b; i++) {
		double w = (double)pt[i].n, x = sq ? sqrt(pt[i].d) : pt[i].d;

		sw += w;
		sx += w * x;
		sy += w * pt[i].ms;
		sxx += w * x * x;
		sxy += w * x * pt[i].ms;
	}
	den = sw * sxx - sx * sx;
	if (b - a < 2 || den <= 0) {
		*q = 0;
		*p = sw > 0 ? sy / sw : 0;
	} else {
		*q = (sw * sxy - sx * sy) / den;
		*p = (sy - *q * sx) / sw;
	}
	for (size_t i = a; i < b; i++) {
		double x = sq ? sqrt(pt[i].d) : pt[i].d, e = pt[i].ms - *p - *q * x;

		sse += (double)pt[i].n * e * e;
	}
	return sse;
}

double hd_fit_rw_at(const struct hd_fit_rw *m, double d)
{
	return d < m->knee ? m->a + m->b * sqrt(d) : m->c + m->e * d;
}

/*
 * Ruemmler-Wilkes: a + b*sqrt(d) below the knee, c + e*d from it on, each
 * by weighted least squares; the knee is the pooled point that gives the
 * least total squared error (at least two points on each side, or none
 * above it).
 */
int hd_fit_rw(const struct hd_fit_pt *pt, size_t n, struct hd_fit_rw *m)
{
	double best = INFINITY, sw = 0;

	if (n < 2)
		return -1;
	for (size_t j = 2; j <= n; j++) {
		double a, b, c = 0, e = 0, sse;

		if (j < n && n - j < 2)
			continue;
		sse = lsq(pt, 0, j, 1, &a, &b);
		if (j < n)
			sse += lsq(pt, j, n, 0, &c, &e);
		if (sse < best) {
			best = sse;
			*m = (struct hd_fit_rw){ a, b, j < n ? sqrt(pt[j - 1].d * pt[j].d) : INFINITY, c, e, 0 };
			if (j == n) {
				m->c = a + b * sqrt(pt[n - 1].d);
				m->e = 0;
			}
		}
	}
	for (size_t i = 0; i < n; i++)
		sw += (double)pt[i].n;
	m->rms = sqrt(best / sw);
	return 0;
}

/*
 * Tracks crossed by a seek over d bytes from a uniformly random start,
 * with the bytes per track falling linearly from the outer to the inner
 * end as measured (B(x) = Bo + (Bi - Bo) x / cap, so a stretch [x, y]
 * holds cap / (Bi - Bo) * ln(B(y) / B(x)) tracks); d itself when the track
 * sizes are unknown.  Long seeks are straight lines in tracks, not bytes.
 * tracks() averages over the start.
 */
/* Tracks between byte offsets x < y, in units of the mean track. */
static double seg_tracks(const struct fit *f, double x, double y)
{
	double bo = f->trk_outer, bi = f->trk_inner, k;

	if (!isfinite(bo) || !isfinite(bi) || fabs(bi - bo) < 0.01 * bo)
		return y - x;
	k = (bi - bo) / f->cap;
	return log((bo + k * y) / (bo + k * x)) / k * (bo + bi) / 2;
}

static double tracks(const struct fit *f, double d)
{
	const int N = 32;
	double s = 0;

	for (int i = 0; i < N; i++) {
		double x = (f->cap - d) * (i + 0.5) / N;

		s += seg_tracks(f, x, x + d);
	}
	return s / N;
}

/* The pooled curve at d: linear between points, the far line beyond the last. */
static double pooled_at(const struct fit *f, double d)
{
	const struct hd_fit_pt *p = f->pool;
	size_t n = f->npool;

	if (d <= p[0].d)
		return p[0].ms * d / p[0].d;
	for (size_t i = 1; i < n; i++)
		if (d <= p[i].d)
			return p[i - 1].ms + (p[i].ms - p[i - 1].ms) * (d - p[i - 1].d) / (p[i].d - p[i - 1].d);
	return f->have_far ? f->far_c + f->far_e * tracks(f, d) : p[n - 1].ms;
}


/*
 * Response distances whose samples all start within a megabyte (the
 * longest, which can only start at the ends of the device) neither sample
 * the rotation nor miss the cache: v sorted by d, kept in place.
 */
static void drop_fixed_starts(struct samp *v, size_t *n)
{
	size_t k = 0;

	for (size_t i = 0, j; i < *n; i = j) {
		double lo = v[i].start, hi = v[i].start;

		for (j = i; j < *n && v[j].d == v[i].d; j++) {
			lo = fmin(lo, v[j].start);
			hi = fmax(hi, v[j].start);
		}
		if (hi - lo < (1 << 20))
			continue;
		memmove(v + k, v + i, (j - i) * sizeof(*v));
		k += j - i;
	}
	*n = k;
}

/*
 * The controller overhead with one block's transfer: the least time of any
 * response read, reached by a read on the same track whose start comes
 * under the head just as the drive is ready for it (no positioning, no
 * wait).  Distances within two blocks are left out: read-ahead serves
 * those from the cache, which is not this figure.
 */
static int overhead_from_response(const struct hd_df *resp, double block, double *C)
{
	size_t n;
	struct samp *v = samples(resp, "read", "media cache", &n);
	double m = INFINITY;

	if (v) {
		qsort(v, n, sizeof(*v), cmp_samp_d);
		drop_fixed_starts(v, &n);
	}
	for (size_t i = 0; v && i < n; i++)
		if (fabs(v[i].d) > 2 * block && v[i].lat < m)
			m = v[i].lat;
	free(v);
	if (!isfinite(m))
		return -1;
	*C = m;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_row(const void *a, const void *b)
{
	double x = ((const struct srow *)a)->d, y = ((const struct srow *)b)->d;

	return (x > y) - (x < y);
}

/*
 * The queue probe's single client reads random offsets one after another:
 * each read's distance from the one before is a seek sample, and random
 * pairs reach the long distances the seek file does not (a quarter of them
 * lie beyond half the device).  Both reads must have gone to the media.
 */
static struct samp *queue_samples(const struct hd_df *df, size_t *n)
{
	const struct hd_df_col *p, *o, *t, *l, *c;
	struct samp *v;
	double prev = NAN;

	*n = 0;
	if (!df)
		return NULL;
	p = hd_df_col(df, "procs");
	o = hd_df_col(df, "offset_bytes");
	t = hd_df_col(df, "start_ms");
	l = hd_df_col(df, "latency_ms");
	c = hd_df_col(df, "class");
	if (!p || !o || !t || !l || !c || p->type != HD_COL_NUM || o->type != HD_COL_NUM || l->type != HD_COL_NUM ||
	    c->type != HD_COL_STR || !df->nrows || !(v = malloc(df->nrows * sizeof(*v))))
		return NULL;
	for (size_t i = 0; i < df->nrows; i++) {
		int media = strcmp(hd_df_str(c, i), "media") == 0;

		if (p->num[i] != 1) {
			prev = NAN;
			continue;
		}
		if (media && !isnan(prev))
			v[(*n)++] = (struct samp){ o->num[i] - prev, l->num[i], prev, 0 };
		prev = media ? o->num[i] : NAN;
	}
	return v;
}

/* Samples into pooled bins, the band edges, the signed rows and the pooled points. */
static int seek_curve(struct fit *f, const struct inputs *in, char *err, size_t errlen)
{
	size_t ns = 0, nr = 0, nq = 0, nb = 0, nh = 0;
	struct samp *s = samples(in->seek, "read", "media", &ns);
	struct samp *r = samples(in->resp, "read", "media", &nr), *all = NULL;
	struct samp *q = queue_samples(in->qreq, &nq);
	struct pbin *b = NULL;
	double smin = INFINITY, smax = 0, *tmp = NULL, *dist = NULL, *delta = NULL, *sig2 = NULL;
	int rc = -1;

	for (size_t i = 0; i < ns; i++) {
		smax = fmax(smax, fabs(s[i].d));
		smin = fmin(smin, fabs(s[i].d));
	}
	/* The response probe adds the distances the seek file does not reach. */
	f->resp_from = ns ? smax * 1.2 : 0;
	if (r) {
		size_t k = 0, nd = 0;

		qsort(r, nr, sizeof(*r), cmp_samp_d);
		drop_fixed_starts(r, &nr);
		for (size_t i = 0; i < nr; i++)
			if (fabs(r[i].d) >= f->resp_from && fabs(r[i].d) > 2 * f->block)
				r[k++] = r[i];
		nr = k;
		/* One bin per grid distance, numbered after every seek bin. */
		dist = malloc((nr ? nr : 1) * sizeof(*dist));
		for (size_t i = 0; dist && i < nr; i++)
			dist[i] = fabs(r[i].d);
		if (dist)
			qsort(dist, nr, sizeof(*dist), cmp_double);
		for (size_t i = 0; dist && i < nr; i++)
			if (i == 0 || dist[i] != dist[i - 1])
				dist[nd++] = dist[i];
		for (size_t i = 0; dist && i < nr; i++) {
			size_t lo = 0, hi = nd;

			while (hi - lo > 1) {
				size_t mid = (lo + hi) / 2;
				if (dist[mid] <= fabs(r[i].d))
					lo = mid;
				else
					hi = mid;
			}
			r[i].key = 1000000 + (int)lo;
		}
	}
	for (size_t i = 0; i < ns; i++)
		s[i].key = (int)floor(log2(fabs(s[i].d) / smin) * BINS_PER_OCTAVE);
	{
		size_t k = 0;

		for (size_t i = 0; i < nq; i++)
			if (fabs(q[i].d) >= f->resp_from && q[i].d != 0) {
				q[k] = q[i];
				q[k++].key = 2000000 + (int)floor(log2(fabs(q[i].d)) * BINS_PER_OCTAVE);
			}
		nq = k;
	}
	/* From here on the response and queue samples are one set. */
	if (nq) {
		struct samp *rq = realloc(r, (nr + nq) * sizeof(*r));

		if (!rq) {
			fail(err, errlen, "out of memory");
			goto out;
		}
		r = rq;
		memcpy(r + nr, q, nq * sizeof(*q));
		nr += nq;
	}
	f->far = malloc((nr ? nr : 1) * sizeof(*f->far));
	for (size_t i = 0; f->far && i < nr; i++)
		if (fabs(r[i].d) >= f->cap / 2)
			f->far[f->nfar++] = r[i];
	all = malloc((ns + nr ? ns + nr : 1) * sizeof(*all));
	b = calloc(ns + nr ? ns + nr : 1, sizeof(*b));
	f->rows = calloc(2 * (ns + nr) + 1, sizeof(*f->rows));
	f->pool = calloc(ns + nr ? ns + nr : 1, sizeof(*f->pool));
	delta = calloc(2 * (ns + nr) + 1, sizeof(*delta));
	sig2 = calloc(2 * (ns + nr) + 1, sizeof(*sig2));
	tmp = malloc((ns + nr ? ns + nr : 1) * sizeof(*tmp));
	if (!all || !b || !f->rows || !f->pool || !delta || !sig2 || !tmp || (nr && !dist)) {
		fail(err, errlen, "out of memory");
		goto out;
	}
	if (ns)
		memcpy(all, s, ns * sizeof(*s));
	if (nr)
		memcpy(all + ns, r, nr * sizeof(*r));
	qsort(all, ns + nr, sizeof(*all), cmp_key);
	for (size_t i = 0, j; i < ns + nr; i = j) {
		size_t m = i;

		for (j = i; j < ns + nr && all[j].key == all[i].key; j++)
			if (all[j].d < 0)
				m = j + 1;
		if (j - i < MIN_BIN)
			continue;
		b[nb++] = (struct pbin){ geo_mean(all, i, j), 0, 0, i, m, j, all[i].key };
	}
	qsort(b, nb, sizeof(*b), cmp_pbin);
	/*
	 * The band of each bin; a bin whose latencies span less than half a
	 * revolution did not sample the rotation and is dropped.  (Moving
	 * samples along the curve to their bin's distance first was tried: the
	 * neighbours' noise it brings in costs more than a third of an octave
	 * of slope does.)
	 */
	{
		size_t k = 0;

		for (size_t i = 0; i < nb; i++) {
			for (size_t j = b[i].i0; j < b[i].i1; j++)
				tmp[j - b[i].i0] = all[j].lat;
			b[i].lo = band_edge(tmp, b[i].i1 - b[i].i0, f->rev, &b[i].spread);
			if (b[i].spread >= 0.5 * f->rev)
				b[k++] = b[i];
		}
		nb = k;
	}
	if (!nb) {
		fail(err, errlen, "no seek or response samples to fit a seek curve to");
		goto out;
	}
	/* Each direction of each bin: its own band edge, as a deviation from the pooled curve. */
	for (size_t k = 0; k < nb; k++) {
		size_t part[3] = { b[k].i0, b[k].im, b[k].i1 };

		f->pool[f->npool++] = (struct hd_fit_pt){ b[k].d, b[k].lo - f->C, b[k].i1 - b[k].i0, b[k].key };
		for (int h = 0; h < 2; h++) {
			size_t n = part[h + 1] - part[h];
			double D, sp;

			if (n < MIN_BIN)
				continue;
			D = geo_mean(all, part[h], part[h + 1]);
			for (size_t j = part[h]; j < part[h + 1]; j++)
				tmp[j - part[h]] = all[j].lat;
			delta[nh] = band_edge(tmp, n, f->rev, &sp) - curve_at(b, nb, D);
			sig2[nh] = f->rev * f->rev / (2.0 * (double)(n + 1) * (double)(n + 2));
			f->rows[nh++] = (struct srow){ h ? D : -D, curve_at(b, nb, D), n };
		}
	}
	/*
	 * How much the directions truly differ: their deviations at adjacent
	 * distances share a real difference (which varies smoothly) but not
	 * their noise, so the mean product of neighbours estimates its square.
	 */
	{
		double sum = 0;
		size_t pairs = 0;

		for (size_t k = 0; k < nh; k++)
			for (size_t j = k + 1; j < nh && j <= k + 2; j++)
				if ((f->rows[j].d < 0) == (f->rows[k].d < 0)) {
					sum += delta[k] * delta[j];
					pairs++;
					break;
				}
		f->tau = pairs ? sqrt(fmax(0, sum / (double)pairs)) : 0;
	}
	for (size_t k = 0; k < nh; k++) {
		double t2 = f->tau * f->tau;

		f->rows[k].ms += (t2 > 0 ? delta[k] * t2 / (t2 + sig2[k]) : 0) - f->C;
	}
	f->nrows = nh;
	qsort(f->rows, f->nrows, sizeof(*f->rows), cmp_row);
	f->have_rw = hd_fit_rw(f->pool, f->npool, &f->rw) == 0;
	rc = 0;
out:
	free(s);
	free(r);
	free(q);
	free(all);
	free(b);
	free(tmp);
	free(dist);
	free(delta);
	free(sig2);
	return rc;
}

/*
 * Datasheet figures: track-to-track is the shortest distance's positioning
 * (from the host a head switch and a one-cylinder seek look alike);
 * full stroke a straight line in tracks through the points beyond half the
 * device (the coasting part of a seek), taken to the device's whole length:
 * the response probe's longest distance starts every sample at the same
 * place, so it cannot be measured directly, and the Ruemmler-Wilkes line,
 * fitted from its knee on, leans on a curve that still bends.  The
 * average weights
 * the curve by the distance between two uniformly random positions,
 * density 2 (cap - d) / cap^2, which is the vendors' "average over all
 * possible seeks" taken over bytes.
 */
/*
 * The far end of the curve straight from the samples beyond half the
 * device: L = C + c + e * T + W with T the tracks each one crossed (its
 * own start is known) and W uniform over a revolution.  For a slope e the
 * band edge of L - e * T is found as for a bin; the slope is the one that
 * fits the most samples into one revolution (the middle of the slopes that
 * do), which, like the band edge, errs as 1/n rather than 1/sqrt(n).
 */
static int far_line(struct fit *f)
{
	const int G = 600;
	size_t n = f->nfar, best = 0, cnt;
	double *x, *r, emax = 0, e0 = NAN, e1 = NAN, sp;

	if (n < 20)
		return -1;
	x = malloc(n * sizeof(*x));
	r = malloc(n * sizeof(*r));
	if (!x || !r) {
		free(x);
		free(r);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		double a = f->far[i].start, b = a + f->far[i].d;

		x[i] = seg_tracks(f, fmin(a, b), fmax(a, b));
		emax = fmax(emax, f->far[i].lat / x[i]);
	}
	for (int g = 0; g <= G; g++) {
		double e = emax * g / G;

		for (size_t i = 0; i < n; i++)
			r[i] = f->far[i].lat - e * x[i];
		hd_sort_doubles(r, n);
		cnt = 0;
		for (size_t i = 0, j = 0; i < n; i++) {
			while (j < n && r[j] <= r[i] + 1.01 * f->rev)
				j++;
			cnt = j - i > cnt ? j - i : cnt;
		}
		if (cnt > best) {
			best = cnt;
			e0 = e1 = e;
		} else if (cnt == best) {
			e1 = e;
		}
	}
	f->far_e = (e0 + e1) / 2;
	for (size_t i = 0; i < n; i++)
		r[i] = f->far[i].lat - f->far_e * x[i];
	f->far_c = band_edge(r, n, f->rev, &sp) - f->C;
	free(x);
	free(r);
	return 0;
}

static void datasheet(struct fit *f)
{
	const int N = 20000;
	double h = f->cap / N, s = 0;
	size_t a = f->npool;

	while (a > 0 && f->pool[a - 1].d >= f->cap / 2)
		a--;
	if (far_line(f) == 0) {
		f->have_far = 1;
	} else if (f->npool - a >= 2) {
		/* Too few samples for the band: a line through the pooled points. */
		struct hd_fit_pt *far = malloc((f->npool - a) * sizeof(*far));

		for (size_t i = a; far && i < f->npool; i++) {
			far[i - a] = f->pool[i];
			far[i - a].d = tracks(f, f->pool[i].d);
		}
		if (far) {
			lsq(far, 0, f->npool - a, 0, &f->far_c, &f->far_e);
			f->have_far = 1;
		}
		free(far);
	}
	f->t2t = f->pool[0].ms;
	f->full = f->have_far ? f->far_c + f->far_e * tracks(f, f->cap) : f->pool[f->npool - 1].ms;
	for (int i = 0; i < N; i++) {
		double d = (i + 0.5) * h;

		s += pooled_at(f, d) * 2 * (f->cap - d) / (f->cap * f->cap) * h;
	}
	f->avg = s;
}

/*
 * Read-ahead: a read just past the previous one (0 < d <= one block) finds
 * its sectors already gone by and waits nearly a revolution, unless the
 * drive kept reading after the previous read.  Served in under half a
 * revolution means read-ahead; the reach is the longest run of such
 * distances from the shortest, as far as the matching distance backwards
 * still waits more than half a revolution (the same track).
 */
static void read_ahead(struct fit *f, const struct inputs *in)
{
	size_t n, ng;
	struct samp *v = samples(in->resp, "read", "media cache", &n);
	struct group *g;
	double near[64];
	size_t nn = 0;

	f->ra = -1;
	f->ra_bytes = NAN;
	if (!v)
		return;
	qsort(v, n, sizeof(*v), cmp_samp_d);
	g = groups(v, n, &ng);
	free(v);
	if (!g)
		return;
	for (size_t i = 0; i < ng && nn < 64; i++)
		if (g[i].d > 0 && g[i].d <= f->block)
			near[nn++] = g[i].med;
	if (nn) {
		f->ra = median(near, nn) < 0.5 * f->rev;
		f->ra_bytes = 0;
		for (size_t i = 0; f->ra && i < ng; i++) {
			double back = NAN;

			if (g[i].d <= 0)
				continue;
			for (size_t j = 0; j < ng; j++)
				if (g[j].d == -g[i].d)
					back = g[j].med;
			if (g[i].med >= 0.5 * f->rev || !(back > 0.5 * f->rev))
				break;
			f->ra_bytes = g[i].d;
		}
	}
	free(g);
}

/*
 * Write cache.  The interval probe calibrates it directly (the same block
 * written twice: a second write far cheaper than a media read went to the
 * cache) and labels its writes: mostly "cache" means on.  Without an
 * interval file, the seek writes (not taken with --sync) decide: a cached
 * write needs no positioning and no rotation, so at least 3% of them run
 * faster than all but 1% of the seek reads.  Only the first writes may be
 * fast: a closed loop with no idle time fills the cache, and from then on
 * each write waits for a destage.
 */
static void write_cache(struct fit *f, const struct inputs *in)
{
	f->wc = -1;
	f->wc_method = NULL;
	f->wc_median = NAN;
	if (in->interval) {
		const struct hd_df_col *c = hd_df_col(in->interval, "class");
		size_t cache = 0, all = 0;

		for (size_t i = 0; c && c->type == HD_COL_STR && i < in->interval->nrows; i++) {
			if (strcmp(hd_df_str(c, i), "error") == 0)
				continue;
			all++;
			cache += strcmp(hd_df_str(c, i), "cache") == 0;
		}
		if (all) {
			f->wc = cache * 2 > all;
			f->wc_method = "interval writes labelled cache by the probe's write calibration";
			return;
		}
	}
	for (size_t k = 0; k < in->n && in->seek; k++) {
		const char *t = hd_df_meta(in->df[k], "test"), *sy = hd_df_meta(in->df[k], "sync_writes");
		size_t nw, nr, fast = 0;
		struct samp *w, *r;
		double *lat, p1;

		if (!t || strcmp(t, "seek") || (sy && strcmp(sy, "yes") == 0))
			continue;
		w = samples(in->df[k], "write", "media cache", &nw);
		r = samples(in->seek, "read", "media", &nr);
		lat = malloc((nr ? nr : 1) * sizeof(*lat));
		if (w && r && lat && nw >= 20 && nr >= 100) {
			for (size_t i = 0; i < nr; i++)
				lat[i] = r[i].lat;
			hd_sort_doubles(lat, nr);
			p1 = hd_percentile_sorted(lat, nr, 1);
			for (size_t i = 0; i < nw; i++)
				fast += w[i].lat < p1;
			f->wc = fast * 100 >= nw * 3;
			f->wc_median = p1;
			f->wc_method = "seek writes faster than the 1st percentile of seek reads (3% or more: on)";
		}
		free(w);
		free(r);
		free(lat);
		if (f->wc >= 0)
			return;
	}
}

/* Track bytes (per revolution) at the ends of the device from the tiny-distance response reads. */
static void track_bytes(struct fit *f, const struct inputs *in)
{
	size_t n, k0 = 0, k1 = 0;
	struct samp *v = samples(in->resp, "read", "media cache", &n);
	double *lo = malloc((n ? n : 1) * sizeof(double)), *hi = malloc((n ? n : 1) * sizeof(double));

	f->trk_outer = f->trk_inner = NAN;
	for (size_t i = 0; v && lo && hi && i < n; i++) {
		double B = hd_fit_track_bytes(v[i].d, v[i].lat, f->rev, f->block);

		if (!isfinite(B))
			continue;
		if (v[i].start < 0.1 * f->cap)
			lo[k0++] = B;
		else if (v[i].start > 0.9 * f->cap)
			hi[k1++] = B;
	}
	if (k0 >= 3)
		f->trk_outer = median(lo, k0);
	if (k1 >= 3)
		f->trk_inner = median(hi, k1);
	free(v);
	free(lo);
	free(hi);
}

double hd_fit_track_bytes(double d, double lat, double rev, double block)
{
	/* latency = rev * (1 + d / B) on the same track, for tiny |d| that waited. */
	double x = lat / rev - 1;

	if (d == 0 || fabs(d) > 2 * block || fabs(x) > 0.25 || x == 0 || (x > 0) != (d > 0))
		return NAN;
	return d / x;
}

/*
 * Zone steps: a new level where the rate leaves the current one by 1.5%
 * and the next point agrees.  Outer and inner are the first and last
 * levels.  0, or -ENOMEM.
 */
static int zone_steps(const struct hd_df *zone, struct hd_fit_result *r)
{
	const struct hd_df_col *o = zone ? hd_df_col(zone, "offset_bytes") : NULL, *v = zone ? hd_df_col(zone, "mb_s") : NULL;
	double sum = 0, first;
	size_t cnt = 0, n;

	r->zones_outer_mb_s = r->zones_inner_mb_s = NAN;
	if (!o || !v || o->type != HD_COL_NUM || v->type != HD_COL_NUM || !zone->nrows)
		return 0;
	n = zone->nrows;
	r->zones = malloc(n * sizeof(*r->zones));
	if (!r->zones)
		return -ENOMEM;
	r->have_zones = 1;
	for (size_t i = 0; i < n; i++) {
		double x = v->num[i];

		if (cnt && fabs(x - sum / (double)cnt) <= 0.015 * sum / (double)cnt) {
			sum += x;
			cnt++;
			continue;
		}
		/* A read straddling two zones runs between their rates: wait for a second point. */
		if (cnt && i + 1 < n && fabs(v->num[i + 1] - x) > 0.015 * x)
			continue;
		if (cnt)
			r->zones[r->nzones - 1].mb_s = sum / (double)cnt;
		r->zones[r->nzones++] = (struct hd_fit_zone){ o->num[i], NAN };
		sum = x;
		cnt = 1;
	}
	r->zones[r->nzones - 1].mb_s = sum / (double)cnt;
	first = v->num[0];
	for (size_t i = 1; i < n && fabs(v->num[i] - v->num[0]) <= 0.015 * v->num[0]; i++)
		first = (first * (double)i + v->num[i]) / (double)(i + 1);
	r->zones_outer_mb_s = first;
	r->zones_inner_mb_s = r->zones[r->nzones - 1].mb_s;
	return 0;
}

/* What the data files' headers say of a cache (key): "on", "off" or NULL. */
static const char *header_onoff(const struct inputs *in, const char *key)
{
	for (size_t k = 0; k < in->n; k++) {
		const char *v = hd_df_meta(in->df[k], key);

		/* Static strings: the result outlives the files. */
		if (v && strcmp(v, "on") == 0)
			return "on";
		if (v && strcmp(v, "off") == 0)
			return "off";
	}
	return NULL;
}

/* IOPS at the deepest queue over one client's, NAN without a queue file. */
static double queue_gain(const struct hd_df *queue)
{
	const struct hd_df_col *p = queue ? hd_df_col(queue, "procs") : NULL, *io = queue ? hd_df_col(queue, "iops") : NULL;
	double i1 = NAN, imax = NAN, pmax = 0;

	for (size_t i = 0; p && io && p->type == HD_COL_NUM && io->type == HD_COL_NUM && i < queue->nrows; i++) {
		if (p->num[i] == 1)
			i1 = io->num[i];
		if (p->num[i] > pmax) {
			pmax = p->num[i];
			imax = io->num[i];
		}
	}
	return imax / i1;
}

/*
 * x as a JSON number reads it back (hd_json_num's forms): null for what is
 * not finite, whole numbers in full, others to ten significant digits.
 */
static double stored(double x)
{
	char buf[48];
	double v;

	if (!isfinite(x))
		return NAN;
	if ((x == floor(x) && fabs(x) < 9007199254740992.0) || fabs(x) >= 1.797693134e308)
		return x;
	snprintf(buf, sizeof(buf), "%.10g", x);
	return hd_parse_double(buf, &v) ? x : v;
}

/* The figures of f into r, as the fit section holds them; 0 or -ENOMEM. */
static int result_of(const struct fit *f, const struct inputs *in, struct hd_fit_result *r)
{
	memset(r, 0, sizeof(*r));
	r->rpm = stored(60000.0 / f->rev);
	r->rpm_uncertainty = stored(60000.0 / (f->rev * f->rev) * f->rev_unc);
	r->rpm_method = f->rev_method;
	r->revolution_ms = stored(f->rev);
	r->revolution_uncertainty_ms = stored(f->rev_unc);
	r->revolution_points = f->rev_points;
	r->overhead_ms = stored(f->C);
	r->overhead_method = f->C_method;
	r->block_bytes = stored(f->block);
	r->cache_hit_ms = stored(f->hit_ms);
	r->track_to_track_ms = stored(f->t2t);
	r->avg_seek_ms = stored(f->avg);
	r->full_stroke_ms = stored(f->full);
	r->capacity_bytes = stored(f->cap);
	r->seek_estimator = "trimmed midrange per distance bin minus half a revolution and the overhead "
			    "(latencies detrended to the bin's distance along the curve)";
	r->have_model = f->have_rw;
	r->model = (struct hd_fit_rw){ stored(f->rw.a), stored(f->rw.b), stored(f->rw.knee),
				       stored(f->rw.c), stored(f->rw.e), stored(f->rw.rms) };
	r->read_ahead = f->ra;
	r->read_ahead_bytes = f->ra < 0 ? NAN : stored(f->ra_bytes);
	r->read_ahead_header = header_onoff(in, "read_lookahead");
	r->write_cache = f->wc;
	r->write_cache_header = header_onoff(in, "write_cache");
	r->write_cache_method = f->wc_method;
	r->write_cache_read_p1_ms = stored(f->wc_median);
	r->track_bytes_outer = stored(f->trk_outer);
	r->track_bytes_inner = stored(f->trk_inner);
	if (zone_steps(in->zone, r))
		return -ENOMEM;
	for (size_t i = 0; i < r->nzones; i++)
		r->zones[i] = (struct hd_fit_zone){ stored(r->zones[i].offset_bytes), stored(r->zones[i].mb_s) };
	r->zones_outer_mb_s = stored(r->zones_outer_mb_s);
	r->zones_inner_mb_s = stored(r->zones_inner_mb_s);
	r->queue_gain = stored(queue_gain(in->queue));
	r->seek_reference_bytes = stored(f->ref);
	r->response_from_bytes = stored(f->resp_from);
	r->seekcurve_file = "seekcurve.tsv";
	return 0;
}

void hd_fit_result_free(struct hd_fit_result *r)
{
	free(r->zones);
	r->zones = NULL;
	r->nzones = 0;
}

/* Copy a header line from src when it has one. */
static void copy_meta(struct hd_df_writer *w, const struct hd_df *src, const char *key)
{
	const char *v = src ? hd_df_meta(src, key) : NULL;

	if (v)
		hd_dfw_meta(w, key, "%s", v);
}

static int write_seekcurve(const char *dir, const struct fit *f, const struct inputs *in, char *err, size_t errlen)
{
	char path[4096];
	struct hd_df_writer *w;
	const struct hd_df *src = in->seek ? in->seek : in->resp;
	const char *call = "";
	size_t total = 0;
	FILE *o;
	int rc;

	snprintf(path, sizeof(path), "%s/seekcurve.tsv", dir);
	rc = hd_dfw_open(&w, path, "seekcurve");
	if (rc) {
		fail(err, errlen, "create %s: %s", path, hd_fs_strerror(rc));
		return -1;
	}
	copy_meta(w, src, "device");
	copy_meta(w, src, "device_kind");
	copy_meta(w, src, "model");
	copy_meta(w, src, "capacity_bytes");
	copy_meta(w, src, "sector_bytes");
	hd_dfw_meta(w, "reference_bytes", "%.0f", f->ref);
	hd_dfw_meta(w, "source", "%s%s%s%s", in->seek ? "seek (read)" : "", in->seek && in->resp ? ", " : "",
		    in->resp ? "response (read)" : "", in->qreq ? ", queue (one client)" : "");
	if (in->seek && in->resp)
		hd_dfw_meta(w, "response_from_bytes", "%.0f", f->resp_from);
	hd_dfw_meta(w, "estimator", "trimmed midrange of each bin minus half a revolution and the overhead");
	hd_dfw_meta(w, "revolution_ms", "%.6f", f->rev);
	hd_dfw_meta(w, "overhead_ms", "%.6f", f->C);
	if (f->have_rw)
		hd_dfw_meta(w, "rw_model", "a=%.6g b=%.6g knee_bytes=%.6g c=%.6g e=%.6g rms_ms=%.4f", f->rw.a, f->rw.b,
			    f->rw.knee, f->rw.c, f->rw.e, f->rw.rms);
	for (size_t k = 0; k < f->nrows; k++)
		total += f->rows[k].n;
	hd_dfw_meta(w, "samples", "%zu", total);
	hd_dfw_meta(w, "bins", "%zu", f->nrows);
	hd_dfw_meta(w, "direction_spread_ms", "%.4f", f->tau);
	hd_dfw_columns(w, "distance_bytes seek_ms samples");
	o = hd_dfw_rows(w);
	for (size_t k = 0; k < f->nrows; k++)
		fprintf(o, "%.0f\t%.6f\t%zu\n", f->rows[k].d, f->rows[k].ms, f->rows[k].n);
	rc = hd_dfw_finish(w, 1, &call);
	if (rc) {
		fail(err, errlen, "%s %s: %s", call, path, hd_fs_strerror(rc));
		return -1;
	}
	return 0;
}

static const char rev_band_method[] =
	"width of the seek samples' band in narrow distance bins (range, scaled), median over bins";

/* The whole fit into f; 0 or -1 with err. */
static int fit_all(struct fit *f, const struct inputs *in, char *err, size_t errlen)
{
	const struct hd_df *any = in->seek ? in->seek : in->resp;
	const char *v;

	memset(f, 0, sizeof(*f));
	if (!any) {
		fail(err, errlen, "no seek or response data file: nothing to fit a seek curve to");
		return -1;
	}
	v = hd_df_meta(any, "capacity_bytes");
	f->cap = v ? atof(v) : 0;
	if (!(f->cap > 0)) {
		fail(err, errlen, "%s: no capacity_bytes header", any->path);
		return -1;
	}
	f->block = param_num(in->resp ? in->resp : any, "block", 4096);
	v = in->seek ? hd_df_meta(in->seek, "reference_bytes") : NULL;
	f->ref = v ? atof(v) : f->cap / 2;
	f->hit_ms = hit_p50(any);
	if (in->interval && rev_from_interval(in->interval, &f->rev, &f->rev_unc, &f->rev_points) == 0) {
		f->rev_method = "write-interval sawtooth: period aligning latency + idle time";
	} else if (in->resp && rev_from_response(in->resp, f->block, &f->rev, &f->rev_unc, &f->rev_points) == 0) {
		double rev, unc;
		size_t pts;

		f->rev_method = "response at tiny distances: per-distance medians, line in signed distance, "
				"intercept at zero";
		/*
		 * A revolution under a millisecond is no rotation: reads near the
		 * previous one were served whole by read-ahead or a large physical
		 * sector (how many were is luck of the offsets), and the seek band
		 * is the next witness.  Where it shows none either (an SSD), the
		 * estimate stands and the check below says so.
		 */
		if (f->rev < 1.0 && in->seek && rev_from_seek_spread(in->seek, &rev, &unc, &pts) == 0 &&
		    rev >= 1.0) {
			f->rev = rev;
			f->rev_unc = unc;
			f->rev_points = pts;
			f->rev_method = rev_band_method;
		}
	} else if (in->seek && rev_from_seek_spread(in->seek, &f->rev, &f->rev_unc, &f->rev_points) == 0) {
		f->rev_method = rev_band_method;
	} else {
		fail(err, errlen, "no data to measure the revolution from (response reads at distances up to "
				  "two blocks, a write-interval sawtooth, or seek reads)");
		return -1;
	}
	/*
	 * Spinning disks turn between 3600 and 15000 rpm, a few hundred to
	 * many thousand either way at most: anything else found here is no
	 * rotation at all (an SSD, RAM, a file the page cache serves), and a
	 * seek curve with a revolution removed would be nonsense.
	 */
	if (!(f->rev >= 1.0 && f->rev <= 100.0) || !(f->rev_unc < 0.1 * f->rev)) {
		fail(err, errlen, "no rotation found: the revolution came out at %.4f +- %.4f ms (%.0f rpm); this "
				  "device does not behave like a spinning disk, so no seek curve is fitted",
		     f->rev, f->rev_unc, f->rev > 0 ? 60000 / f->rev : 0.0);
		return -1;
	}
	if (in->resp && overhead_from_response(in->resp, f->block, &f->C) == 0) {
		f->C_method = "least response read time beyond two blocks (no positioning, no wait)";
	} else if (isfinite(f->hit_ms)) {
		f->C = f->hit_ms;
		f->C_method = "calibration cache-hit time (no response data)";
	} else {
		f->C = 0;
		f->C_method = "none (no response data or calibration): seek times include it";
	}
	track_bytes(f, in);
	if (seek_curve(f, in, err, errlen))
		return -1;
	datasheet(f);
	read_ahead(f, in);
	write_cache(f, in);
	return 0;
}

static void free_fit(struct fit *f)
{
	free(f->rows);
	free(f->pool);
	free(f->far);
}

int hd_fit_dir(const char *dir, struct hd_fit_result *out, char *err, size_t errlen)
{
	struct inputs in;
	struct fit f;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (load_inputs(dir, &in, err, errlen))
		goto done;
	if (fit_all(&f, &in, err, errlen))
		goto fitted;
	if (write_seekcurve(dir, &f, &in, err, errlen))
		goto fitted;
	if (result_of(&f, &in, out)) {
		fail(err, errlen, "out of memory");
		hd_fit_result_free(out);
		goto fitted;
	}
	rc = 0;
fitted:
	free_fit(&f);
done:
	free_inputs(&in);
	return rc;
}
