/* Exact percentiles: the data is sorted once and read by rank. */
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
