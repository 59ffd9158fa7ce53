/* Exact statistics over samples held in memory. */
#ifndef HDDSCOPE_STATS_H
#define HDDSCOPE_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Percentile p (0..100) of n sorted values, linear interpolation; NAN for n == 0. */
double hd_percentile_sorted(const double *v, size_t n, double p);
/* Sort n doubles ascending. */
void hd_sort_doubles(double *v, size_t n);
/* Sort n int64 ascending. */
void hd_sort_i64(int64_t *v, size_t n);
/* Percentile of sorted int64 values (nearest rank, p in 0..100); 0 for n == 0. */
int64_t hd_percentile_i64(const int64_t *v, size_t n, double p);

#endif
