/*
 * The seek curve: seek, response and queue samples binned by distance (in
 * tracks where the layout's zones are known), each bin's positioning time
 * found from the edge of its band of latencies (one revolution wide), each
 * direction kept as far as it truly differs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/datafile.h"
#include "hddscope/fit.h"
#include "hddscope/stats.h"

#include "fit_local.h"

#define BINS_PER_OCTAVE 3
#define MIN_BIN 6		/* samples a seek bin needs */

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
double fit_band_edge(double *r, size_t n, double rev, double *spread)
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

/*
 * Response distances whose samples all start within a megabyte (the
 * longest, which can only start at the ends of the device) neither sample
 * the rotation nor miss the cache: v sorted by d, kept in place.
 */
void fit_drop_fixed_starts(struct samp *v, size_t *n)
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
			v[(*n)++] = (struct samp){ o->num[i] - prev, l->num[i], prev, 0, o->num[i] };
		prev = media ? o->num[i] : NAN;
	}
	return v;
}

/*
 * Seek samples into bins of a third of an octave up from the shortest
 * distance; returns the longest distance (0 without samples).
 */
static double key_seek(struct samp *s, size_t ns)
{
	double smin = INFINITY, smax = 0;

	for (size_t i = 0; i < ns; i++) {
		smax = fmax(smax, fabs(s[i].d));
		smin = fmin(smin, fabs(s[i].d));
	}
	for (size_t i = 0; i < ns; i++)
		s[i].key = (int)floor(log2(fabs(s[i].d) / smin) * BINS_PER_OCTAVE);
	return smax;
}

/*
 * The response samples from |d| = from on (and beyond two blocks), kept in
 * place: one bin per grid distance, numbered after every seek bin.  0, or
 * -1 when out of memory.
 */
static int key_response(struct samp *r, size_t *nr, double from, double block)
{
	size_t k = 0, nd = 0, n = *nr;
	double *dist;

	if (!r)
		return 0;
	qsort(r, n, sizeof(*r), fit_cmp_samp_d);
	fit_drop_fixed_starts(r, &n);
	for (size_t i = 0; i < n; i++)
		if (fabs(r[i].d) >= from && fabs(r[i].d) > 2 * block)
			r[k++] = r[i];
	*nr = n = k;
	dist = malloc((n ? n : 1) * sizeof(*dist));
	if (!dist)
		return n ? -1 : 0;
	for (size_t i = 0; i < n; i++)
		dist[i] = fabs(r[i].d);
	qsort(dist, n, sizeof(*dist), cmp_double);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || dist[i] != dist[i - 1])
			dist[nd++] = dist[i];
	for (size_t i = 0; i < n; i++) {
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
	free(dist);
	return 0;
}

/* The queue pairs from |d| = from on, kept in place, in bins of a third of an octave after every response bin. */
static void key_queue(struct samp *q, size_t *nq, double from)
{
	size_t k = 0;

	for (size_t i = 0; i < *nq; i++)
		if (fabs(q[i].d) >= from && q[i].d != 0) {
			q[k] = q[i];
			q[k++].key = 2000000 + (int)floor(log2(fabs(q[i].d)) * BINS_PER_OCTAVE);
		}
	*nq = k;
}

/*
 * The samples (sorted here by bin) into bins b of MIN_BIN or more, sorted
 * by distance, each with its band edge; tmp holds n values.  A bin whose
 * latencies span less than half a revolution did not sample the rotation
 * and is dropped (the bins' slope is taken out afterwards: detrend_bins).
 * Returns the number of bins.
 */
static size_t make_bins(struct samp *all, size_t n, double rev, struct pbin *b, double *tmp)
{
	size_t nb = 0, k = 0;

	qsort(all, n, sizeof(*all), cmp_key);
	for (size_t i = 0, j; i < n; i = j) {
		size_t m = i;

		for (j = i; j < n && all[j].key == all[i].key; j++)
			if (all[j].d < 0)
				m = j + 1;
		if (j - i < MIN_BIN)
			continue;
		b[nb++] = (struct pbin){ geo_mean(all, i, j), 0, 0, i, m, j, all[i].key };
	}
	qsort(b, nb, sizeof(*b), cmp_pbin);
	for (size_t i = 0; i < nb; i++) {
		for (size_t j = b[i].i0; j < b[i].i1; j++)
			tmp[j - b[i].i0] = all[j].lat;
		b[i].lo = fit_band_edge(tmp, b[i].i1 - b[i].i0, rev, &b[i].spread);
		if (b[i].spread >= 0.5 * rev)
			b[k++] = b[i];
	}
	return k;
}

/*
 * The slope of the bins' edges in log distance at bin k: least squares
 * over the bins within two of it, those with skip[i] left out (skip NULL:
 * none).
 */
static double local_slope(const struct pbin *b, size_t nb, size_t k, const unsigned char *skip)
{
	size_t lo = k >= 2 ? k - 2 : 0, hi = k + 3 < nb ? k + 3 : nb;
	double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;

	for (size_t i = lo; i < hi; i++) {
		double x = log(b[i].d);

		if (skip && skip[i] && i != k)
			continue;
		n++;
		sx += x;
		sy += b[i].lo;
		sxx += x * x;
		sxy += x * b[i].lo;
	}
	return n >= 2 && sxx * n - sx * sx > 0 ? (sxy * n - sx * sy) / (sxx * n - sx * sx) : 0;
}

/*
 * Each sample moved along the local slope of the bins' edges to the mean
 * distance of its bin's samples in its direction (the row it goes to), and
 * each bin's edge found again from the moved samples.
 * Where the curve rises half a millisecond across a bin (dec_rz26 at 190
 * MB), the band is that much wider than a revolution, the run of one
 * revolution keeps the bin's short end, and its edge came out a quarter
 * of that low.
 */
static void detrend_bins(struct samp *all, struct pbin *b, size_t nb, double rev, double *tmp, double *slope)
{
	for (size_t k = 0; k < nb; k++)
		slope[k] = fmax(local_slope(b, nb, k, NULL), 0);
	for (size_t k = 0; k < nb; k++) {
		size_t part[3] = { b[k].i0, b[k].im, b[k].i1 };

		for (int h = 0; h < 2; h++) {
			double x = part[h + 1] > part[h] ? log(geo_mean(all, part[h], part[h + 1])) : 0;

			for (size_t j = part[h]; j < part[h + 1]; j++)
				all[j].lat -= slope[k] * (log(fabs(all[j].d)) - x);
		}
		for (size_t j = b[k].i0; j < b[k].i1; j++)
			tmp[j - b[k].i0] = all[j].lat;
		b[k].lo = fit_band_edge(tmp, b[k].i1 - b[k].i0, rev, &b[k].spread);
	}
}

/* The variance of a bin's band edge from its own samples alone (the midrange of n uniform waits). */
static double bin_noise(const struct pbin *b, double rev)
{
	double n = (double)(b->i1 - b->i0);

	return rev * rev / (2.0 * (n + 1) * (n + 2));
}

/*
 * The edge of bin k's samples and those of its neighbours (skip[m]: left
 * out; skip NULL: none), moved along the slope to its centre.
 */
static double pooled_edge(const struct samp *all, const struct pbin *b, size_t nb, size_t k, double rev, double *tmp,
			  const unsigned char *skip)
{
	size_t m0 = k ? k - 1 : 0, m1 = k + 2 < nb ? k + 2 : nb, np = 0;
	double sp, sk = fmax(local_slope(b, nb, k, skip), 0);

	for (size_t m = m0; m < m1; m++) {
		double shift;

		if (m != k && skip && skip[m])
			continue;
		shift = (fmax(local_slope(b, nb, m, skip), 0) + sk) / 2 * (log(b[m].d) - log(b[k].d));
		for (size_t j = b[m].i0; j < b[m].i1; j++)
			tmp[np++] = all[j].lat - shift;
	}
	return fit_band_edge(tmp, np, rev, &sp);
}

/*
 * A bin's edge from its own samples has an error of about rev / n (some
 * 0.4 ms at 7200 rpm with a quick profile's 14), over the 0.3 ms a bin is
 * held to.  Its neighbours' samples, moved along the slope between the
 * bins' centres, give an edge from three times as many.  Each bin keeps
 * its own edge's deviation from that one in proportion t2 / (t2 + v), v
 * its own edge's noise and t2 the mean square of the deviations beyond
 * their noise over the five bins around it, the drive's real bends there
 * (empirical Bayes, as the directions): a quick profile's bins take
 * nearly their neighbours' edge (sim:atlas3 at seeds 1-7: 489 of 510 bins
 * within max(0.3 ms, 5%), 451 before), a full profile's keep most of
 * their own (with one t2 for the whole curve, dec_rz26 as imported lost
 * two bins to its overhead's error).  A bin more than three times its
 * noise off its neighbours' edge is left out of theirs (on sim:dtla307030
 * one at 47 MB lies 0.3 ms above the curve, its band's bottom empty, and
 * lifted those beside it).  lo[] and off[] are scratch of nb; tmp[] holds
 * n samples.
 */
static void pool_neighbours(const struct samp *all, struct pbin *b, size_t nb, double rev, double *tmp, double *lo,
			    unsigned char *off)
{
	if (nb < 3)
		return;
	for (size_t k = 0; k < nb; k++) {
		double dv = b[k].lo - pooled_edge(all, b, nb, k, rev, tmp, NULL);

		off[k] = dv * dv > 9 * bin_noise(&b[k], rev);
	}
	for (size_t k = 0; k < nb; k++)
		lo[k] = pooled_edge(all, b, nb, k, rev, tmp, off);
	for (size_t k = 0; k < nb; k++) {
		size_t i0 = k >= 2 ? k - 2 : 0, i1 = k + 3 < nb ? k + 3 : nb;
		double t2 = 0;

		for (size_t i = i0; i < i1; i++)
			t2 += (b[i].lo - lo[i]) * (b[i].lo - lo[i]) - bin_noise(&b[i], rev);
		t2 = fmax(0, t2 / (double)(i1 - i0));
		tmp[k] = lo[k] + (t2 > 0 ? (b[k].lo - lo[k]) * t2 / (t2 + bin_noise(&b[k], rev)) : 0);
	}
	for (size_t k = 0; k < nb; k++)
		b[k].lo = tmp[k];
}

/*
 * Each bin into the pooled points (f->pool), and each direction of each
 * bin into a row (f->rows) at the pooled curve, with its own band edge's
 * deviation from that curve in delta and the deviation's noise variance in
 * sig2.  Returns the number of rows.
 */
static size_t direction_rows(struct fit *f, const struct samp *all, const struct pbin *b, size_t nb, double *tmp,
			     double *delta, double *sig2)
{
	size_t nh = 0;

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
			delta[nh] = fit_band_edge(tmp, n, f->rev, &sp) - curve_at(b, nb, D);
			sig2[nh] = f->rev * f->rev / (2.0 * (double)(n + 1) * (double)(n + 2));
			f->rows[nh++] = (struct srow){ h ? D : -D, curve_at(b, nb, D), n };
		}
	}
	return nh;
}

/*
 * How much the directions truly differ: a bin's two band edges (rows k,
 * k + 1 of direction_rows, negative then positive) differ by the drive's
 * difference, which varies smoothly with distance, plus their noise, which
 * is the bin's alone, so the mean product of neighbouring bins'
 * differences estimates the difference's square.  (The product of one
 * direction's neighbouring deviations from the pooled curve took in the
 * bends the pooling smooths, which both directions share.)  The mean is
 * trimmed by an eighth at each end: within a track the band holds two
 * kinds of access and its edges differ by revolutions between directions,
 * and the products of those few bins said nothing of the rest (st2000dm001,
 * symmetric beyond its first tracks, kept 0.2 to 0.7 ms of spread, and a
 * quick profile's one direction lay 0.2 ms off over half the curve).
 * Each direction lies half the difference off the pooled curve and keeps
 * its deviation in that proportion, less the overhead; the rows end sorted
 * by signed distance.  prod: scratch of nh.
 */
static void shrink_directions(struct fit *f, const double *delta, const double *sig2, size_t nh, double *prod)
{
	double sum = 0, prev = NAN, t2;
	size_t m = 0, cut;

	for (size_t k = 0; k < nh;) {
		double x;

		if (!(k + 1 < nh && f->rows[k].d < 0 && f->rows[k + 1].d > 0)) {
			/* A bin with one direction only: the next bin's pair has no neighbour. */
			prev = NAN;
			k++;
			continue;
		}
		x = delta[k + 1] - delta[k];
		if (isfinite(prev))
			prod[m++] = x * prev;
		prev = x;
		k += 2;
	}
	hd_sort_doubles(prod, m);
	cut = m / 8;
	for (size_t j = cut; j < m - cut; j++)
		sum += prod[j];
	t2 = m ? fmax(0, sum / (double)(m - 2 * cut)) / 4 : 0;
	f->tau = sqrt(t2);
	for (size_t k = 0; k < nh; k++)
		f->rows[k].ms += (t2 > 0 ? delta[k] * t2 / (t2 + sig2[k]) : 0) - f->C;
	f->nrows = nh;
	qsort(f->rows, f->nrows, sizeof(*f->rows), cmp_row);
}

/*
 * Within one cylinder the layout probe's MTBRC figures tell the curve
 * better than a bin's band: the reference's place in its cylinder is
 * drawn by the jitter, so a target k tracks away lies floor(k) or one
 * more tracks off (by the fraction of k), and a target j tracks off (0 <
 * j <= surfaces) on the reference's cylinder with chance 1 - j/surfaces:
 * a head switch, else a one-cylinder seek; on its track (j = 0) none.  A
 * bin there holds both kinds, a band wider than a revolution whose edge
 * finds neither their mean nor either (quick sim:atlas3: 0.58 to 0.76 ms
 * at 0.3 to 0.46 MB, the mean 1.17 to 1.25).  Each row shorter than a
 * cylinder less a track takes that mean where the layout found the head
 * switch, the one-cylinder seek and the surfaces (rows in tracks at the
 * reference's track size, before rows_to_bytes).
 */
static void layout_rows(struct fit *f)
{
	double hs, t2t, S, tr = fit_track_at(f, f->ref);

	if (fit_layout_moves(f, &hs, &t2t, &S) || !(tr > 0))
		return;
	for (size_t i = 0; i < f->nrows; i++) {
		double k = fabs(f->rows[i].d) / tr, j = floor(k), ms = 0;

		if (k >= S - 1)
			continue;
		for (int u = 0; u < 2; u++) {
			double w = u ? k - j : 1 - (k - j), t = j + u;

			if (t > 0)
				ms += w * ((1 - t / S) * hs + t / S * t2t);
		}
		f->rows[i].ms = ms;
	}
}

/*
 * A longer seek never takes less time: each direction's rows (sorted by
 * signed distance) are made nondecreasing in |d| by pooling adjacent
 * violators, weighted by their samples (least squares under that order).
 * Where the curve is flat, as over the short seeks that settling
 * dominates, neighbouring bins' noise averages out; where it rises faster
 * than the noise, the rows stay as they were.  Nor is a positioning time
 * negative: a row the noise (or the overhead's error) put below zero is
 * zero, which is the least-squares fit under both bounds.  -1 when out of
 * memory.
 */
static int monotone_rows(struct srow *rows, size_t n)
{
	struct blk {
		double sum, w;
		size_t len;
	} *b = malloc((n ? n : 1) * sizeof(*b));
	size_t neg = 0;

	if (!b)
		return -1;
	while (neg < n && rows[neg].d < 0)
		neg++;
	for (int h = 0; h < 2; h++) {
		size_t lo = h ? neg : 0, hi = h ? n : neg, nb = 0, k;

		for (size_t i = 0; i < hi - lo; i++) {
			/* In order of |d|: the negative rows from the end. */
			const struct srow *r = &rows[h ? lo + i : hi - 1 - i];
			double w = r->n ? (double)r->n : 1;

			b[nb++] = (struct blk){ r->ms * w, w, 1 };
			while (nb > 1 && b[nb - 2].sum / b[nb - 2].w > b[nb - 1].sum / b[nb - 1].w) {
				b[nb - 2].sum += b[nb - 1].sum;
				b[nb - 2].w += b[nb - 1].w;
				b[nb - 2].len += b[nb - 1].len;
				nb--;
			}
		}
		k = 0;
		for (size_t j = 0; j < nb; j++)
			for (size_t m = 0; m < b[j].len; m++, k++)
				rows[h ? lo + k : hi - 1 - k].ms = fmax(0, b[j].sum / b[j].w);
	}
	free(b);
	return 0;
}

/*
 * Distances in tracks.  A seek's time follows the cylinders it crosses,
 * and a byte holds more of them where the tracks are short: on hp_c2247a
 * (96 to 56 sectors a track) 464 MB from the middle inwards cross 1.4
 * times the cylinders of 460 MB outwards, a second's difference at the far
 * end that the directions' shrinkage (tuned by the many symmetric bins)
 * took away.  So each sample's distance is taken in tracks by the layout's
 * zones, in bytes at the reference's track size (the curve's distances near
 * the reference are as before), and each row goes back to the bytes from
 * the reference its tracks reach in its direction.  Without the layout's
 * zones the distances stay as they are.
 */
static int have_zones(const struct fit *f)
{
	const struct hd_fit_layout *L = &f->layout;

	for (size_t i = 0; i < L->nzones; i++)
		if (!(L->zones[i].track_bytes > 0) || (i && !(L->zones[i].offset_bytes > L->zones[i - 1].offset_bytes)))
			return 0;
	return L->nzones >= 2 && fit_track_at(f, f->ref) > 0;
}

/* Each sample's distance in tracks, in bytes at the reference's track size. */
static void in_tracks(const struct fit *f, struct samp *v, size_t n)
{
	const struct hd_fit_layout *L = &f->layout;
	double tr = fit_track_at(f, f->ref);

	if (!have_zones(f))
		return;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i].at) && v[i].d != 0)
			v[i].d = (fit_layout_tracks_to(L, v[i].at) - fit_layout_tracks_to(L, v[i].at - v[i].d)) * tr;
}

/*
 * Each row's distance back from tracks to the bytes from the reference they
 * reach.  A row of more tracks than lie between the reference and the
 * drive's end in its direction (a seek the response or queue probe took
 * between two other places) reaches no place from the reference: it takes
 * the bytes its tracks span from that end (outward, the tracks from the
 * first; inward, to the last), so that it is not drawn past the drive's end
 * at the end zone's track size (hp_c2247a's full stroke outward, -974 MB
 * from a reference 470 MB in, 1.8 ms under the model's there).
 */
static void rows_to_bytes(struct fit *f)
{
	double tr = fit_track_at(f, f->ref), t0, tend;

	if (!have_zones(f))
		return;
	t0 = fit_layout_tracks_to(&f->layout, f->ref);
	tend = fit_layout_tracks_to(&f->layout, f->cap);
	for (size_t k = 0; k < f->nrows; k++) {
		double t = f->rows[k].d / tr;

		if (t0 + t < 0)
			f->rows[k].d = -fit_layout_offset_of(&f->layout, fmin(-t, tend));
		else if (t0 + t > tend)
			f->rows[k].d = f->cap - fit_layout_offset_of(&f->layout, fmax(tend - t, 0));
		else
			f->rows[k].d = fit_layout_offset_of(&f->layout, t0 + t) - f->ref;
	}
}

/*
 * Each sample's latency less its target's overhead beyond the one at the
 * reference (the overhead's share of the block's media time there, less
 * at the reference), so that one overhead comes off every bin.
 */
static void at_reference(const struct fit *f, struct samp *v, size_t n)
{
	double g0 = fit_media_ms(f, f->ref), g;

	if (!(f->C_media > 0) || !isfinite(g0))
		return;
	for (size_t i = 0; i < n; i++)
		if (isfinite(g = fit_media_ms(f, v[i].at)))
			v[i].lat -= f->C_media * (g - g0);
}

/* Samples into pooled bins, the band edges, the signed rows and the pooled points. */
int fit_seek_curve(struct fit *f, const struct inputs *in, char *err, size_t errlen)
{
	size_t ns = 0, nr = 0, nq = 0, nb, n;
	struct samp *s = fit_samples(in->seek, "read", "media", &ns);
	struct samp *r = fit_samples(in->resp, "read", "media", &nr), *all = NULL;
	struct samp *q = queue_samples(in->qreq, &nq);
	struct pbin *b = NULL;
	double *tmp = NULL, *delta = NULL, *sig2 = NULL, smax;
	unsigned char *off = NULL;
	int rc = -1;

	at_reference(f, s, ns);
	at_reference(f, r, nr);
	at_reference(f, q, nq);
	in_tracks(f, s, ns);
	in_tracks(f, q, nq);
	smax = key_seek(s, ns);
	/* The response probe adds the distances the seek file does not reach. */
	f->resp_from = ns ? smax * 1.2 : 0;
	key_queue(q, &nq, f->resp_from);
	if (key_response(r, &nr, f->resp_from, f->block)) {
		fit_fail(err, errlen, "out of memory");
		goto out;
	}
	/* Keyed by the probe's grid of distances, then in tracks as the rest. */
	in_tracks(f, r, nr);
	/* From here on the response and queue samples are one set. */
	if (nq) {
		struct samp *rq = realloc(r, (nr + nq) * sizeof(*r));

		if (!rq) {
			fit_fail(err, errlen, "out of memory");
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
	n = ns + nr;
	all = malloc((n ? n : 1) * sizeof(*all));
	b = calloc(n ? n : 1, sizeof(*b));
	f->rows = calloc(2 * n + 1, sizeof(*f->rows));
	f->pool = calloc(n ? n : 1, sizeof(*f->pool));
	delta = calloc(2 * n + 1, sizeof(*delta));
	sig2 = calloc(2 * n + 1, sizeof(*sig2));
	tmp = malloc((n ? n : 1) * sizeof(*tmp));
	off = malloc(n ? n : 1);
	if (!all || !b || !f->rows || !f->pool || !delta || !sig2 || !tmp || !off) {
		fit_fail(err, errlen, "out of memory");
		goto out;
	}
	if (ns)
		memcpy(all, s, ns * sizeof(*s));
	if (nr)
		memcpy(all + ns, r, nr * sizeof(*r));
	nb = make_bins(all, n, f->rev, b, tmp);
	if (!nb) {
		fit_fail(err, errlen, "no seek or response samples to fit a seek curve to");
		goto out;
	}
	/* delta holds the bins' slopes until direction_rows fills it. */
	detrend_bins(all, b, nb, f->rev, tmp, delta);
	pool_neighbours(all, b, nb, f->rev, tmp, sig2, off);
	shrink_directions(f, delta, sig2, direction_rows(f, all, b, nb, tmp, delta, sig2), tmp);
	layout_rows(f);
	if (monotone_rows(f->rows, f->nrows)) {
		fit_fail(err, errlen, "out of memory");
		goto out;
	}
	rows_to_bytes(f);
	f->have_rw = hd_fit_rw(f->pool, f->npool, &f->rw) == 0;
	rc = 0;
out:
	free(s);
	free(r);
	free(q);
	free(all);
	free(b);
	free(tmp);
	free(delta);
	free(sig2);
	free(off);
	return rc;
}
