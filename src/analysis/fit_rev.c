/*
 * The revolution time, measured three ways: from the response probe at
 * tiny distances, from the write-interval sawtooth, and from the width of
 * the seek samples' band.  fit.c decides which one stands.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/datafile.h"
#include "hddscope/fit.h"
#include "hddscope/stats.h"

#include "fit_local.h"

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
int fit_rev_from_response(const struct hd_df *resp, double block, double *rev, double *unc, size_t *npts)
{
	size_t n, ng, k = 0;
	struct samp *v = fit_samples(resp, "read", "media cache", &n);
	struct group *g;
	double negs[64], rough, sx = 0, sy = 0, sxx = 0, sxy = 0, sw = 0, xs[128], ys[128];
	size_t nn = 0;

	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (fabs(v[i].d) <= 2 * block && v[i].d != 0)
			v[k++] = v[i];
	qsort(v, k, sizeof(*v), fit_cmp_samp_d);
	g = fit_groups(v, k, &ng);
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
	rough = fit_median(negs, nn);
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
 * revolution, so the band of latencies is one revolution wide.  Its width
 * is read from the 5% and 95% quantiles (which cover 90% of it), not from
 * the range: a few samples delayed beyond the band (a transfer that crossed
 * a track, the end of a read-ahead) would widen the range with every
 * sample added.  The median over bins of 40 or more samples is the
 * estimate, the spread of the bins its uncertainty.
 */
int fit_rev_from_seek_spread(const struct hd_df *seek, double *rev, double *unc, size_t *npts)
{
	size_t n, nb = 0;
	struct samp *v = fit_samples(seek, "read", "media", &n);
	double w[64], dev[64];

	if (!v)
		return -1;
	for (size_t i = 0; i < n; i++)
		v[i].d = fabs(v[i].d);
	qsort(v, n, sizeof(*v), fit_cmp_samp_d);
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
			w[nb++] = (hd_percentile_sorted(x, b - a, 95) - hd_percentile_sorted(x, b - a, 5)) / 0.9;
			free(x);
		}
		a = b;
	}
	free(v);
	if (nb < 3)
		return -1;
	*rev = fit_median(w, nb);
	for (size_t i = 0; i < nb; i++)
		dev[i] = fabs(w[i] - *rev);
	*unc = 1.4826 * fit_median(dev, nb) / sqrt((double)nb);
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
 * Where the timed blocks lie, in buckets: the sums' constant differs from
 * zone to zone (the two blocks' time under the head), so the slope is
 * taken within buckets this large.
 */
#define REV_BUCKET_BYTES (16.0 * 1048576)

/*
 * y = c_g + slope * k by least squares over m points, one constant per
 * group g[i] (all one group without g): the slope's standard error in *sd,
 * each point's residual in res.  0, or -1 when the k do not spread within
 * the groups.
 */
/* The means of k and y over point i's group; *first: i is the group's first point. */
static void group_means(const double *y, const double *k, const double *g, size_t m, size_t i, double *mk,
			double *my, int *first)
{
	double cnt = 0;

	*mk = *my = 0;
	*first = 1;
	/* A few hundred points: the quadratic search is cheap. */
	for (size_t j = 0; j < m; j++)
		if (!g || g[j] == g[i]) {
			*first &= j >= i;
			*mk += k[j];
			*my += y[j];
			cnt++;
		}
	*mk /= cnt;
	*my /= cnt;
}

static int line_fit(const double *y, const double *k, const double *g, size_t m, double *slope, double *sd,
		    double *res)
{
	double skk = 0, sky = 0, sse = 0, mk, my;
	size_t groups = 0;
	int first;

	for (size_t i = 0; i < m; i++) {
		group_means(y, k, g, m, i, &mk, &my, &first);
		groups += (size_t)first;
		skk += (k[i] - mk) * (k[i] - mk);
		sky += (k[i] - mk) * (y[i] - my);
	}
	if (m < groups + 2 || !(skk > 0))
		return -1;
	*slope = sky / skk;
	for (size_t i = 0; i < m; i++) {
		group_means(y, k, g, m, i, &mk, &my, &first);
		res[i] = y[i] - my - *slope * (k[i] - mk);
		sse += res[i] * res[i];
	}
	*sd = sqrt(sse / (double)(m - groups - 1) / skk);
	return 0;
}

/*
 * From an interval sawtooth (writes with the write cache off, or reads of
 * the block before the last one): the second access completes a fixed
 * time after its block passes the head, so latency plus the idle time is
 * constant modulo one revolution: x = c + k * rev for whole k.  The
 * revolution is found in two steps.  First the period T that lines the
 * sums up best: the largest local maximum of their phases' resultant
 * within 10% of the highest (T/2, T/3 line them up as well; the flank of
 * a peak does not count, where a short span of k still lines up well),
 * searched from 3 to 20 ms and refined.  Then each sum's k is read off
 * against that period, sums more than a tenth of a revolution off their
 * line (a block on another track, a cache hit) are left out, and the slope
 * of x against k by least squares is the revolution, with its standard
 * error.  Where the file gives each timed block's offset, the slope is
 * taken within buckets of 16 MiB (each its own constant: the blocks' time
 * under the head differs from zone to zone).
 */
int fit_rev_from_interval(const struct hd_df *df, double *rev, double *unc, size_t *npts)
{
	const struct hd_df_col *a = hd_df_col(df, "actual_interval_ms"), *l = hd_df_col(df, "latency_ms"),
			       *c = hd_df_col(df, "class"), *o = hd_df_col(df, "offset_bytes");
	const double T_LO = 3.0, T_HI = 20.0, STEP = 0.002;
	const size_t NT = (size_t)((T_HI - T_LO) / STEP) + 1;
	double *x, *R, *G = NULL, *res = NULL, best = 0, T0 = NAN, phi, cs = 0, sn = 0, slope, sd;
	size_t n = 0, m = 0;

	if (!a || !l || a->type != HD_COL_NUM || l->type != HD_COL_NUM || !df->nrows)
		return -1;
	if (o && o->type != HD_COL_NUM)
		o = NULL;
	x = malloc(df->nrows * sizeof(*x));
	R = malloc(NT * sizeof(*R));
	G = malloc(df->nrows * sizeof(*G));
	res = malloc(df->nrows * sizeof(*res));
	if (!x || !R || !G || !res)
		goto fail;
	for (size_t i = 0; i < df->nrows; i++)
		if (!c || c->type != HD_COL_STR || strcmp(hd_df_str(c, i), "media") == 0) {
			G[n] = o ? floor(o->num[i] / REV_BUCKET_BYTES) : 0;
			x[n++] = a->num[i] + l->num[i];
		}
	if (n < 20)
		goto fail;
	for (size_t i = 0; i < NT; i++) {
		R[i] = resultant(x, n, T_LO + STEP * (double)i);
		best = fmax(best, R[i]);
	}
	if (best < 0.7)
		goto fail;
	for (size_t i = NT - 1; i-- > 1;)
		if (R[i] >= 0.9 * best && R[i] >= R[i - 1] && R[i] >= R[i + 1]) {
			T0 = T_LO + STEP * (double)i;
			break;
		}
	if (!isfinite(T0))
		goto fail;
	best = 0;
	for (double T = T0 - STEP, top = T0 + STEP, r; T <= top; T += 1e-5)
		if ((r = resultant(x, n, T)) > best) {
			best = r;
			*rev = T;
		}
	T0 = *rev;
	/* Where the sums lie in the cycle: their mean phase. */
	for (size_t i = 0; i < n; i++) {
		cs += cos(2 * M_PI * x[i] / T0);
		sn += sin(2 * M_PI * x[i] / T0);
	}
	phi = atan2(sn, cs) / (2 * M_PI) * T0;
	for (size_t i = 0; i < n; i++) {
		double k = floor((x[i] - phi) / T0 + 0.5), r = x[i] - phi - k * T0;

		if (fabs(r) > 0.1 * T0)
			continue;
		x[m] = x[i];
		G[m] = G[i];
		R[m++] = k;
	}
	/* Most sums must lie on the line: otherwise the sawtooth is not there. */
	if (m < 10 || 2 * m < n || line_fit(x, R, G, m, &slope, &sd, res))
		goto fail;
	/* Again without the sums off the line by more than four robust deviations of the rest. */
	{
		double *dev = malloc(m * sizeof(*dev)), lim;
		size_t k = 0;

		if (!dev)
			goto fail;
		for (size_t i = 0; i < m; i++)
			dev[i] = fabs(res[i]);
		lim = fmax(4 * 1.4826 * fit_median(dev, m), 1e-4 * T0);
		for (size_t i = 0; i < m; i++)
			if (fabs(res[i]) <= lim) {
				x[k] = x[i];
				G[k] = G[i];
				R[k++] = R[i];
			}
		free(dev);
		if (k >= 10 && 2 * k >= n)
			m = k;
	}
	*npts = m;
	if (line_fit(x, R, G, m, &slope, &sd, res) == 0) {
		*rev = slope;
		*unc = sd;
	} else {
		/* Every sum in one cycle: the resultant's period, uncertain by a step of its search. */
		*rev = T0;
		*unc = STEP;
	}
	if (*unc < 1e-5 * *rev)
		*unc = 1e-5 * *rev;
	free(x);
	free(R);
	free(G);
	free(res);
	return 0;
fail:
	free(x);
	free(R);
	free(G);
	free(res);
	return -1;
}
