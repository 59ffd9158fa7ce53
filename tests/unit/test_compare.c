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
	/* At 90% confidence, two in a row leaning the same way by chance are rare. */
	ck_assert_msg(called <= c.nbins / 10, "%zu of %zu bins called", called, c.nbins);
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

	hd_rng_seed(&r, 3);
	grid(&r, 0, da, la);
	grid(&r, 0.05, db, lb);
	ck_assert_int_eq(hd_cmp_spread(da, la, 1200, REV, 5, &a), 0);
	ck_assert_int_eq(hd_cmp_spread(db, lb, 1200, REV, 5, &b), 0);
	ck_assert_uint_eq(a.groups, 48);
	ck_assert_uint_eq(a.outliers, 0);
	/* A retry lands beyond median + R when its rotational wait exceeds half a turn. */
	ck_assert_msg(b.rate > 0.012 && b.rate < 0.04, "rate %g", b.rate);
	ck_assert_int_eq(hd_cmp_steadier(&a, &b, &why), 'A');
	ck_assert_str_eq(why, "outliers");
	ck_assert_int_eq(hd_cmp_steadier(&b, &a, &why), 'B');
	ck_assert_int_eq(hd_cmp_steadier(&a, &a, &why), 0);
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

int main(void)
{
	return tu_main("compare", "stats", NULL, NULL,
		       TU_TESTS(TU_TEST(typical_is_mid_decile), TU_TEST(crossing_curves), TU_TEST(identical_drives),
				TU_TEST(too_few_samples), TU_TEST(steadier_drive), TU_TEST(band_width_is_the_revolution)));
}
