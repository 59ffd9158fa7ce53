/*
 * The queue probe against known truth: on simulated drives written here
 * (queue depth 32 and 1, everything else equal) IOPS must grow with the
 * number of clients only where the drive can reorder; on a regular file
 * every forked client must have run, the counts must add up, and the
 * summary's figures must equal those recomputed from the per-request file.
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

/* A 7200 rpm drive, 8 GB, no read cache (every read is a media read), queue depth qd. */
static const char *write_drive(const char *name, unsigned qd)
{
	return tu_writef(name,
			 "format = 1\n"
			 "name = queue test drive\n"
			 "rpm = 7200\n"
			 "sector_bytes = 512\n"
			 "surfaces = 4\n"
			 "zone = 0 9999 400 40 60\n"
			 "seek_model = 1.0 0.08 1000 2.53 0.001\n"
			 "read_overhead_ms = 0.2\n"
			 "write_overhead_ms = 0.3\n"
			 "interface_mb_s = 100\n"
			 "queue_depth = %u\n",
			 qd);
}

/* IOPS of the summary row for procs n. */
static double iops_at(const struct hd_df *df, double n)
{
	const struct hd_df_col *p = tu_col(df, "procs"), *io = tu_col(df, "iops");

	for (size_t i = 0; i < df->nrows; i++)
		if (p->num[i] == n)
			return io->num[i];
	ck_abort_msg("%s: no row for %g procs", df->path, n);
	return 0;
}

static void sim_iops(unsigned qd, double *i1, double *i8)
{
	char spec[600];
	const char *out = tu_path(qd > 1 ? "qd32.tsv" : "qd1.tsv");
	struct hd_df *df;

	snprintf(spec, sizeof(spec), "sim:%s", write_drive(qd > 1 ? "qd32.drive" : "qd1.drive", qd));
	{
		const char *args[] = { "queue", "-q", "--procs", "1,8", "--time", "30s", "-o", out, spec, NULL };

		ck_assert_int_eq(tu_run(hd_cmd_queue, args), 0);
	}
	df = tu_read(out);
	ck_assert_str_eq(hd_df_meta(df, "test"), "queue");
	ck_assert_str_eq(hd_df_meta(df, "complete"), "yes");
	ck_assert_uint_eq(df->nrows, 2);
	*i1 = iops_at(df, 1);
	*i8 = iops_at(df, 8);
	hd_df_free(df);
}

START_TEST(test_sim_queue_depth_32_reorders)
{
	double i1, i8;

	sim_iops(32, &i1, &i8);
	/*
	 * One client at a time: positioning is a random seek plus on average
	 * half a revolution (8.33 ms / 2) plus overheads, so a 7200 rpm drive
	 * cannot exceed 1000 / 4.17 = 240 IOPS.  With eight requests to choose
	 * from, the drive serves the nearest first.
	 */
	ck_assert_msg(i1 > 20 && i1 < 240, "1 client: %.1f IOPS", i1);
	ck_assert_msg(i8 >= 1.30 * i1, "queue depth 32: %.1f IOPS at 8 clients, %.1f at 1 (want +30%%)", i8,
		      i1);
}
END_TEST

START_TEST(test_sim_queue_depth_1_fifo)
{
	double i1, i8;

	sim_iops(1, &i1, &i8);
	ck_assert_msg(i1 > 20 && i1 < 240, "1 client: %.1f IOPS", i1);
	ck_assert_msg(fabs(i8 / i1 - 1) < 0.10, "queue depth 1: %.1f IOPS at 8 clients, %.1f at 1 (want < 10%%)",
		      i8, i1);
}
END_TEST

/* The same model, the same seed: the same requests and timings, bit for bit. */
START_TEST(test_sim_repeatable)
{
	char spec[600], *a, *b;
	const char *o1 = tu_path("r1.tsv"), *o2 = tu_path("r2.tsv");

	snprintf(spec, sizeof(spec), "sim:%s", write_drive("qd32.drive", 32));
	{
		const char *args[] = { "queue", "-q", "--procs", "1,4", "--requests", "50", "-o", o1, spec, NULL };
		ck_assert_int_eq(tu_run(hd_cmd_queue, args), 0);
		args[7] = o2;
		ck_assert_int_eq(tu_run(hd_cmd_queue, args), 0);
	}
	/* Compare the rows (the header has the start time and the file names). */
	a = tu_slurp(tu_path("r1-requests.tsv"));
	b = tu_slurp(tu_path("r2-requests.tsv"));
	ck_assert_ptr_nonnull(strstr(a, "# columns:"));
	ck_assert_ptr_nonnull(strstr(b, "# columns:"));
	ck_assert_uint_gt(strlen(strstr(a, "# columns:")), 250 * 20);
	ck_assert_str_eq(strstr(a, "# columns:"), strstr(b, "# columns:"));
	free(a);
	free(b);
}
END_TEST

/* Nearest rank, as the probe documents it. */
static double rank(const double *v, size_t n, double p)
{
	size_t r = (size_t)ceil(p / 100 * (double)n);

	return v[(r < 1 ? 1 : r) - 1];
}

START_TEST(test_file_clients_and_merge)
{
	const char *img = tu_path("disk.img"), *out = tu_path("f.tsv"), *rout = tu_path("f-requests.tsv");
	static const unsigned procs[] = { 1, 3, 8 };
	const unsigned reqs = 150;
	struct hd_df *sum, *req;
	const struct hd_df_col *rp, *rc, *rpid, *roff, *rst, *rlat, *sp, *sr;
	FILE *f = fopen(img, "w");
	char block[4096];
	uint64_t size = 16u << 20;

	ck_assert_ptr_nonnull(f);
	for (uint64_t i = 0; i < size / sizeof(block); i++) {
		for (size_t k = 0; k < sizeof(block); k++)
			block[k] = (char)(rand() & 0xff);
		ck_assert_uint_eq(fwrite(block, 1, sizeof(block), f), sizeof(block));
	}
	fclose(f);
	{
		const char *args[] = { "queue", "-q", "--procs", "1,3,8", "--requests", "150", "-o", out, img, NULL };

		ck_assert_int_eq(tu_run(hd_cmd_queue, args), 0);
	}
	sum = tu_read(out);
	req = tu_read(rout);
	ck_assert_str_eq(hd_df_meta(req, "test"), "queue");
	ck_assert_str_eq(hd_df_meta(req, "table"), "requests");
	ck_assert_str_eq(hd_df_meta(req, "complete"), "yes");
	ck_assert_str_eq(hd_df_meta(sum, "requests_file"), rout);
	ck_assert_uint_eq(sum->nrows, 3);
	rp = tu_col(req, "procs");
	rc = tu_col(req, "client");
	rpid = tu_col(req, "pid");
	roff = tu_col(req, "offset_bytes");
	rst = tu_col(req, "start_ms");
	rlat = tu_col(req, "latency_ms");
	sp = tu_col(sum, "procs");
	sr = tu_col(sum, "requests");
	ck_assert_uint_eq(req->nrows, (1 + 3 + 8) * reqs);
	ck_assert_str_eq(hd_df_meta(sum, "samples"), "1800");
	for (size_t k = 0; k < 3; k++) {
		unsigned n = procs[k], per[8] = { 0 };
		double pids[8], *lat = malloc(n * reqs * sizeof(double)), end = 0, acc = 0;
		size_t m = 0, row = k;

		ck_assert_ptr_nonnull(lat);
		ck_assert_double_eq(sp->num[row], n);
		for (size_t i = 0; i < req->nrows; i++) {
			unsigned c;

			if (rp->num[i] != n)
				continue;
			c = (unsigned)rc->num[i];
			ck_assert_uint_lt(c, n);
			/* A client is one process: one pid per client, and not this one. */
			if (per[c] == 0)
				pids[c] = rpid->num[i];
			ck_assert_double_eq(rpid->num[i], pids[c]);
			ck_assert_double_ne(rpid->num[i], (double)getpid());
			ck_assert(rpid->num[i] > 0);
			per[c]++;
			ck_assert(fmod(roff->num[i], 4096) == 0 && roff->num[i] + 4096 <= (double)size);
			lat[m++] = rlat->num[i];
			acc += rlat->num[i];
			if (rst->num[i] + rlat->num[i] > end)
				end = rst->num[i] + rlat->num[i];
		}
		for (unsigned c = 0; c < n; c++) {
			ck_assert_msg(per[c] == reqs, "%u procs: client %u ran %u requests", n, c, per[c]);
			for (unsigned e = 0; e < c; e++)
				ck_assert_msg(pids[e] != pids[c], "%u procs: clients %u and %u share pid %.0f", n, e, c,
					      pids[c]);
		}
		ck_assert_uint_eq(m, n * reqs);
		ck_assert_double_eq(sr->num[row], (double)m);
		hd_sort_doubles(lat, m);
		/* Exact merge: the summary's figures are the merged data's, to the nanosecond. */
		ck_assert_double_eq(tu_col(sum, "lat_p50_ms")->num[row], rank(lat, m, 50));
		ck_assert_double_eq(tu_col(sum, "lat_p90_ms")->num[row], rank(lat, m, 90));
		ck_assert_double_eq(tu_col(sum, "lat_p99_ms")->num[row], rank(lat, m, 99));
		ck_assert_double_eq(tu_col(sum, "lat_max_ms")->num[row], lat[m - 1]);
		ck_assert_double_eq_tol(tu_col(sum, "lat_mean_ms")->num[row], acc / (double)m, 2e-6);
		ck_assert_double_eq_tol(tu_col(sum, "iops")->num[row], (double)m / (end / 1e3),
					1e-3 * (double)m / (end / 1e3));
		ck_assert_double_eq_tol(tu_col(sum, "mb_s")->num[row], tu_col(sum, "iops")->num[row] * 4096 / 1e6, 1e-3);
		free(lat);
	}
	hd_df_free(sum);
	hd_df_free(req);
}
END_TEST

/* --time bounds each client by time; every client reports; nothing ran past the end by much. */
START_TEST(test_file_time_bound)
{
	const char *img = tu_path("t.img"), *out = tu_path("t.tsv"), *rout = tu_path("t-requests.tsv");
	struct hd_df *req;
	const struct hd_df_col *rst, *rc;
	FILE *f = fopen(img, "w");
	unsigned seen[4] = { 0 };

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ftruncate(fileno(f), 8u << 20), 0);
	fclose(f);
	{
		const char *args[] = { "queue", "-q", "--procs", "4", "--time", "200ms", "-o", out, img, NULL };

		ck_assert_int_eq(tu_run(hd_cmd_queue, args), 0);
	}
	req = tu_read(rout);
	rst = tu_col(req, "start_ms");
	rc = tu_col(req, "client");
	ck_assert_uint_gt(req->nrows, 4);
	for (size_t i = 0; i < req->nrows; i++) {
		/* Reads start before the deadline, after the release. */
		ck_assert(rst->num[i] >= 0 && rst->num[i] < 200);
		seen[(unsigned)rc->num[i]]++;
	}
	for (unsigned c = 0; c < 4; c++)
		ck_assert_uint_gt(seen[c], 0);
	hd_df_free(req);
}
END_TEST

START_TEST(test_usage_errors)
{
	const char *bad[][8] = {
		{ "queue", "--procs", "0", NULL },
		{ "queue", "--procs", "1,,2", NULL },
		{ "queue", "--procs", "257", NULL },
		{ "queue", "--time", "0", NULL },
		{ "queue", "--time", "5x", NULL },
		{ "queue", "--time", "1s", "--requests", "5", NULL },
		{ "queue", "--write", NULL },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_int_eq(tu_run(hd_cmd_queue, bad[i]), HD_EXIT_USAGE);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("queue");

	tu_case(s, "simulated", tu_mkdir, tu_rmdir,
		TU_TESTS(TU_TEST(test_sim_queue_depth_32_reorders), TU_TEST(test_sim_queue_depth_1_fifo),
			 TU_TEST(test_sim_repeatable), TU_TEST(test_usage_errors)));
	tu_case(s, "file", tu_mkdir, tu_rmdir, TU_TESTS(TU_TEST(test_file_clients_and_merge), TU_TEST(test_file_time_bound)));
	return tu_run_suite(s);
}
