/*
 * The interval probe against known truth, on simulated drives written
 * here: with the write cache off, latency against the idle interval is a
 * sawtooth whose period is the revolution time (checked within 1% for two
 * spindle speeds); with it on, a write that finds room in the cache costs
 * only the controller overhead and the interface transfer, and one that
 * finds it full waits for the media.  Plus the refusal without --write.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/cmd.h"
#include "hddscope/probe.h"
#include "hddscope/datafile.h"
#include "hddscope/sim.h"
#include "hddscope/stats.h"
#include "testutil.h"

/* Write overhead and interface rate of every test drive: a cached 4 KiB write costs their sum. */
#define WR_OVH_MS 0.3
#define IFACE_MB_S 40.0
#define CACHED_MS (WR_OVH_MS + 4096 / (IFACE_MB_S * 1e6) * 1e3)

static const char *write_drive(const char *name, double rpm, int wcache, unsigned wcache_kb)
{
	return tu_writef(name,
			 "format = 1\n"
			 "name = interval test drive\n"
			 "rpm = %g\n"
			 "sector_bytes = 512\n"
			 "surfaces = 4\n"
			 "zone = 0 4999 500 50 70\n"
			 "zone = 5000 9999 400 40 60\n"
			 "seek_model = 1.0 0.08 1000 2.53 0.001\n"
			 "head_switch_ms = 0.8\n"
			 "write_settle_ms = 0.2\n"
			 "read_overhead_ms = 0.2\n"
			 "write_overhead_ms = %g\n"
			 "interface_mb_s = %g\n"
			 "write_cache = %s\n"
			 "write_cache_kb = %u\n",
			 rpm, WR_OVH_MS, IFACE_MB_S, wcache ? "on" : "off", wcache_kb);
}

static struct hd_df *run_on(const char *drive, const char *out, const char *extra)
{
	char spec[600];
	struct hd_df *df;
	const char *args[] = { "interval", "-q", "--write", "-o", out, spec, extra, NULL };

	snprintf(spec, sizeof(spec), "sim:%s", drive);
	if (extra) {
		/* The operand last, options first. */
		args[5] = extra;
		args[6] = spec;
	}
	ck_assert_int_eq(tu_run(hd_cmd_interval, args), 0);
	df = tu_read(out);
	ck_assert_str_eq(hd_df_meta(df, "test"), "interval");
	ck_assert_str_eq(hd_df_meta(df, "complete"), "yes");
	return df;
}

/*
 * The sawtooth's period, from the data alone.  Per nominal interval take
 * the median latency and the median actual gap; walking up the intervals,
 * a jump up by more than half the latency range starts a new tooth.
 * Within a tooth latency + gap is constant (the write waits for the same
 * passage of its sector); from one tooth to the next it grows by exactly
 * one period.  Returns the period in ms, or NAN with fewer than 2 teeth.
 */
static double sawtooth_period(const struct hd_df *df)
{
	const struct hd_df_col *iv = tu_col(df, "interval_ms"), *act = tu_col(df, "actual_interval_ms"),
			       *lat = tu_col(df, "latency_ms"), *cls = tu_col(df, "class");
	double *ivs = malloc(df->nrows * sizeof(double)), *ml, *mv, *tmp, lo = INFINITY, hi = -INFINITY;
	double first = NAN, last = NAN, *tooth;
	size_t n = 0, teeth = 0, nt = 0;

	ck_assert_ptr_nonnull(ivs);
	for (size_t i = 0; i < df->nrows; i++)
		ivs[n++] = iv->num[i];
	hd_sort_doubles(ivs, n);
	{
		size_t u = 0;

		for (size_t i = 0; i < n; i++)
			if (u == 0 || ivs[i] != ivs[u - 1])
				ivs[u++] = ivs[i];
		n = u;
	}
	ml = calloc(n, sizeof(double));
	mv = calloc(n, sizeof(double));
	tmp = malloc(df->nrows * sizeof(double) * 2);
	tooth = malloc(n * sizeof(double));
	ck_assert(ml && mv && tmp && tooth);
	for (size_t k = 0; k < n; k++) {
		size_t m = 0;

		for (size_t i = 0; i < df->nrows; i++)
			if (iv->num[i] == ivs[k] && strcmp(hd_df_str(cls, i), "error") != 0) {
				tmp[m] = lat->num[i];
				tmp[df->nrows + m] = act->num[i];
				m++;
			}
		ck_assert_uint_gt(m, 0);
		ml[k] = tu_median(tmp, m);
		mv[k] = ml[k] + tu_median(tmp + df->nrows, m);
		lo = fmin(lo, ml[k]);
		hi = fmax(hi, ml[k]);
	}
	for (size_t k = 0; k <= n; k++) {
		if (k == n || (k > 0 && ml[k] - ml[k - 1] > (hi - lo) / 2)) {
			double med = tu_median(tooth, nt);

			if (teeth == 0)
				first = med;
			last = med;
			teeth++;
			nt = 0;
			if (k == n)
				break;
		}
		tooth[nt++] = mv[k];
	}
	free(ivs);
	free(ml);
	free(mv);
	free(tmp);
	free(tooth);
	return teeth >= 2 ? (last - first) / (double)(teeth - 1) : NAN;
}

static void check_period(double rpm, const char *name)
{
	const char *drive = write_drive(name, rpm, 0, 0), *out = tu_path("p.tsv");
	struct hd_df *df = run_on(drive, out, NULL);
	const struct hd_df_col *iv = tu_col(df, "interval_ms"), *act = tu_col(df, "actual_interval_ms");
	double rev = 60000 / rpm, p = sawtooth_period(df);

	/* Defaults: 0 to 20 ms in 0.25 ms steps, 5 reps each. */
	ck_assert_uint_eq(df->nrows, 81 * 5);
	for (size_t i = 0; i < df->nrows; i++) {
		ck_assert_msg(iv->num[i] >= 0 && iv->num[i] <= 20 && fabs(remainder(iv->num[i], 0.25)) < 1e-9, "row %zu: interval %g",
			      i, iv->num[i]);
		/* The simulated clock idles exactly as asked. */
		ck_assert_double_eq_tol(act->num[i], iv->num[i], 1e-6);
	}
	ck_assert_msg(fabs(p - rev) <= 0.01 * rev, "%g rpm: sawtooth period %.4f ms, revolution %.4f ms", rpm,
		      p, rev);
	hd_df_free(df);
}

START_TEST(test_period_7200)
{
	check_period(7200, "r7200.drive");
}
END_TEST

START_TEST(test_period_5400)
{
	check_period(5400, "r5400.drive");
}
END_TEST

START_TEST(test_period_10000)
{
	check_period(10000, "r10000.drive");
}
END_TEST

/*
 * Write cache on with room for both writes: the second write, issued
 * right after the first, lands in the cache and costs overhead plus the
 * interface transfer, and is labelled cache; with a cache that holds only
 * one block it finds the cache full and waits for the first write to
 * reach the media, unless the interval was long enough for that.
 */
START_TEST(test_write_cache)
{
	const char *big = write_drive("big.drive", 7200, 1, 1024), *one = write_drive("one.drive", 7200, 1, 4);
	const char *off = write_drive("off.drive", 7200, 0, 0);
	struct hd_df *dfs[3];
	double rev = 60000.0 / 7200;

	dfs[0] = run_on(big, tu_path("big.tsv"), "--intervals=0,0.5,1,2,15,18,20");
	dfs[1] = run_on(one, tu_path("one.tsv"), "--intervals=0,0.5,1,2,15,18,20");
	dfs[2] = run_on(off, tu_path("off.tsv"), "--intervals=0,0.5,1,2,15,18,20");
	for (int k = 0; k < 3; k++) {
		const struct hd_df_col *iv = tu_col(dfs[k], "interval_ms"), *lat = tu_col(dfs[k], "latency_ms");
		const struct hd_df_col *cls = tu_col(dfs[k], "class");

		double full0 = 0;
		int nfull0 = 0;

		ck_assert_uint_eq(dfs[k]->nrows, 7 * 5);
		for (size_t i = 0; i < dfs[k]->nrows; i++) {
			double t = iv->num[i], l = lat->num[i];

			if (k == 0 && t == 0) {
				ck_assert_msg(fabs(l - CACHED_MS) < 1e-3, "cache with room, t=0: %.6f ms, want %.6f", l,
					      CACHED_MS);
				ck_assert_str_eq(hd_df_str(cls, i), "cache");
			}
			/* The first write must reach the media first: at least its transfer. */
			if (k == 1 && t == 0) {
				ck_assert_msg(l >= CACHED_MS + 8.0 / 500 * rev - 1e-6, "full cache, t=0: %.6f ms", l);
				full0 += l;
				nfull0++;
			}
			/*
			 * The one-block cache holds at most the first write, destaged
			 * within a revolution and a short seek: long after, X' fits.
			 */
			if (k == 1 && t >= 15)
				ck_assert_msg(fabs(l - CACHED_MS) < 1e-3, "full cache, t=%g: %.6f ms, want %.6f", t, l,
					      CACHED_MS);
			/* No cache: every write waits for the media, never cheaper than its transfer. */
			if (k == 2) {
				ck_assert_msg(l >= CACHED_MS + 8.0 / 500 * rev - 1e-6, "no cache, t=%g: %.6f ms", t, l);
				ck_assert_str_eq(hd_df_str(cls, i), "media");
			}
		}
		/* ... and on average a rotational wait on top: half a revolution, here at least a quarter. */
		if (k == 1)
			ck_assert_msg(nfull0 == 5 && full0 / nfull0 > CACHED_MS + rev / 4, "full cache, t=0: mean %.6f ms",
				      full0 / nfull0);
		hd_df_free(dfs[k]);
	}
}
END_TEST

START_TEST(test_refuses_without_write)
{
	const char *drive = write_drive("x.drive", 7200, 0, 0), *out = tu_path("n.tsv");
	char spec[600];
	const char *args[] = { "interval", "-q", "-o", out, spec, NULL };

	snprintf(spec, sizeof(spec), "sim:%s", drive);
	ck_assert_int_eq(tu_run(hd_cmd_interval, args), HD_EXIT_SETUP);
	ck_assert_int_ne(access(out, F_OK), 0);
}
END_TEST

START_TEST(test_usage_errors)
{
	const char *bad[][8] = {
		{ "interval", "--write", "--intervals", "5:1:1", NULL },
		{ "interval", "--write", "--intervals", "0:1:0", NULL },
		{ "interval", "--write", "--intervals", "1,x", NULL },
		{ "interval", "--write", "--intervals", "-1", NULL },
		{ "interval", "--write", "--reps", "0", NULL },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_int_eq(tu_run(hd_cmd_interval, bad[i]), HD_EXIT_USAGE);
}
END_TEST

int main(void)
{
	return tu_main("interval", "simulated", tu_mkdir, tu_rmdir,
		       TU_TESTS(TU_TEST(test_period_7200), TU_TEST(test_period_5400), TU_TEST(test_period_10000),
				TU_TEST(test_write_cache), TU_TEST(test_refuses_without_write),
				TU_TEST(test_usage_errors)));
}
