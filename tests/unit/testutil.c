/* The unit tests' shared helpers (testutil.h). */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/stats.h"
#include "testutil.h"

char tu_dir[64];

void tu_mkdir(void)
{
	/* In memory where there is room for it: the tests write many small files. */
	snprintf(tu_dir, sizeof(tu_dir), "%s/hddscope-test-XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tu_dir));
}

void tu_rmdir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tu_dir);
	ck_assert_int_eq(system(cmd), 0);
}

const char *tu_path(const char *name)
{
	static char p[8][512];
	static int k;

	k = (k + 1) % 8;
	snprintf(p[k], sizeof(p[k]), "%s/%s", tu_dir, name);
	return p[k];
}

void tu_write(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	ck_assert_msg(f != NULL, "cannot create %s", path);
	if (!len)
		len = strlen(text);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

const char *tu_writef(const char *name, const char *fmt, ...)
{
	const char *p = tu_path(name);
	FILE *f = fopen(p, "w");
	va_list ap;

	ck_assert_msg(f != NULL, "cannot create %s", p);
	va_start(ap, fmt);
	ck_assert_int_ge(vfprintf(f, fmt, ap), 0);
	va_end(ap);
	ck_assert_int_eq(fclose(f), 0);
	return p;
}

int tu_run(int (*cmd)(int, char **), const char *const *args)
{
	char *argv[64];
	int argc = 0;

	while (args[argc]) {
		ck_assert_int_lt(argc, 63);
		argv[argc] = (char *)args[argc];
		argc++;
	}
	argv[argc] = NULL;
	return cmd(argc, argv);
}

/* args[0] = name, then the NULL-terminated list ap; room is left for extra more. */
static int collect(const char **args, const char *name, va_list ap, int extra)
{
	int n = 0;

	args[n++] = name;
	while ((args[n] = va_arg(ap, const char *)) != NULL) {
		n++;
		ck_assert_int_lt(n, 63 - extra);
	}
	return n;
}

int tu_runv(int (*cmd)(int, char **), const char *name, ...)
{
	const char *args[64];
	va_list ap;

	va_start(ap, name);
	collect(args, name, ap, 0);
	va_end(ap);
	return tu_run(cmd, args);
}

int tu_probe(int (*cmd)(int, char **), const char *spec, const char *name, ...)
{
	const char *args[64];
	char out[600];
	va_list ap;
	int n;

	va_start(ap, name);
	n = collect(args, name, ap, 4);
	va_end(ap);
	snprintf(out, sizeof(out), "%s/%s.tsv", tu_dir, name);
	args[n++] = "-q";
	args[n++] = "-o";
	args[n++] = out;
	args[n++] = spec;
	args[n] = NULL;
	return tu_run(cmd, args);
}

char *tu_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	ck_assert_msg(f != NULL, "open %s", path);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_ge(n, 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

struct hd_df *tu_read(const char *path)
{
	struct hd_df *df;
	char err[600];

	if (hd_df_read(path, &df, err, sizeof(err)))
		ck_abort_msg("%s", err);
	return df;
}

const struct hd_df_col *tu_col(const struct hd_df *df, const char *name)
{
	const struct hd_df_col *c = hd_df_col(df, name);

	ck_assert_msg(c != NULL, "%s: no column %s", df->path, name);
	return c;
}

int tu_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

TCase *tu_case(Suite *s, const char *name, void (*setup)(void), void (*teardown)(void), const struct tu_test *tests)
{
	TCase *tc = tcase_create(name);

	if (setup)
		tcase_add_checked_fixture(tc, setup, teardown);
	for (; tests->test; tests++) {
		if (tests->rows >= 0)
			tcase_add_loop_test(tc, tests->test, 0, tests->rows);
		else
			tcase_add_test(tc, tests->test);
	}
	suite_add_tcase(s, tc);
	return tc;
}

int tu_main(const char *name, const char *tcase, void (*setup)(void), void (*teardown)(void),
	    const struct tu_test *tests)
{
	Suite *s = suite_create(name);

	tu_case(s, tcase, setup, teardown, tests);
	return tu_run_suite(s);
}

double tu_median(double *v, size_t n)
{
	hd_sort_doubles(v, n);
	return hd_percentile_sorted(v, n, 50);
}
