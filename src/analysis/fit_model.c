/*
 * The curve's models: Ruemmler-Wilkes through the pooled points, a straight
 * line in tracks through the far end, and the datasheet figures taken from
 * them (track-to-track, average and full-stroke seek).
 */
#include <math.h>
#include <stdlib.h>

#include "hddscope/fit.h"
#include "hddscope/stats.h"

#include "fit_local.h"

/* Weighted least squares of y = p + q * g(x); returns the weighted SSE. */
static double fit_lsq(const struct hd_fit_pt *pt, size_t a, size_t b, int sq, double *p, double *q)
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
		sse = fit_lsq(pt, 0, j, 1, &a, &b);
		if (j < n)
			sse += fit_lsq(pt, j, n, 0, &c, &e);
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
 * fit_tracks() averages over the start.
 */
/* Tracks between byte offsets x < y, in units of the mean track. */
static double fit_seg_tracks(const struct fit *f, double x, double y)
{
	double bo = f->trk_outer, bi = f->trk_inner, k;

	if (!isfinite(bo) || !isfinite(bi) || fabs(bi - bo) < 0.01 * bo)
		return y - x;
	k = (bi - bo) / f->cap;
	return log((bo + k * y) / (bo + k * x)) / k * (bo + bi) / 2;
}

static double fit_tracks(const struct fit *f, double d)
{
	const int N = 32;
	double s = 0;

	for (int i = 0; i < N; i++) {
		double x = (f->cap - d) * (i + 0.5) / N;

		s += fit_seg_tracks(f, x, x + d);
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
	return f->have_far ? f->far_c + f->far_e * fit_tracks(f, d) : p[n - 1].ms;
}

/*
 * Datasheet figures: the shortest distance's positioning (not the
 * track-to-track seek: at 256 KiB a head may switch or cross several
 * cylinders, and from the host the two look alike; the extraction's
 * figures say which);
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
		double a = f->far[i].start, b = isfinite(f->far[i].at) ? f->far[i].at : a + f->far[i].d;

		x[i] = fit_seg_tracks(f, fmin(a, b), fmax(a, b));
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
	f->far_c = fit_band_edge(r, n, f->rev, &sp) - f->C;
	free(x);
	free(r);
	return 0;
}

void fit_datasheet(struct fit *f)
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
			far[i - a].d = fit_tracks(f, f->pool[i].d);
		}
		if (far) {
			fit_lsq(far, 0, f->npool - a, 0, &f->far_c, &f->far_e);
			f->have_far = 1;
		}
		free(far);
	}
	f->shortest_d = f->pool[0].d;
	f->shortest_ms = fmax(f->pool[0].ms, 0);
	f->full = f->have_far ? f->far_c + f->far_e * fit_tracks(f, f->cap) : f->pool[f->npool - 1].ms;
	for (int i = 0; i < N; i++) {
		double d = (i + 0.5) * h;

		s += pooled_at(f, d) * 2 * (f->cap - d) / (f->cap * f->cap) * h;
	}
	f->avg = s;
}
