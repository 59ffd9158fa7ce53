/*
 * The statistics of hddscope compare: latency against distance compared
 * bin by bin (a bootstrap standard error, a normal interval and p-value
 * per bin, Holm's correction over every test of a section), crossover
 * distances, spread at equal distances, and the width of the rotational
 * band.  compare_dir.c applies
 * them to two profile directories; cmd_compare.c is the command.
 *
 * Why the mid-decile: a media access is positioning plus a rotational wait
 * that is uniform over one revolution, so the samples of one distance form
 * a band one revolution wide.  For a uniform band, (p10 + p90) / 2
 * estimates the centre (the mean access time) with about 0.21 R/sqrt(n)
 * standard error, against 0.29 for the mean and 0.5 for the median, and it
 * ignores up to 10% of outliers on either side (a retried write, a cache
 * hit the threshold missed).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/compare.h"
#include "hddscope/stats.h"
#include "hddscope/util.h"

double hd_cmp_z(double conf)
{
	double lo = 0, hi = 40;

	/* hd_norm_p2 falls with z: bisect for p = 1 - conf. */
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;
		if (hd_norm_p2(mid) > 1 - conf)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void hd_cmp_defaults(struct hd_cmp_opts *o)
{
	o->bins_per_decade = 8;
	o->min_samples = 8;
	o->min_rel = 0.02;
	o->resamples = 200;
	o->confidence = 0.95;
	o->alpha = 0.001;
	o->seed = 1;
	o->have_cut = 0;
	o->cut = -1;
}

double hd_cmp_typical(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	hd_sort_doubles(v, n);
	return (hd_percentile_sorted(v, n, 10) + hd_percentile_sorted(v, n, 90)) / 2;
}

/* A sample tagged with its bin (or its distance, for grouping). */
struct keyed {
	double key;
	double lat;
	double d, logd;
};

static int cmp_keyed(const void *a, const void *b)
{
	double x = ((const struct keyed *)a)->key, y = ((const struct keyed *)b)->key;

	return (x > y) - (x < y);
}

/* Tag each sample with floor(log10 d * bpd), sorted by it; NULL on ENOMEM. */
static struct keyed *bin_samples(const double *d, const double *lat, size_t n, int bpd)
{
	struct keyed *k = malloc((n ? n : 1) * sizeof(*k));

	if (!k)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		k[i].d = d[i];
		k[i].logd = log10(d[i]);
		/* The small bias keeps exact powers of ten in the bin they open. */
		k[i].key = floor(k[i].logd * bpd + 1e-9);
		k[i].lat = lat[i];
	}
	qsort(k, n, sizeof(*k), cmp_keyed);
	return k;
}

/* The run [*lo, *hi) of samples with key key, starting the search at *lo. */
static void run_of(const struct keyed *k, size_t n, double key, size_t *lo, size_t *hi)
{
	while (*lo < n && k[*lo].key < key)
		(*lo)++;
	*hi = *lo;
	while (*hi < n && k[*hi].key == key)
		(*hi)++;
}

/* Typical latency of a bootstrap resample of src (n values) through tmp. */
static double resample_typical(const double *src, size_t n, double *tmp, struct hd_rng *r)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = src[hd_rng_below(r, n)];
	return hd_cmp_typical(tmp, n);
}

/* The standard deviation of n values. */
static double sd_of(const double *v, size_t n)
{
	double m = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		m += v[i];
	m /= (double)(n ? n : 1);
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
}

/* Where the samples of a bin lie: extent and mean log distance. */
static void bin_place(struct hd_cmp_bin *b, const struct keyed *ka, size_t na, const struct keyed *kb, size_t nb)
{
	double sx = 0;

	b->lo = INFINITY;
	b->hi = 0;
	for (size_t i = 0; i < na + nb; i++) {
		const struct keyed *k = i < na ? &ka[i] : &kb[i - na];
		b->lo = fmin(b->lo, k->d);
		b->hi = fmax(b->hi, k->d);
		sx += k->logd;
	}
	b->x = sx / (double)(na + nb);
	b->na = na;
	b->nb = nb;
}

/*
 * Fill bin b from A's samples ka[0..na) and B's kb[0..nb): typical
 * latencies, the difference, its bootstrap standard error, interval and
 * p-value.  work holds 2 * (na + nb) + resamples doubles.
 */
static void fill_bin(struct hd_cmp_bin *b, const struct keyed *ka, size_t na, const struct keyed *kb,
		     size_t nb, const struct hd_cmp_opts *o, struct hd_rng *r, double *work)
{
	double *va = work, *vb = va + na, *tmp = vb + nb, *boot = tmp + na + nb, z = hd_cmp_z(o->confidence), top;

	bin_place(b, ka, na, kb, nb);
	for (size_t i = 0; i < na; i++)
		va[i] = ka[i].lat;
	for (size_t i = 0; i < nb; i++)
		vb[i] = kb[i].lat;
	b->ta = hd_cmp_typical(va, na);
	b->tb = hd_cmp_typical(vb, nb);
	b->diff = b->tb - b->ta;
	top = fmax(b->ta, b->tb);
	b->pct = fabs(b->diff) / top * 100;
	for (int i = 0; i < o->resamples; i++)
		boot[i] = resample_typical(vb, nb, tmp, r) - resample_typical(va, na, tmp, r);
	b->se = sd_of(boot, (size_t)o->resamples);
	b->ci_lo = b->diff - z * b->se;
	b->ci_hi = b->diff + z * b->se;
	/*
	 * Without a standard error there is no test: nothing is called.  The
	 * ratio to a bootstrap error of a quantile statistic has heavier tails
	 * than the normal in small bins (drives compared with themselves show
	 * it): Student's t with the smaller side's n - 1 degrees of freedom.
	 */
	b->p = b->se > 0 ? hd_t_p2(b->diff / b->se, (double)(na < nb ? na : nb) - 1) : 1;
	b->bound_pct = fmax(fabs(b->ci_lo), fabs(b->ci_hi)) / top * 100;
	b->winner = 0;
}

/* Does every bin of range r lean towards winner w (without being called)? */
static int leans(const struct hd_cmp_curve *c, const struct hd_cmp_range *r, char w)
{
	for (size_t i = r->first; i <= r->last; i++)
		if ((c->bins[i].diff > 0) != (w == 'A'))
			return 0;
	return 1;
}

/*
 * A stretch of undecided bins between two ranges of the same winner, all
 * leaning its way, is the same finding interrupted by noise: merge the
 * three, keeping the percentages of the bins that were called.
 */
static void merge_gaps(struct hd_cmp_curve *c)
{
	size_t out = 0;

	for (size_t r = 0; r < c->nranges; r++) {
		struct hd_cmp_range *prev = out ? &c->ranges[out - 1] : NULL;

		if (prev && r + 1 < c->nranges && !c->ranges[r].winner && prev->winner &&
		    c->ranges[r + 1].winner == prev->winner && leans(c, &c->ranges[r], prev->winner)) {
			prev->last = c->ranges[r + 1].last;
			prev->hi = c->ranges[r + 1].hi;
			prev->pct_min = fmin(prev->pct_min, c->ranges[r + 1].pct_min);
			prev->pct_max = fmax(prev->pct_max, c->ranges[r + 1].pct_max);
			prev->ci_lo = fmin(prev->ci_lo, c->ranges[r + 1].ci_lo);
			prev->ci_hi = fmax(prev->ci_hi, c->ranges[r + 1].ci_hi);
			r++;
			continue;
		}
		c->ranges[out++] = c->ranges[r];
	}
	c->nranges = out;
}

/* Widen a winner range's interval by bin b's: the advantage is +diff for A, -diff for B. */
static void range_ci(struct hd_cmp_range *r, const struct hd_cmp_bin *b)
{
	double s = b->winner == 'A' ? 1 : -1, top = fmax(b->ta, b->tb) / 100;

	r->ci_lo = fmin(r->ci_lo, fmin(s * b->ci_lo, s * b->ci_hi) / top);
	r->ci_hi = fmax(r->ci_hi, fmax(s * b->ci_lo, s * b->ci_hi) / top);
}

static int make_ranges(struct hd_cmp_curve *c)
{
	c->ranges = calloc(c->nbins ? c->nbins : 1, sizeof(*c->ranges));
	if (!c->ranges)
		return -ENOMEM;
	for (size_t i = 0; i < c->nbins; i++) {
		const struct hd_cmp_bin *b = &c->bins[i];
		struct hd_cmp_range *r = c->nranges ? &c->ranges[c->nranges - 1] : NULL;

		if (!r || r->winner != b->winner) {
			r = &c->ranges[c->nranges++];
			r->first = i;
			r->winner = b->winner;
			r->lo = b->lo;
			r->pct_min = r->ci_lo = INFINITY;
			r->pct_max = r->ci_hi = r->bound_pct = 0;
		}
		r->last = i;
		r->hi = b->hi;
		r->pct_min = fmin(r->pct_min, b->pct);
		r->pct_max = fmax(r->pct_max, b->pct);
		r->bound_pct = fmax(r->bound_pct, b->bound_pct);
		if (b->winner)
			range_ci(r, b);
	}
	merge_gaps(c);
	return 0;
}

/*
 * Where the difference crosses zero between bins i (last of one winner) and
 * j (first of the other): a local linear fit of the difference against log
 * distance, with tricube weights over +-h decades around the current
 * estimate (0.3 or more, and at least three bins on each side where the
 * two ranges have them), repeated until it settles.  Centring the window on the root
 * keeps the bias from the curvature of the difference small (a chord
 * through bins on one side of the root leans towards the flatter side);
 * the window spans enough bins to average their noise.  The result is
 * kept within [x_i, x_j]; linear interpolation between the two is the
 * start and the fallback.
 */
static double cross_x(const struct hd_cmp_curve *c, size_t r1, size_t r2, int bpd)
{
	const struct hd_cmp_range *a = &c->ranges[r1], *b = &c->ranges[r2];
	size_t i = a->last, j = b->first;
	double xi = c->bins[i].x, xj = c->bins[j].x, di = c->bins[i].diff, dj = c->bins[j].diff;
	double x0 = xi + (xj - xi) * di / (di - dj);

	for (int it = 0; it < 8; it++) {
		double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0, slope, mx, my, x1, h = fmax(0.3, 2.5 / bpd);
		size_t p = a->first;
		int m = 0;

		/* Widen the window to three bins on each side where there are. */
		while (p < b->last && c->bins[p].x < x0)
			p++;
		if (p >= a->first + 3)
			h = fmax(h, 1.25 * (x0 - c->bins[p - 3].x));
		if (p + 2 <= b->last)
			h = fmax(h, 1.25 * (c->bins[p + 2].x - x0));

		for (size_t k = a->first; k <= b->last; k++) {
			double u = fabs(c->bins[k].x - x0) / h, w, x = c->bins[k].x, y = c->bins[k].diff;
			if (u >= 1)
				continue;
			w = pow(1 - u * u * u, 3);
			sw += w;
			sx += w * x;
			sy += w * y;
			sxx += w * x * x;
			sxy += w * x * y;
			m++;
		}
		if (m < 3)
			break;
		mx = sx / sw;
		my = sy / sw;
		slope = (sxy / sw - mx * my) / (sxx / sw - mx * mx);
		if (!isfinite(slope) || slope == 0 || (slope > 0) != (dj > di))
			break;
		x1 = fmin(fmax(mx - my / slope, xi), xj);
		if (fabs(x1 - x0) < 1e-4) {
			x0 = x1;
			break;
		}
		x0 = x1;
	}
	return x0;
}

static int make_crossovers(struct hd_cmp_curve *c, int bpd)
{
	size_t prev = (size_t)-1;

	c->cross = calloc(c->nranges ? c->nranges : 1, sizeof(*c->cross));
	if (!c->cross)
		return -ENOMEM;
	for (size_t r = 0; r < c->nranges; r++) {
		if (!c->ranges[r].winner)
			continue;
		if (prev != (size_t)-1 && c->ranges[prev].winner != c->ranges[r].winner) {
			struct hd_cmp_cross *x = &c->cross[c->ncross++];
			x->bytes = pow(10, cross_x(c, prev, r, bpd));
			x->lo = c->bins[c->ranges[prev].last].hi;
			x->hi = c->bins[c->ranges[r].first].lo;
			x->below = c->ranges[prev].winner;
			x->above = c->ranges[r].winner;
		}
		prev = r;
	}
	return 0;
}

int hd_cmp_curve_bins(const double *da, const double *la, size_t na,
		      const double *db, const double *lb, size_t nb,
		      const struct hd_cmp_opts *o, struct hd_cmp_curve *out)
{
	struct keyed *ka = bin_samples(da, la, na, o->bins_per_decade);
	struct keyed *kb = bin_samples(db, lb, nb, o->bins_per_decade);
	double *work = malloc((2 * (na + nb) + (size_t)o->resamples + 1) * sizeof(*work));
	size_t ia = 0, ib = 0, nbins_max = 0;
	struct hd_rng r;
	int rc = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!ka || !kb || !work)
		goto done;
	/* Every distinct key of A bounds the number of bins. */
	for (size_t i = 0; i < na; i++)
		nbins_max += i == 0 || ka[i].key != ka[i - 1].key;
	out->bins = calloc(nbins_max ? nbins_max : 1, sizeof(*out->bins));
	if (!out->bins)
		goto done;
	hd_rng_seed(&r, o->seed);
	while (ia < na) {
		double key = ka[ia].key;
		size_t ea, sb = ib, eb;

		run_of(ka, na, key, &ia, &ea);
		run_of(kb, nb, key, &sb, &eb);
		if (ea - ia >= o->min_samples && eb - sb >= o->min_samples)
			fill_bin(&out->bins[out->nbins++], ka + ia, ea - ia, kb + sb, eb - sb, o, &r, work);
		ia = ea;
		ib = sb;
	}
	rc = 0;
done:
	free(ka);
	free(kb);
	free(work);
	if (rc)
		hd_cmp_curve_free(out);
	return rc;
}

/* Call every bin of the ncv curves that Holm's rejections rej (in bin order) and the smallest difference allow. */
static void call_bins(struct hd_cmp_curve *cv, size_t ncv, const unsigned char *rej, const struct hd_cmp_opts *o)
{
	size_t k = 0;

	for (size_t c = 0; c < ncv; c++)
		for (size_t i = 0; i < cv[c].nbins; i++, k++) {
			struct hd_cmp_bin *b = &cv[c].bins[i];
			b->winner = rej[k] && b->pct >= o->min_rel * 100 ? (b->diff > 0 ? 'A' : 'B') : 0;
		}
}

int hd_cmp_decide(struct hd_cmp_curve *cv, size_t ncv, const struct hd_cmp_opts *o)
{
	size_t n = 0, k = 0;
	double *p;
	unsigned char *rej;
	int rc = -ENOMEM;

	for (size_t c = 0; c < ncv; c++)
		n += cv[c].nbins;
	p = calloc(n ? n : 1, sizeof(*p));
	rej = malloc(n ? n : 1);
	if (!p || !rej)
		goto done;
	for (size_t c = 0; c < ncv; c++)
		for (size_t i = 0; i < cv[c].nbins; i++)
			p[k++] = cv[c].bins[i].p;
	if (o->have_cut) {
		for (size_t i = 0; i < n; i++)
			rej[i] = p[i] <= o->cut;
		rc = 0;
	} else if ((rc = hd_holm(p, n, o->alpha, rej))) {
		goto done;
	}
	call_bins(cv, ncv, rej, o);
	for (size_t c = 0; c < ncv && rc == 0; c++) {
		rc = make_ranges(&cv[c]);
		if (rc == 0)
			rc = make_crossovers(&cv[c], o->bins_per_decade);
	}
done:
	free(p);
	free(rej);
	return rc;
}

int hd_cmp_curve(const double *da, const double *la, size_t na,
		 const double *db, const double *lb, size_t nb,
		 const struct hd_cmp_opts *o, struct hd_cmp_curve *out)
{
	int rc = hd_cmp_curve_bins(da, la, na, db, lb, nb, o, out);

	if (rc == 0)
		rc = hd_cmp_decide(out, 1, o);
	if (rc)
		hd_cmp_curve_free(out);
	return rc;
}

void hd_cmp_curve_free(struct hd_cmp_curve *c)
{
	free(c->bins);
	free(c->ranges);
	free(c->cross);
	memset(c, 0, sizeof(*c));
}

int hd_cmp_spread(const double *d, const double *lat, size_t n, double rev_ms,
		  size_t min_group, struct hd_cmp_spread *out)
{
	struct keyed *k = malloc((n ? n : 1) * sizeof(*k));
	double *v = malloc((n ? n : 1) * sizeof(*v)), *ratios = malloc((n ? n : 1) * sizeof(*ratios));
	size_t lo = 0, hi;
	int rc = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!k || !v || !ratios)
		goto done;
	for (size_t i = 0; i < n; i++) {
		k[i].key = fabs(d[i]);
		k[i].lat = lat[i];
	}
	qsort(k, n, sizeof(*k), cmp_keyed);
	for (; lo < n; lo = hi) {
		double p50;

		run_of(k, n, k[lo].key, &lo, &hi);
		if (hi - lo < min_group)
			continue;
		for (size_t i = lo; i < hi; i++)
			v[i - lo] = k[i].lat;
		hd_sort_doubles(v, hi - lo);
		p50 = hd_percentile_sorted(v, hi - lo, 50);
		ratios[out->groups++] = hd_percentile_sorted(v, hi - lo, 99) / p50;
		for (size_t i = 0; i < hi - lo; i++)
			out->outliers += v[i] > p50 + rev_ms;
		out->n += hi - lo;
	}
	rc = -ENODATA;
	if (out->groups == 0)
		goto done;
	out->rate = (double)out->outliers / (double)out->n;
	hd_sort_doubles(ratios, out->groups);
	out->ratio_median = hd_percentile_sorted(ratios, out->groups, 50);
	out->ratio_max = ratios[out->groups - 1];
	rc = 0;
done:
	free(k);
	free(v);
	free(ratios);
	return rc;
}

double hd_cmp_spread_p(const struct hd_cmp_spread *a, const struct hd_cmp_spread *b, double z, double *diff,
		       double *lo, double *hi)
{
	double p = (double)(a->outliers + b->outliers) / (double)(a->n + b->n);
	double se0 = sqrt(p * (1 - p) * (1.0 / (double)a->n + 1.0 / (double)b->n));
	double se = sqrt(a->rate * (1 - a->rate) / (double)a->n + b->rate * (1 - b->rate) / (double)b->n);

	*diff = b->rate - a->rate;
	*lo = *diff - z * se;
	*hi = *diff + z * se;
	return se0 > 0 ? hd_norm_p2(*diff / se0) : 1;
}

char hd_cmp_steadier(const struct hd_cmp_spread *a, const struct hd_cmp_spread *b, int rejected, const char **why)
{
	double lo = fmin(a->rate, b->rate), hi = fmax(a->rate, b->rate);

	*why = "outliers";
	if (rejected && hi > lo && hi >= 1.5 * lo)
		return a->rate < b->rate ? 'A' : 'B';
	*why = "none";
	return 0;
}

double hd_cmp_band_rev(const double *d, const double *lat, size_t n, int bpd)
{
	double *v = malloc((n ? n : 1) * sizeof(*v)), *widths = malloc((n ? n : 1) * sizeof(*widths)), res = NAN;
	struct keyed *k = bin_samples(d, lat, n, bpd);
	size_t lo = 0, hi, nw = 0;

	if (!v || !widths || !k)
		goto done;
	for (; lo < n; lo = hi) {
		run_of(k, n, k[lo].key, &lo, &hi);
		if (hi - lo < 20)
			continue;
		for (size_t i = lo; i < hi; i++)
			v[i - lo] = k[i].lat;
		hd_sort_doubles(v, hi - lo);
		widths[nw++] = (hd_percentile_sorted(v, hi - lo, 90) - hd_percentile_sorted(v, hi - lo, 10)) / 0.8;
	}
	if (nw) {
		hd_sort_doubles(widths, nw);
		res = hd_percentile_sorted(widths, nw, 50);
	}
done:
	free(v);
	free(widths);
	free(k);
	return res;
}
