/* Exact statistics over samples held in memory, and the tests that give findings their error rates. */
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

/* The two-sided p-value of a standard normal statistic z. */
double hd_norm_p2(double z);
/* The two-sided p-value of Student's t with df degrees of freedom (1 for NAN or df <= 0). */
double hd_t_p2(double t, double df);

/*
 * Holm's step-down correction: reject[i] = 1 for the hypotheses rejected at
 * family-wise error rate alpha over the n p-values (NAN counts as 1).
 * Returns 0 or -ENOMEM.
 */
int hd_holm(const double *p, size_t n, double alpha, unsigned char *reject);

/* The Wilson score interval [lo, hi] of the rate k / n at normal quantile z (1.96: 95%). */
void hd_wilson(uint64_t k, uint64_t n, double z, double *lo, double *hi);

/*
 * Wald's sequential probability ratio test of a rate: H0 rate p0 against
 * H1 rate p1 > p0, deciding H1 when H0 holds with probability at most
 * alpha and H0 when H1 holds with probability at most beta.  Feed it one
 * trial at a time; once decided it keeps its decision.
 */
enum { HD_SPRT_UNDECIDED, HD_SPRT_H0, HD_SPRT_H1 };
struct hd_sprt {
	double p0, p1;
	double lo, hi;		/* the log-likelihood-ratio bounds */
	double llr;
	uint64_t n, k;		/* trials and events fed before the decision */
	int decision;
	uint64_t decided_at;	/* the trial that decided, 0 while undecided */
};
void hd_sprt_init(struct hd_sprt *t, double p0, double p1, double alpha, double beta);
/* Add one trial (event nonzero: it happened); returns the decision. */
int hd_sprt_add(struct hd_sprt *t, int event);

/*
 * Flag the slow samples among n (slow[i] = 1): those slower than the tenth
 * percentile of the samples of equal key (a distance) by more than margin
 * (for a write, 1.1 revolutions: it went round once more).  0 or -ENOMEM.
 */
int hd_slow_flags(const double *key, const double *lat, size_t n, double margin, unsigned char *slow);

/*
 * The write-stability decision that verdict gives and the response probe
 * measures towards: a write is slow when slower than the p10 of the writes
 * at its distance by more than 1.1 revolutions; Wald's test of the slow
 * rate, healthy at ok (a fraction) or less against unstable at unstable or
 * more, deciding unstable for a healthy drive with probability alpha and
 * healthy for an unstable one with probability beta.  The verdict's rules
 * default to these.
 */
#define HD_WRITE_SLOW_OK 0.002
#define HD_WRITE_SLOW_UNSTABLE 0.008
#define HD_WRITE_RISK_ALPHA 0.05
#define HD_WRITE_RISK_BETA 0.01
struct hd_write_test {
	double rev_ms, ok, unstable, alpha, beta;
};
/*
 * Decide on n writes in the order they were taken (dist: |distance|):
 * *t the test fed every write, *slow the slow ones.  0 or -ENOMEM.
 */
int hd_write_decide(const struct hd_write_test *w, const double *dist, const double *lat, size_t n,
		    struct hd_sprt *t, uint64_t *slow);

/*
 * Whole numbers v[0..n) counted c[0..n) times, in groups: sorted, a group
 * ending where the next value lies more than tol above the last (tol 0:
 * each value its own group).  Each group's counts are summed into gc and
 * its mean (weighted by count) rounded into gv.  Returns the groups; gv and
 * gc have room for n.
 */
size_t hd_int_groups(const int *v, const int *c, size_t n, double tol, int *gv, int *gc);

#endif
