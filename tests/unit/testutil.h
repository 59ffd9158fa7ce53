/*
 * What the unit tests share: a scratch directory and paths in it, whole
 * files written at once, commands run through their argv entry points,
 * data files read back with a failed assertion for anything wrong.
 */
#ifndef HDDSCOPE_TESTUTIL_H
#define HDDSCOPE_TESTUTIL_H

#include <check.h>
#include <stddef.h>

#include "hddscope/datafile.h"

/* The scratch directory of the running test, made by tu_mkdir, removed by tu_rmdir. */
extern char tu_dir[];
void tu_mkdir(void);
void tu_rmdir(void);
/* tu_dir/name, in one of eight buffers used in turn. */
const char *tu_path(const char *name);
/* Write len bytes of text (strlen when len is 0) to path. */
void tu_write(const char *path, const char *text, size_t len);
/* Write the printf-style text to tu_dir/name; its path (tu_path). */
const char *tu_writef(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Run cmd with args (args[0] the command's name, NULL-terminated); its exit code. */
int tu_run(int (*cmd)(int, char **), const char *const *args);
/* The same with the arguments listed, NULL-terminated. */
int tu_runv(int (*cmd)(int, char **), const char *name, ...);

/*
 * Run a probe: cmd with name, the NULL-terminated options, then -q, -o
 * tu_dir/NAME.tsv and the target spec.  Returns the exit code.
 */
int tu_probe(int (*cmd)(int, char **), const char *spec, const char *name, ...);

/* The whole of a file, NUL-terminated (the caller frees it); fails the test when it cannot be read. */
char *tu_slurp(const char *path);
/* Read a data file; fails the test with the reader's message. */
struct hd_df *tu_read(const char *path);
/* A column that must be there. */
const struct hd_df_col *tu_col(const struct hd_df *df, const char *name);
/* Run every test of suite s, free it; EXIT_SUCCESS when none failed. */
int tu_run_suite(Suite *s);

/* One test of a test case: run once (rows < 0), or once per row, _i from 0 to rows - 1. */
struct tu_test {
	const TTest *test;
	int rows;
};
/* The number of rows of a table. */
#define TU_ROWS(table) ((int)(sizeof(table) / sizeof((table)[0])))
#define TU_TEST(t) { (t), -1 }
#define TU_LOOPN(t, n) { (t), (int)(n) }
#define TU_LOOP(t, table) TU_LOOPN(t, TU_ROWS(table))
/* The TU_TEST and TU_LOOP entries given, in their order, for tu_case and tu_main. */
#define TU_TESTS(...) ((const struct tu_test[]){ __VA_ARGS__, { NULL, 0 } })

/*
 * Add test case name to suite s, holding tests (TU_TESTS) with a checked
 * fixture setup/teardown where setup is not NULL; the test case, for
 * timeouts and other fixtures.
 */
TCase *tu_case(Suite *s, const char *name, void (*setup)(void), void (*teardown)(void), const struct tu_test *tests);
/* A unit test's main: suite name of the one test case tcase (as tu_case), run by tu_run_suite. */
int tu_main(const char *name, const char *tcase, void (*setup)(void), void (*teardown)(void),
	    const struct tu_test *tests);

/* The median of n values (sorted in place). */
double tu_median(double *v, size_t n);

#endif
