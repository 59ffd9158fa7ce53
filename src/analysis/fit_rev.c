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
 * y = c + slope * k + b * o by least squares over m points: o is where the
 * timed blocks lie (in GiB; NULL: b = 0), since the sums' constant drifts
 * with the zone (the two blocks' time under the head) and a window spans
 * part of a zone or two.  The slope's standard error in *sd, each point's
 * residual in res, the line's c and b in cb.  0, or -1 when the k do not
 * spread.
 */
static int line_fit(const double *y, const double *k, const double *o, size_t m, double *slope, double *sd,
		    double *res, double cb[2])
{
	double my = 0, mk = 0, mo = 0, skk = 0, sko = 0, soo = 0, sky = 0, soy = 0, sse = 0, det, bo = 0;
	size_t np = o ? 3 : 2;

	for (size_t i = 0; i < m; i++) {
		my += y[i] / (double)m;
		mk += k[i] / (double)m;
		mo += o ? o[i] / (double)m : 0;
	}
	for (size_t i = 0; i < m; i++) {
		double dk = k[i] - mk, dy = y[i] - my, d_o = o ? o[i] - mo : 0;

		skk += dk * dk;
		sko += dk * d_o;
		soo += d_o * d_o;
		sky += dk * dy;
		soy += d_o * dy;
	}
	/* The blocks all in one place: no drift to take out. */
	if (!(soo > 1e-12 * (double)m))
		np = 2, sko = soo = soy = 0;
	det = np == 3 ? skk * soo - sko * sko : skk;
	if (m < np + 1 || !(skk > 0) || !(det > 1e-9 * skk * (np == 3 ? soo : 1)))
		return -1;
	*slope = np == 3 ? (sky * soo - soy * sko) / det : sky / skk;
	if (np == 3)
		bo = (soy * skk - sky * sko) / det;
	for (size_t i = 0; i < m; i++) {
		res[i] = y[i] - my - *slope * (k[i] - mk) - bo * (o ? o[i] - mo : 0);
		sse += res[i] * res[i];
	}
	cb[0] = my - *slope * mk - bo * mo;
	cb[1] = bo;
	/* Var(slope) = sigma^2 [X'X]^-1 (the k entry). */
	*sd = sqrt(sse / (double)(m - np) * (np == 3 ? soo / det : 1 / skk));
	return 0;
}

/*
 * The median of the slopes between every two points of different k
 * (Theil and Sen): points off the line, up to a quarter of them, barely
 * move it, where they turn a least-squares slope and even the resultant's
 * period.  s0 where no two k differ or memory runs out.
 */
static double theil_sen(const double *y, const double *k, size_t m, double s0)
{
	double *sl = malloc(m * (m - 1) / 2 * sizeof(*sl)), r = s0;
	size_t c = 0;

	if (!sl)
		return s0;
	for (size_t i = 0; i < m; i++)
		for (size_t j = i + 1; j < m; j++)
			if (k[i] != k[j])
				sl[c++] = (y[j] - y[i]) / (k[j] - k[i]);
	if (c)
		r = fit_median(sl, c);
	free(sl);
	return r;
}

/*
 * The slope of y against k over the points that lie on the line: those
 * within 3.5 robust deviations of it, where a completion seen late (a
 * busy host, a path that queued the reply) lies off it by any amount.
 * The line starts at the Theil-Sen slope through the median of y - s * k
 * (s0, the resultant's period, where that cannot be had), and is
 * refitted by least squares over the points kept until they stay the
 * same.  At least 10 points and half of all n must stay.  0 with the
 * slope, its standard error and the points kept, or -1.
 */
static int robust_slope(const double *y, const double *k, const double *o, size_t m, size_t n, double s0,
			double *slope, double *sd, size_t *kept)
{
	double *res = malloc(m * sizeof(*res)), *tmp = malloc(m * sizeof(*tmp)), *ky = malloc(3 * m * sizeof(*ky));
	unsigned char *in = calloc(m, 1);
	double s = s0, e = 0, cb[2], *yk, *kk, *ok;
	int rc = -1;

	if (!res || !tmp || !ky || !in)
		goto out;
	yk = ky, kk = ky + m, ok = ky + 2 * m;
	s = theil_sen(y, k, m, s0);
	for (size_t i = 0; i < m; i++)
		tmp[i] = res[i] = y[i] - s * k[i];
	cb[0] = fit_median(tmp, m);
	for (size_t i = 0; i < m; i++)
		res[i] -= cb[0];
	for (int it = 0; it < 20; it++) {
		double lim;
		size_t c = 0;
		int changed = 0;

		for (size_t i = 0; i < m; i++)
			tmp[i] = fabs(res[i]);
		/*
		 * The robust deviation, and at least the half of all n nearest
		 * the line: where most sums fall on a few values (a simulated
		 * drive, two zones' block times) the median deviation is 0.
		 */
		hd_sort_doubles(tmp, m);
		lim = fmax(fmax(3.5 * 1.4826 * hd_percentile_sorted(tmp, m, 50), 1e-4 * s0), tmp[n / 2 < m ? n / 2 : m - 1]);
		for (size_t i = 0; i < m; i++) {
			unsigned char on = fabs(res[i]) <= lim;

			changed |= on != in[i];
			in[i] = on;
			if (on) {
				yk[c] = y[i];
				kk[c] = k[i];
				ok[c++] = o ? o[i] : 0;
			}
		}
		if (c < 10 || 2 * c < n || line_fit(yk, kk, o ? ok : NULL, c, &s, &e, tmp, cb))
			goto out;
		*kept = c;
		if (!changed)
			break;
		/* Every point's residual from the line of the points kept. */
		for (size_t i = 0; i < m; i++)
			res[i] = y[i] - cb[0] - s * k[i] - cb[1] * (o ? o[i] : 0);
	}
	*slope = s;
	*sd = e;
	rc = 0;
out:
	free(res);
	free(tmp);
	free(ky);
	free(in);
	return rc;
}

/*
 * From an interval sawtooth (writes with the write cache off, or reads of
 * the block before the last one): the second access completes a fixed
 * time after its block passes the head, so latency plus the idle time is
 * constant modulo one revolution: x = c + k * rev for whole k.  The
 * revolution is found in two steps.  First the period T that lines the
 * sums up: the largest local maximum of their phases' resultant within 25%
 * of the highest (T/2, T/3 line them up as well, and a few sums seen late
 * can lower T's peak below theirs; 2T lines up only every other k, far
 * lower), searched from 3 to 20 ms, moved to the top of its peak and
 * refined.  Then each sum's k is read off against that period, sums more
 * than a tenth of a revolution off their line (a block on another track, a
 * cache hit) are left out, and the slope of x against k is the revolution,
 * with its standard error: least squares over the sums on the line (see
 * robust_slope), with a term in the blocks' offset where the file gives it
 * (the blocks' time under the head differs from zone to zone).
 */
int fit_rev_from_interval(const struct hd_df *df, double *rev, double *unc, size_t *npts)
{
	const struct hd_df_col *a = hd_df_col(df, "actual_interval_ms"), *l = hd_df_col(df, "latency_ms"),
			       *c = hd_df_col(df, "class"), *o = hd_df_col(df, "offset_bytes");
	const double T_LO = 3.0, T_HI = 20.0, STEP = 0.002;
	const size_t NT = (size_t)((T_HI - T_LO) / STEP) + 1;
	double *x, *R, *G = NULL, best = 0, T0 = NAN, phi, cs = 0, sn = 0;
	size_t n = 0, m = 0;

	if (!a || !l || a->type != HD_COL_NUM || l->type != HD_COL_NUM || !df->nrows)
		return -1;
	if (o && o->type != HD_COL_NUM)
		o = NULL;
	x = malloc(df->nrows * sizeof(*x));
	R = malloc(NT * sizeof(*R));
	G = malloc(df->nrows * sizeof(*G));
	if (!x || !R || !G)
		goto fail;
	for (size_t i = 0; i < df->nrows; i++)
		if (!c || c->type != HD_COL_STR || strcmp(hd_df_str(c, i), "media") == 0) {
			G[n] = o ? o->num[i] / 1073741824.0 : 0;
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
		if (R[i] >= 0.75 * best && R[i] >= R[i - 1] && R[i] >= R[i + 1]) {
			/*
			 * The top of that peak: noise on the sums breaks its
			 * flat top into several local maxima, and the one
			 * farthest out may lie a percent off.  T/2 lies 50% away.
			 */
			size_t lo = (size_t)((double)i * 0.95), hi = (size_t)fmin((double)i * 1.05, (double)(NT - 1)), top = i;

			for (size_t j = lo; j <= hi; j++)
				top = R[j] > R[top] ? j : top;
			T0 = T_LO + STEP * (double)top;
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
	if (m < 10 || 2 * m < n)
		goto fail;
	if (robust_slope(x, R, o ? G : NULL, m, n, T0, rev, unc, npts)) {
		/* Every sum in one cycle: the resultant's period, uncertain by a step of its search. */
		*rev = T0;
		*unc = STEP;
		*npts = m;
	}
	if (*unc < 1e-5 * *rev)
		*unc = 1e-5 * *rev;
	free(x);
	free(R);
	free(G);
	return 0;
fail:
	free(x);
	free(R);
	free(G);
	return -1;
}
