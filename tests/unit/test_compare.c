/*
 * compare statistics against synthetic drives with known truth: a seek
 * band one revolution wide over a curve, two curves that cross at a known
 * distance, identical drives, and a drive that loses a revolution on 5%
 * of its accesses.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "hddscope/compare.h"
#include "hddscope/stats.h"
#include "hddscope/util.h"
#include "testutil.h"

#define REV 8.333
#define N 4000

/* positioning a + b sqrt(d / 1 MB), plus a uniform rotational wait, plus retries. */
static void drive(struct hd_rng *r, double a, double b, double retry, double *d, double *lat, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		d[i] = 262144 * pow(4096, hd_rng_uniform(r));	/* 256 KiB .. 1 GiB, log-uniform */
		lat[i] = a + b * sqrt(d[i] / 1e6) + REV * hd_rng_uniform(r);
		if (hd_rng_uniform(r) < retry)
			lat[i] += REV;
	}
}

/*
 * The curve comparison of drives A (a_a, b_a) and B (a_b, b_b), drawn with
 * seed, no retries; it must find ncross crossings.
 */
static void compare_drives(uint64_t seed, double a_a, double b_a, double a_b, double b_b, size_t ncross,
			   struct hd_cmp_curve *c)
{
	static double da[N], la[N], db[N], lb[N];
	struct hd_cmp_opts o;
	struct hd_rng r;

	hd_rng_seed(&r, seed);
	drive(&r, a_a, b_a, 0, da, la, N);
	drive(&r, a_b, b_b, 0, db, lb, N);
	hd_cmp_defaults(&o);
	ck_assert_int_eq(hd_cmp_curve(da, la, N, db, lb, N, &o, c), 0);
	ck_assert_uint_eq(c->ncross, ncross);
}

START_TEST(typical_is_mid_decile)
{
	double v[11] = { 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0 };

	ck_assert_double_eq_tol(hd_cmp_typical(v, 11), 5, 1e-12);
	ck_assert(isnan(hd_cmp_typical(v, 0)));
}
END_TEST

START_TEST(crossing_curves)
{
	struct hd_cmp_curve c;
	/* 0.5 + 0.7 s = 5 + 0.1 s at s = 7.5: d = 56.25 MB. */
	double truth = 56.25e6;

	compare_drives(42, 0.5, 0.7, 5.0, 0.1, 1, &c);
	ck_assert_int_eq(c.cross[0].below, 'A');
	ck_assert_int_eq(c.cross[0].above, 'B');
	ck_assert_msg(fabs(c.cross[0].bytes / truth - 1) < 0.10, "crossover %.0f, truth %.0f", c.cross[0].bytes, truth);
	ck_assert(c.cross[0].lo <= c.cross[0].bytes && c.cross[0].bytes <= c.cross[0].hi);
	/* The first range is A's, the last B's, with sensible percentages. */
	ck_assert_int_eq(c.ranges[0].winner, 'A');
	ck_assert_int_eq(c.ranges[c.nranges - 1].winner, 'B');
	ck_assert(c.ranges[0].pct_max > 20 && c.ranges[0].pct_max < 60);
	hd_cmp_curve_free(&c);
}
END_TEST

START_TEST(identical_drives)
{
	struct hd_cmp_curve c;
	size_t called = 0;

	compare_drives(7, 1, 0.4, 1, 0.4, 0, &c);
	for (size_t i = 0; i < c.nbins; i++)
		called += c.bins[i].winner != 0;
	/* Holm at a family-wise 0.001: a drive against itself gets no bin called. */
	ck_assert_msg(called == 0, "%zu of %zu bins called", called, c.nbins);
	for (size_t i = 0; i < c.nranges; i++)
		ck_assert(c.ranges[i].bound_pct > 0 && c.ranges[i].bound_pct < 30);
	hd_cmp_curve_free(&c);
}
END_TEST

START_TEST(too_few_samples)
{
	double d[3] = { 1e6, 2e6, 3e6 }, l[3] = { 1, 2, 3 };
	struct hd_cmp_opts o;
	struct hd_cmp_curve c;

	hd_cmp_defaults(&o);
	ck_assert_int_eq(hd_cmp_curve(d, l, 3, d, l, 3, &o, &c), 0);
	ck_assert_uint_eq(c.nbins, 0);
	ck_assert_uint_eq(c.ncross, 0);
	hd_cmp_curve_free(&c);
}
END_TEST

/* 48 distances, 25 samples each, as the response probe takes them. */
static void grid(struct hd_rng *r, double retry, double *d, double *lat)
{
	for (size_t i = 0; i < 48 * 25; i++) {
		d[i] = (i % 2 ? -1 : 1) * 512 * pow(2, (double)(i / 25) / 2);
		lat[i] = 2 + log(fabs(d[i])) / 4 + REV * hd_rng_uniform(r) + (hd_rng_uniform(r) < retry ? REV : 0);
	}
}

START_TEST(steadier_drive)
{
	static double da[1200], la[1200], db[1200], lb[1200];
	struct hd_cmp_spread a, b;
	struct hd_rng r;
	const char *why;
	double p, diff, lo, hi;

	hd_rng_seed(&r, 3);
	grid(&r, 0, da, la);
	grid(&r, 0.05, db, lb);
	ck_assert_int_eq(hd_cmp_spread(da, la, 1200, REV, 5, &a), 0);
	ck_assert_int_eq(hd_cmp_spread(db, lb, 1200, REV, 5, &b), 0);
	ck_assert_uint_eq(a.groups, 48);
	ck_assert_uint_eq(a.outliers, 0);
	/* A retry lands beyond median + R when its rotational wait exceeds half a turn. */
	ck_assert_msg(b.rate > 0.012 && b.rate < 0.04, "rate %g", b.rate);
	p = hd_cmp_spread_p(&a, &b, 1.96, &diff, &lo, &hi);
	ck_assert_msg(p < 1e-4, "p %g", p);
	ck_assert_double_eq_tol(diff, b.rate, 1e-12);
	ck_assert(lo > 0 && lo < diff && hi > diff);
	ck_assert_int_eq(hd_cmp_steadier(&a, &b, 1, &why), 'A');
	ck_assert_str_eq(why, "outliers");
	ck_assert_int_eq(hd_cmp_steadier(&b, &a, 1, &why), 'B');
	ck_assert_int_eq(hd_cmp_steadier(&a, &b, 0, &why), 0);
	ck_assert_double_eq(hd_cmp_spread_p(&a, &a, 1.96, &diff, &lo, &hi), 1);
	ck_assert_int_eq(hd_cmp_steadier(&a, &a, 1, &why), 0);
	ck_assert_str_eq(why, "none");
	ck_assert_int_eq(hd_cmp_spread(da, la, 3, REV, 5, &a), -ENODATA);
}
END_TEST

START_TEST(band_width_is_the_revolution)
{
	static double d[N], lat[N];
	struct hd_rng r;
	double rev;

	hd_rng_seed(&r, 11);
	drive(&r, 1, 0.05, 0, d, lat, N);
	rev = hd_cmp_band_rev(d, lat, N, 8);
	ck_assert_msg(fabs(rev / REV - 1) < 0.05, "band %g", rev);
	ck_assert(isnan(hd_cmp_band_rev(d, lat, 10, 8)));
}
END_TEST

/* Holm's step-down against a worked case: p sorted 0.001 0.01 0.02 0.04 at alpha 0.05. */
START_TEST(holm_steps_down)
{
	double p[5] = { 0.04, 0.001, 0.02, 0.01, NAN };
	unsigned char rej[5];

	ck_assert_int_eq(hd_holm(p, 5, 0.05, rej), 0);
	/* 0.001 <= 0.05/5, 0.01 <= 0.05/4, 0.02 > 0.05/3: stops there. */
	ck_assert(rej[1] && rej[3] && !rej[2] && !rej[0] && !rej[4]);
	ck_assert_int_eq(hd_holm(p, 4, 0.10, rej), 0);
	/* 0.001, 0.01 <= 0.1/3, 0.02 <= 0.1/2, 0.04 <= 0.1. */
	ck_assert(rej[0] && rej[1] && rej[2] && rej[3]);
}
END_TEST

/* The t and normal p-values against tabulated quantiles. */
START_TEST(p_values)
{
	ck_assert_double_eq_tol(hd_norm_p2(1.959964), 0.05, 1e-6);
	ck_assert_double_eq_tol(hd_t_p2(2.228139, 10), 0.05, 1e-6);
	ck_assert_double_eq_tol(hd_t_p2(-12.7062, 1), 0.05, 1e-5);
	ck_assert_double_eq_tol(hd_t_p2(0, 5), 1, 1e-12);
	ck_assert_double_eq_tol(hd_cmp_z(0.95), 1.959964, 1e-5);
	ck_assert_double_eq(hd_t_p2(NAN, 5), 1);
}
END_TEST

/* Wilson's interval of 5 in 100 at 95%: 0.0215 to 0.1118 (Newcombe 1998). */
START_TEST(wilson_interval)
{
	double lo, hi;

	hd_wilson(5, 100, 1.959964, &lo, &hi);
	ck_assert_double_eq_tol(lo, 0.02154, 1e-4);
	ck_assert_double_eq_tol(hi, 0.11175, 1e-4);
	hd_wilson(0, 1000, 1.959964, &lo, &hi);
	ck_assert(lo == 0 && hi > 0.003 && hi < 0.004);
}
END_TEST

/*
 * The SPRT of 0.2% against 0.8% at 5%/1%: the bounds of Wald's
 * approximation, and its error rates over 2000 simulated runs each.
 */
START_TEST(sprt_error_rates)
{
	struct hd_sprt t;
	struct hd_rng r;
	int wrong0 = 0, wrong1 = 0;

	hd_sprt_init(&t, 0.002, 0.008, 0.05, 0.01);
	ck_assert_double_eq_tol(t.hi, log(0.99 / 0.05), 1e-12);
	ck_assert_double_eq_tol(t.lo, log(0.01 / 0.95), 1e-12);
	/* No events: H0 once n log(0.992/0.998) passes the lower bound. */
	for (int i = 0; i < 10000 && hd_sprt_add(&t, 0) == HD_SPRT_UNDECIDED; i++)
		;
	ck_assert_uint_eq(t.decided_at, (uint64_t)ceil(log(0.01 / 0.95) / log(0.992 / 0.998)));
	hd_rng_seed(&r, 5);
	for (int run = 0; run < 2000; run++) {
		for (int h = 0; h < 2; h++) {
			double p = h ? 0.008 : 0.002;
			hd_sprt_init(&t, 0.002, 0.008, 0.05, 0.01);
			while (hd_sprt_add(&t, hd_rng_uniform(&r) < p) == HD_SPRT_UNDECIDED)
				;
			wrong0 += !h && t.decision == HD_SPRT_H1;
			wrong1 += h && t.decision == HD_SPRT_H0;
		}
	}
	ck_assert_msg(wrong0 <= 2000 * 0.05 && wrong1 <= 2000 * 0.01 + 10, "%d %d", wrong0, wrong1);
}
END_TEST

/*
 * Skews measured through a noisy clock: 69, 70, 71 (one skew, 70) and 80,
 * 81 (another, 81) in groups within 1.5 of each other; with tolerance 0
 * each value its own group, as the exact clock counts them.
 */
START_TEST(int_groups)
{
	int v[] = { 81, 70, 69, 80, 71, 0 }, c[] = { 4, 30, 5, 1, 3, 9 }, gv[6], gc[6];
	size_t n = hd_int_groups(v, c, 6, 1.5, gv, gc);

	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(gv[0], 0);
	ck_assert_int_eq(gc[0], 9);
	ck_assert_int_eq(gv[1], 70);	/* (69 * 5 + 70 * 30 + 71 * 3) / 38 = 69.95 */
	ck_assert_int_eq(gc[1], 38);
	ck_assert_int_eq(gv[2], 81);	/* (80 + 81 * 4) / 5 = 80.8 */
	ck_assert_int_eq(gc[2], 5);
	n = hd_int_groups(v, c, 6, 0, gv, gc);
	ck_assert_uint_eq(n, 6);
	ck_assert_int_eq(gv[1], 69);
	ck_assert_int_eq(gc[5], 4);
}
END_TEST

int main(void)
{
	return tu_main("compare", "stats", NULL, NULL,
		       TU_TESTS(TU_TEST(typical_is_mid_decile), TU_TEST(crossing_curves), TU_TEST(identical_drives),
				TU_TEST(too_few_samples), TU_TEST(steadier_drive), TU_TEST(band_width_is_the_revolution), TU_TEST(holm_steps_down), TU_TEST(p_values),
				TU_TEST(wilson_interval), TU_TEST(sprt_error_rates), TU_TEST(int_groups)));
}
