/*
 * Trace replay: both trace formats and their errors, the closed-loop
 * replay against the engine, and the CDF distance metric.
 */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/sim.h"
#include "testutil.h"

static char path[64];

static const char *write_trace(const char *text)
{
	int fd;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/hddscope-trace-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	return path;
}

START_TEST(test_formats)
{
	struct hd_trace *t;
	char err[256];

	ck_assert_int_eq(hd_trace_load(write_trace("# simple\nR 100 8 250.5\nW 0 1\n\n"), &t, err, sizeof(err)), 0);
	ck_assert_uint_eq(t->n, 2);
	ck_assert_int_eq(t->has_measured, 0);
	ck_assert(!t->req[0].write && t->req[0].lba == 100 && t->req[0].blocks == 8);
	ck_assert(t->req[0].idle_us == 250.5 && t->req[0].measured_us < 0);
	ck_assert(t->req[1].write && t->req[1].idle_us == 0);
	hd_trace_free(t);
	unlink(path);

	ck_assert_int_eq(hd_trace_load(write_trace("W Hit   11392096  12   1686.00000  40961.00000\n"
						   "R Miss 7563004 4 14368.0 28778.0\n"),
				       &t, err, sizeof(err)), 0);
	ck_assert_uint_eq(t->n, 2);
	ck_assert_int_eq(t->has_measured, 1);
	ck_assert(t->req[0].write && t->req[0].lba == 11392096 && t->req[0].blocks == 12);
	ck_assert(t->req[0].measured_us == 1686 && t->req[0].idle_us == 40961);
	ck_assert(!t->req[1].write && t->req[1].measured_us == 14368);
	hd_trace_free(t);
	unlink(path);
}
END_TEST

static const struct {
	const char *text;
	const char *msg;
} bad[] = {
	{ "R 1 8\nX 1 8\n", ":2: the operation must be R or W" },
	{ "R 1\n", ":1: expected" },
	{ "R 1 8 1 2\n", ":1: expected" },
	{ "R 1 0\n", ":1: bad block count" },
	{ "R -1 8\n", ":1: bad LBA" },
	{ "R 1 8 soon\n", ":1: bad idle time" },
	{ "\n\nR Maybe 1 8 1 1\n", ":3: the second field of a 6-field line must be Hit, Miss, Doub or Trip" },
	{ "R Hit 1 8 x 1\n", ":1: bad service time" },
	{ "# nothing\n", "no requests" },
	/* Found by tests/fuzz/fuzz_trace.c: idle times that overflowed the replay's clock. */
	{ "R 1 8 6.7e15\nR 2 8 6.7e15\n", ":1: bad idle time" },
	{ "R 1 8 3600000001\n", ":1: bad idle time" },
	{ "R Hit 1 8 1 7e15\n", ":1: bad interarrival time" },
};

START_TEST(test_bad_traces)
{
	struct hd_trace *t = NULL;
	char err[256];

	ck_assert_int_eq(hd_trace_load(write_trace(bad[_i].text), &t, err, sizeof(err)), -EINVAL);
	ck_assert_msg(strstr(err, bad[_i].msg) && strncmp(err, path, strlen(path)) == 0, "got '%s'", err);
	unlink(path);
}
END_TEST

/*
 * Found by tests/fuzz/fuzz_trace.c: a NUL byte was reported as "line too
 * long", or on the last line cut it short without a word.
 */
START_TEST(test_nul_byte)
{
	static const char mid[] = "R 0 8\nW 8 8 # a comment\0 with a NUL\nR 16 8\n";
	static const char last[] = "R 0 8\nR 8 8\0 junk";
	const char *texts[] = { mid, last };
	const size_t lens[] = { sizeof(mid) - 1, sizeof(last) - 1 };
	char long_line[1200];

	for (int i = 0; i < 2; i++) {
		struct hd_trace *t = NULL;
		char err[256];

		tu_write(write_trace(""), texts[i], lens[i]);
		ck_assert_int_eq(hd_trace_load(path, &t, err, sizeof(err)), -EINVAL);
		ck_assert_ptr_null(t);
		ck_assert_msg(strstr(err, ":2: NUL byte in a text file") != NULL, "got '%s'", err);
		unlink(path);
	}
	/* The line length limit is unchanged: 1023 bytes with the newline. */
	memset(long_line, ' ', sizeof(long_line));
	memcpy(long_line, "R 0 8", 5);
	long_line[1022] = '\n';
	long_line[1023] = '\0';
	{
		struct hd_trace *t = NULL;
		char err[256];

		ck_assert_int_eq(hd_trace_load(write_trace(long_line), &t, err, sizeof(err)), 0);
		hd_trace_free(t);
		unlink(path);
		long_line[1022] = ' ';
		long_line[1023] = '\n';
		long_line[1024] = '\0';
		ck_assert_int_eq(hd_trace_load(write_trace(long_line), &t, err, sizeof(err)), -EINVAL);
		ck_assert_msg(strstr(err, ":1: line longer than 1022 bytes") != NULL, "got '%s'", err);
		unlink(path);
	}
}
END_TEST

START_TEST(test_run)
{
	const char *text = "format = 1\nrpm = 6000\nsector_bytes = 512\nsurfaces = 2\nzone = 0 99 100\n"
			   "seek = 1 1\nread_overhead_ms = 0.2\ncache_hit_overhead_ms = 0.1\n"
			   "interface_mb_s = 51.2\ncache_segment_kb = 64\n";
	struct hd_sim_model *m;
	struct hd_trace *t;
	char err[256];

	ck_assert_int_eq(hd_sim_model_parse(text, strlen(text), "m", &m, err, sizeof(err)), 0);
	/* A read, the same read again (a hit), then one beyond the drive. */
	ck_assert_int_eq(hd_trace_load(write_trace("R 0 8 1000\nR 0 8 1000\n"), &t, err, sizeof(err)), 0);
	ck_assert_int_eq(hd_trace_run(t, m, 1, err, sizeof(err)), 0);
	/*
	 * At time 0 the head is over sector 0; after the 0.2 ms overhead it has
	 * passed, so it comes round again at 10 ms; then 8 sectors of 100 us,
	 * passed on to the host as they come, the last one 10 us after it.
	 */
	ck_assert(fabs(t->req[0].sim_us - (10000 + 800 + 10)) < 0.01);
	ck_assert_int_eq(t->req[0].hit, 0);
	ck_assert(fabs(t->req[1].sim_us - (100 + 80)) < 0.01);
	ck_assert_int_eq(t->req[1].hit, 1);
	hd_trace_free(t);
	unlink(path);
	ck_assert_int_eq(hd_trace_load(write_trace("R 0 8\nW 19999 2\n"), &t, err, sizeof(err)), 0);
	ck_assert_int_eq(hd_trace_run(t, m, 1, err, sizeof(err)), -ERANGE);
	ck_assert_ptr_nonnull(strstr(err, "request 2"));
	hd_trace_free(t);
	unlink(path);
	hd_sim_model_free(m);
}
END_TEST

START_TEST(test_rms)
{
	double a[1000], b[1000], c[3] = { 1, 2, 3 }, d[2] = { 1, 3 };
	int i;

	for (i = 0; i < 1000; i++) {
		a[i] = (i * 7919) % 1000 / 100.0;	/* 0 .. 9.99, shuffled */
		b[i] = i / 100.0 + 0.5;
	}
	ck_assert(hd_cdf_rms(a, 1000, a, 1000) == 0);
	/* A shift moves the CDF horizontally by exactly the shift. */
	ck_assert(fabs(hd_cdf_rms(a, 1000, b, 1000) - 0.5) < 1e-9);
	/* Quantile functions interpolated between order statistics, summed directly. */
	{
		double sum = 0;
		int k;

		for (k = 1; k <= 10000; k++) {
			double p = k / 10000.0, pa = p * 3 - 1, pb = p * 2 - 1, qa, qb;

			qa = pa <= 0 ? 1 : pa >= 2 ? 3 : 1 + pa;
			qb = pb <= 0 ? 1 : pb >= 1 ? 3 : 1 + 2 * pb;
			sum += (qa - qb) * (qa - qb);
		}
		ck_assert(fabs(hd_cdf_rms(c, 3, d, 2) - sqrt(sum / 10000)) < 1e-12);
		ck_assert(hd_cdf_rms(c, 3, d, 2) > 0.1);
	}
	ck_assert(hd_cdf_rms(a, 0, b, 10) < 0);
}
END_TEST

int main(void)
{
	return tu_main("sim_replay", "replay", NULL, NULL,
		       TU_TESTS(TU_TEST(test_formats), TU_LOOP(test_bad_traces, bad), TU_TEST(test_nul_byte),
				TU_TEST(test_run), TU_TEST(test_rms)));
}
