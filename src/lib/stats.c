/*
 * Exact percentiles (the data is sorted once and read by rank), and the
 * tests behind stated error rates: the normal two-sided p-value, Holm's
 * step-down correction, the Wilson interval of a rate, and Wald's
 * sequential probability ratio test of a rate.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "hddscope/stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

void hd_sort_doubles(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
}

void hd_sort_i64(int64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_i64);
}

double hd_percentile_sorted(const double *v, size_t n, double p)
{
	double pos, frac;
	size_t i;

	if (n == 0)
		return NAN;
	if (p <= 0)
		return v[0];
	if (p >= 100)
		return v[n - 1];
	pos = p / 100 * (double)(n - 1);
	i = (size_t)pos;
	frac = pos - (double)i;
	return i + 1 < n ? v[i] + frac * (v[i + 1] - v[i]) : v[i];
}

int64_t hd_percentile_i64(const int64_t *v, size_t n, double p)
{
	size_t rank;

	if (n == 0)
		return 0;
	rank = (size_t)ceil(p / 100 * (double)n);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return v[rank - 1];
}

double hd_norm_p2(double z)
{
	return erfc(fabs(z) / sqrt(2.0));
}

/* Row indexes ordered by key, then latency (or, for Holm, p-value, then index). */
struct krow {
	double key, lat;
	size_t i;
};

static int cmp_krow(const void *a, const void *b)
{
	const struct krow *x = a, *y = b;

	if (x->key != y->key)
		return (x->key > y->key) - (x->key < y->key);
	return (x->lat > y->lat) - (x->lat < y->lat);
}

int hd_holm(const double *p, size_t n, double alpha, unsigned char *reject)
{
	struct krow *s = malloc((n ? n : 1) * sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		s[i] = (struct krow){ isnan(p[i]) ? 1 : p[i], (double)i, i };
		reject[i] = 0;
	}
	qsort(s, n, sizeof(*s), cmp_krow);
	/* Step down: the k-th smallest p is held to alpha / (n - k); the first that misses stops it. */
	for (size_t k = 0; k < n && s[k].key <= alpha / (double)(n - k); k++)
		reject[s[k].i] = 1;
	free(s);
	return 0;
}

void hd_wilson(uint64_t k, uint64_t n, double z, double *lo, double *hi)
{
	double p, c, h, dn = (double)n;

	if (n == 0) {
		*lo = 0;
		*hi = 1;
		return;
	}
	p = (double)k / dn;
	c = (p + z * z / (2 * dn)) / (1 + z * z / dn);
	h = z / (1 + z * z / dn) * sqrt(p * (1 - p) / dn + z * z / (4 * dn * dn));
	*lo = fmax(0, c - h);
	*hi = fmin(1, c + h);
	if (k == 0)
		*lo = 0;
	if (k == n)
		*hi = 1;
}

void hd_sprt_init(struct hd_sprt *t, double p0, double p1, double alpha, double beta)
{
	t->p0 = p0;
	t->p1 = p1;
	t->lo = log(beta / (1 - alpha));
	t->hi = log((1 - beta) / alpha);
	t->llr = 0;
	t->n = t->k = 0;
	t->decision = HD_SPRT_UNDECIDED;
	t->decided_at = 0;
}

int hd_sprt_add(struct hd_sprt *t, int event)
{
	if (t->decision != HD_SPRT_UNDECIDED)
		return t->decision;
	t->n++;
	t->k += event != 0;
	t->llr += event ? log(t->p1 / t->p0) : log((1 - t->p1) / (1 - t->p0));
	if (t->llr <= t->lo)
		t->decision = HD_SPRT_H0;
	else if (t->llr >= t->hi)
		t->decision = HD_SPRT_H1;
	if (t->decision != HD_SPRT_UNDECIDED)
		t->decided_at = t->n;
	return t->decision;
}

/* The continued fraction of the regularized incomplete beta function (Lentz's method). */
static double beta_cf(double a, double b, double x)
{
	double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d = 1 - qab * x / qap, h;

	if (fabs(d) < 1e-300)
		d = 1e-300;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa = m * (b - m) * x / ((qam + m2) * (a + m2)), del;

		d = 1 + aa * d;
		d = fabs(d) < 1e-300 ? 1e-300 : d;
		c = 1 + aa / c;
		c = fabs(c) < 1e-300 ? 1e-300 : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d;
		d = fabs(d) < 1e-300 ? 1e-300 : d;
		c = 1 + aa / c;
		c = fabs(c) < 1e-300 ? 1e-300 : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-14)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double hd_t_p2(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return 1;
	return beta_inc(df / 2, 0.5, df / (df + t * t));
}

int hd_slow_flags(const double *key, const double *lat, size_t n, double margin, unsigned char *slow)
{
	struct krow *k = malloc((n ? n : 1) * sizeof(*k));
	double *v = malloc((n ? n : 1) * sizeof(*v));

	if (!k || !v) {
		free(k);
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		k[i] = (struct krow){ key[i], lat[i], i };
		slow[i] = 0;
	}
	qsort(k, n, sizeof(*k), cmp_krow);
	for (size_t a = 0, b; a < n; a = b) {
		double lim;

		for (b = a; b < n && k[b].key == k[a].key; b++)
			v[b - a] = k[b].lat;
		lim = hd_percentile_sorted(v, b - a, 10) + margin;
		for (size_t j = a; j < b; j++)
			slow[k[j].i] = k[j].lat > lim;
	}
	free(k);
	free(v);
	return 0;
}

int hd_write_decide(const struct hd_write_test *w, const double *dist, const double *lat, size_t n,
		    struct hd_sprt *t, uint64_t *slow)
{
	unsigned char *f = malloc(n ? n : 1);
	int rc = f ? hd_slow_flags(dist, lat, n, 1.1 * w->rev_ms, f) : -ENOMEM;

	*slow = 0;
	hd_sprt_init(t, w->ok, w->unstable, w->alpha, w->beta);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		*slow += f[i];
		hd_sprt_add(t, f[i]);
	}
	free(f);
	return rc;
}

size_t hd_int_groups(const int *v, const int *c, size_t n, double tol, int *gv, int *gc)
{
	size_t *ix = malloc((n ? n : 1) * sizeof(*ix)), m = 0;

	if (!ix)
		return 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = i;

		/* Insertion sort of the indices by value: a few dozen values. */
		while (j > 0 && v[ix[j - 1]] > v[i]) {
			ix[j] = ix[j - 1];
			j--;
		}
		ix[j] = i;
	}
	for (size_t i = 0; i < n;) {
		double sum = 0;
		int cnt = 0;
		size_t j = i;

		do {
			sum += (double)v[ix[j]] * c[ix[j]];
			cnt += c[ix[j]];
			j++;
		} while (j < n && v[ix[j]] - v[ix[j - 1]] <= tol);
		gv[m] = cnt > 0 ? (int)lround(sum / cnt) : v[ix[i]];
		gc[m++] = cnt;
		i = j;
	}
	free(ix);
	return m;
}
