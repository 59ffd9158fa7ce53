/* Data files: write/read round trip, atomic finish, and rejection of malformed input. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/datafile.h"
#include "testutil.h"

START_TEST(test_round_trip)
{
	struct hd_df_writer *w;
	struct hd_df *df;
	const struct hd_df_col *dist, *lat, *cls, *op;
	const char *call;
	char err[256];
	const char *p = tu_path("seek.tsv");
	FILE *rows;

	ck_assert_int_eq(hd_dfw_open(&w, p, "seek"), 0);
	hd_dfw_meta(w, "device", "/dev/sdb");
	hd_dfw_meta(w, "capacity_bytes", "%llu", 20576747520ULL);
	hd_dfw_meta(w, "note", "line\nbreak");
	hd_dfw_columns(w, "distance_bytes offset_bytes latency_ms op class");
	rows = hd_dfw_rows(w);
	for (int i = 0; i < 5000; i++)
		fprintf(rows, "%d\t%d\t%d.%03d\t%s\t%s\n", (i - 2500) * 4096, i * 4096, i / 1000, i % 1000,
			i % 3 ? "read" : "write", i % 7 ? "media" : "cache");
	/* Nothing under the final name before finish. */
	ck_assert_int_eq(access(p, F_OK), -1);
	hd_dfw_meta(w, "late", "added after the rows");
	ck_assert_int_eq(hd_dfw_finish(w, 1, &call), 0);

	ck_assert_msg(hd_df_read(p, &df, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(hd_df_meta(df, "test"), "seek");
	ck_assert_str_eq(hd_df_meta(df, "device"), "/dev/sdb");
	ck_assert_str_eq(hd_df_meta(df, "capacity_bytes"), "20576747520");
	ck_assert_str_eq(hd_df_meta(df, "note"), "line break");
	ck_assert_str_eq(hd_df_meta(df, "complete"), "yes");
	ck_assert_str_eq(hd_df_meta(df, "late"), "added after the rows");
	ck_assert_ptr_null(hd_df_meta(df, "absent"));
	ck_assert_uint_eq(df->nrows, 5000);
	ck_assert_uint_eq(df->ncols, 5);
	dist = hd_df_col(df, "distance_bytes");
	lat = hd_df_col(df, "latency_ms");
	cls = hd_df_col(df, "class");
	op = hd_df_col(df, "op");
	ck_assert_int_eq(dist->type, HD_COL_NUM);
	ck_assert_int_eq(cls->type, HD_COL_STR);
	for (int i = 0; i < 5000; i++) {
		ck_assert_double_eq(dist->num[i], (double)(i - 2500) * 4096);
		ck_assert_double_eq_tol(lat->num[i], i / 1000 + (i % 1000) / 1000.0, 1e-9);
		ck_assert_str_eq(hd_df_str(op, i), i % 3 ? "read" : "write");
		ck_assert_str_eq(hd_df_str(cls, i), i % 7 ? "media" : "cache");
	}
	hd_df_free(df);
}
END_TEST

START_TEST(test_incomplete_and_abort)
{
	struct hd_df_writer *w;
	struct hd_df *df;
	const char *call;
	char err[256];
	const char *p = tu_path("partial.tsv");

	ck_assert_int_eq(hd_dfw_open(&w, p, "seek"), 0);
	hd_dfw_columns(w, "a b");
	fprintf(hd_dfw_rows(w), "1\t2\n");
	ck_assert_int_eq(hd_dfw_finish(w, 0, &call), 0);
	ck_assert_msg(hd_df_read(p, &df, err, sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(hd_df_meta(df, "complete"), "no");
	ck_assert_uint_eq(df->nrows, 1);
	hd_df_free(df);

	/* An aborted writer leaves nothing behind, not even a temporary. */
	ck_assert_int_eq(hd_dfw_open(&w, tu_path("gone.tsv"), "seek"), 0);
	hd_dfw_abort(w);
	ck_assert_int_eq(access(tu_path("gone.tsv"), F_OK), -1);
	{
		char cmd[300];
		snprintf(cmd, sizeof(cmd), "test $(ls -A '%s' | wc -l) -eq 1", tu_dir);
		ck_assert_int_eq(system(cmd), 0);
	}
	/* A directory that cannot be written fails at open, before any measuring. */
	w = NULL;
	ck_assert_int_eq(hd_dfw_open(&w, "/nonexistent-dir/x.tsv", "seek"), -ENOENT);
	ck_assert_ptr_null(w);
}
END_TEST

#define HDR "# hddscope-data 1\n# test: seek\n"

struct bad_case {
	const char *what;
	const char *text;
	size_t len;		/* 0: strlen(text) */
	const char *want;	/* expected "FILE:LINE: reason" suffix fragment */
};

static const struct bad_case bad_cases[] = {
	{ "empty file", "", 0, "bad.tsv: empty file" },
	{ "not a data file", "distance\tlatency\n1\t2\n", 0, "bad.tsv:1: not an hddscope data file" },
	{ "wrong version", "# hddscope-data 2\n# test: seek\n# columns: a\n1\n", 0,
	  "bad.tsv:1: unsupported format version 2" },
	{ "sloppy format line", "#hddscope-data 1\n# test: seek\n# columns: a\n1\n", 0,
	  "bad.tsv:1: not an hddscope data file" },
	{ "format line with more", "# hddscope-data 1 x\n# test: seek\n# columns: a\n1\n", 0,
	  "bad.tsv:1: not an hddscope data file" },
	{ "truncated header", HDR "# device: x\n", 0, "bad.tsv:3: truncated header" },
	{ "missing column", HDR "# columns: a b c\n1\t2\t3\n4\t5\n", 0, "bad.tsv:5: 2 fields, expected 3" },
	{ "extra column", HDR "# columns: a b\n1\t2\t3\n", 0, "bad.tsv:4: 3 fields, expected 2" },
	{ "non-numeric", HDR "# columns: a b\n1\t2\n3\tx\n", 0, "bad.tsv:5: column b: not a number: 'x'" },
	{ "non-numeric quantity", HDR "# columns: latency_ms class\nfast\tmedia\n", 0,
	  "bad.tsv:4: column latency_ms: not a number: 'fast'" },
	{ "malformed header", HDR "# just words\n# columns: a\n1\n", 0, "bad.tsv:3: malformed header line" },
	{ "header after columns", HDR "# columns: a\n1\n# late: x\n", 0, "bad.tsv:5: header line after the columns" },
	{ "no test key", "# hddscope-data 1\n# columns: a\n1\n", 0, "bad.tsv: no 'test:' header line" },
	{ "NUL byte", HDR "# columns: a\n1\0\n", sizeof(HDR "# columns: a\n1\0\n") - 1, "bad.tsv:4: NUL byte" },
	{ "empty field", HDR "# columns: a b\n1\t\n", 0, "bad.tsv:4: empty field in column b" },
	{ "no column names", HDR "# columns: \n", 0, "bad.tsv:3: no column names" },
};

START_TEST(test_reject_malformed)
{
	const struct bad_case *c = &bad_cases[_i];
	struct hd_df *df = NULL;
	char err[512];
	const char *p = tu_path("bad.tsv");

	tu_write(p, c->text, c->len ? c->len : strlen(c->text));
	ck_assert_msg(hd_df_read(p, &df, err, sizeof(err)) == -1, "%s: accepted", c->what);
	ck_assert_ptr_null(df);
	ck_assert_msg(strstr(err, c->want) != NULL, "%s: got '%s', want '%s'", c->what, err, c->want);
	ck_assert_msg(strncmp(err, tu_dir, strlen(tu_dir)) == 0, "%s: message does not name the file: %s", c->what, err);
}
END_TEST

START_TEST(test_reject_long_line)
{
	struct hd_df *df = NULL;
	char err[512];
	const char *p = tu_path("long.tsv");
	size_t n = 1 << 20;
	char *text = malloc(n + 64);
	int k = sprintf(text, HDR "# columns: a\n");

	memset(text + k, '7', n);
	text[k + n] = '\n';
	tu_write(p, text, (size_t)k + n + 1);
	ck_assert_int_eq(hd_df_read(p, &df, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "long.tsv:4: line longer than") != NULL, "%s", err);
	free(text);
}
END_TEST

START_TEST(test_missing_file)
{
	struct hd_df *df = NULL;
	char err[512];

	ck_assert_int_eq(hd_df_read("/nonexistent/x.tsv", &df, err, sizeof(err)), -1);
	ck_assert_str_eq(err, "open /nonexistent/x.tsv: No such file or directory");
}
END_TEST

int main(void)
{
	return tu_main("datafile", "datafile", tu_mkdir, tu_rmdir,
		       TU_TESTS(TU_TEST(test_round_trip), TU_TEST(test_incomplete_and_abort),
				TU_LOOP(test_reject_malformed, bad_cases), TU_TEST(test_reject_long_line),
				TU_TEST(test_missing_file)));
}
