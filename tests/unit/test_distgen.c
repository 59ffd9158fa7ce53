/* The seek probe's signed distance generator: bounds, signs, shape, alignment, repeatability. */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "hddscope/probe.h"
#include "testutil.h"

#define N 200000

START_TEST(test_log_bounds_and_shape)
{
	struct hd_dist p = { .log = 1, .min = 256 << 10, .range = 1ULL << 30, .align = 512 };
	struct hd_rng r;
	uint64_t neg = 0, bins[10] = { 0 };
	double lo, hi;

	ck_assert_int_eq(hd_dist_setup(&p), 0);
	hd_rng_seed(&r, 42);
	lo = log((double)p.min);
	hi = log((double)p.range);
	for (int i = 0; i < N; i++) {
		int64_t d = hd_dist_next(&r, &p);
		uint64_t m = (uint64_t)(d < 0 ? -d : d);
		int b;

		ck_assert_msg(m >= p.min && m <= p.range, "|d| = %llu outside [min, range]", (unsigned long long)m);
		ck_assert_msg(m % 512 == 0, "d = %lld not aligned", (long long)d);
		neg += d < 0;
		/* Log-uniform: equal counts in equal steps of log|d|. */
		b = (int)((log((double)m) - lo) / (hi - lo) * 10);
		if (b > 9)
			b = 9;
		bins[b]++;
	}
	ck_assert_msg(neg > N * 0.48 && neg < N * 0.52, "negative share %llu of %d", (unsigned long long)neg, N);
	for (int b = 0; b < 10; b++)
		ck_assert_msg(bins[b] > N / 10 * 0.95 && bins[b] < N / 10 * 1.05, "log bin %d holds %llu, want ~%d", b,
			      (unsigned long long)bins[b], N / 10);
}
END_TEST

START_TEST(test_linear_bounds_and_shape)
{
	struct hd_dist p = { .log = 0, .min = 0, .range = 100 << 20, .align = 4096 };
	struct hd_rng r;
	uint64_t bins[10] = { 0 };
	int64_t mn = INT64_MAX, mx = INT64_MIN;

	ck_assert_int_eq(hd_dist_setup(&p), 0);
	hd_rng_seed(&r, 7);
	for (int i = 0; i < N; i++) {
		int64_t d = hd_dist_next(&r, &p);
		ck_assert(d >= -(int64_t)p.range && d <= (int64_t)p.range);
		ck_assert(d % 4096 == 0);
		mn = d < mn ? d : mn;
		mx = d > mx ? d : mx;
		bins[(uint64_t)(d + (int64_t)p.range) * 10 / (2 * p.range + 1)]++;
	}
	/* Uniform: flat histogram over [-range, range], both ends reached. */
	for (int b = 0; b < 10; b++)
		ck_assert_msg(bins[b] > N / 10 * 0.95 && bins[b] < N / 10 * 1.05, "bin %d holds %llu", b,
			      (unsigned long long)bins[b]);
	ck_assert(mn < -(int64_t)p.range * 99 / 100);
	ck_assert(mx > (int64_t)p.range * 99 / 100);
}
END_TEST

START_TEST(test_same_seed_same_sequence)
{
	struct hd_dist p = { .log = 1, .min = 4096, .range = 1 << 30, .align = 512 };
	struct hd_rng a, b, c;
	int differ = 0;

	ck_assert_int_eq(hd_dist_setup(&p), 0);
	hd_rng_seed(&a, 1);
	hd_rng_seed(&b, 1);
	hd_rng_seed(&c, 2);
	for (int i = 0; i < 1000; i++) {
		int64_t x = hd_dist_next(&a, &p), y = hd_dist_next(&b, &p), z = hd_dist_next(&c, &p);
		ck_assert_int_eq(x, y);
		differ += x != z;
	}
	ck_assert_int_gt(differ, 990);
}
END_TEST

START_TEST(test_setup_rounding)
{
	struct hd_dist p = { .log = 1, .min = 1000, .range = 10000, .align = 512 };

	ck_assert_int_eq(hd_dist_setup(&p), 0);
	ck_assert_uint_eq(p.min, 1024);
	ck_assert_uint_eq(p.range, 9728);
	/* Nothing left between min and range. */
	p = (struct hd_dist){ .log = 1, .min = 5000, .range = 5100, .align = 4096 };
	ck_assert_int_eq(hd_dist_setup(&p), -EINVAL);
	p = (struct hd_dist){ .log = 0, .min = 0, .range = 100, .align = 512 };
	ck_assert_int_eq(hd_dist_setup(&p), -EINVAL);
}
END_TEST

START_TEST(test_rng_below_uniform)
{
	struct hd_rng r;
	uint64_t cnt[3] = { 0 };

	hd_rng_seed(&r, 3);
	for (int i = 0; i < 30000; i++) {
		uint64_t v = hd_rng_below(&r, 3);
		ck_assert_uint_lt(v, 3);
		cnt[v]++;
	}
	for (int k = 0; k < 3; k++)
		ck_assert(cnt[k] > 9500 && cnt[k] < 10500);
}
END_TEST

int main(void)
{
	return tu_main("distgen", "dist", NULL, NULL,
		       TU_TESTS(TU_TEST(test_log_bounds_and_shape), TU_TEST(test_linear_bounds_and_shape),
				TU_TEST(test_same_seed_same_sequence), TU_TEST(test_setup_rounding),
				TU_TEST(test_rng_below_uniform)));
}
