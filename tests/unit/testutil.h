/*
 * What the unit tests share: a scratch directory and paths in it, whole
 * files written at once, commands run through their argv entry points,
 * data files read back with a failed assertion for anything wrong.
 */
#ifndef HDDSCOPE_TESTUTIL_H
#define HDDSCOPE_TESTUTIL_H

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

/* Run cmd with args (args[0] the command's name, NULL-terminated); its exit code. */
int tu_run(int (*cmd)(int, char **), const char *const *args);
/* The same with the arguments listed, NULL-terminated. */
int tu_runv(int (*cmd)(int, char **), const char *name, ...);

/*
 * Run a probe: cmd with name, the NULL-terminated options, then -q, -o
 * tu_dir/NAME.tsv and the target spec.  Returns the exit code.
 */
int tu_probe(int (*cmd)(int, char **), const char *spec, const char *name, ...);

/* Read a data file; fails the test with the reader's message. */
struct hd_df *tu_read(const char *path);
/* A column that must be there. */
const struct hd_df_col *tu_col(const struct hd_df *df, const char *name);
/* Run every test of suite s, free it; EXIT_SUCCESS when none failed. */
struct Suite;
int tu_run_suite(struct Suite *s);

/* The median of n values (sorted in place). */
double tu_median(double *v, size_t n);

#endif
