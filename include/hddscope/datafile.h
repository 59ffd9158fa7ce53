/*
 * Data files (hddscope(1), DATA FILES): a "# hddscope-data 1" line, "# key: value"
 * metadata, a "# columns: ..." line, then tab-separated rows.  Writing goes
 * to a temporary name beside the final one and is renamed on finish, so a
 * crash never leaves a half-written file under the final name.
 */
#ifndef HDDSCOPE_DATAFILE_H
#define HDDSCOPE_DATAFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define HD_DF_FORMAT 1

/* ---- writer ---- */

struct hd_df_writer;

/*
 * Start a data file that will end up at path.  The "test" key is written
 * first.  Returns 0 or -errno (the temporary file could not be created).
 */
int hd_dfw_open(struct hd_df_writer **w, const char *path, const char *test);
/* Add a metadata line; keys are [a-z0-9_]+, values one line. Order is kept. */
void hd_dfw_meta(struct hd_df_writer *w, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Set the columns (space-separated names). */
void hd_dfw_columns(struct hd_df_writer *w, const char *names);
/* The stream rows go to: fields separated by '\t', rows ended by '\n'. */
FILE *hd_dfw_rows(struct hd_df_writer *w);
/*
 * Write header ("complete: yes|no" last before the columns) and rows under
 * the final name and free w.  Returns 0 or -errno; *errcall names the
 * failing call.  hd_dfw_abort() frees w and leaves nothing behind.
 */
int hd_dfw_finish(struct hd_df_writer *w, int complete, const char **errcall);
void hd_dfw_abort(struct hd_df_writer *w);

/* ---- reader ---- */

enum hd_col_type { HD_COL_NUM, HD_COL_STR };

struct hd_df_col {
	char *name;
	enum hd_col_type type;
	double *num;		/* nrows values, HD_COL_NUM */
	uint8_t *str;		/* nrows indexes into dict, HD_COL_STR */
	char **dict;		/* distinct strings of the column */
	size_t ndict;
};

struct hd_df {
	char *path;
	char **keys, **values;	/* metadata, in file order */
	size_t nmeta;
	struct hd_df_col *cols;
	size_t ncols;
	size_t nrows;
};

/*
 * Read a data file.  Returns 0, or -1 with "FILE:LINE: reason" in err
 * (-errno style reasons for I/O).  A column is numeric when its name says
 * it holds a quantity (a unit suffix such as _bytes or _ms, or a count such
 * as iops) or its first row parses as a number; every row must agree.  At most 255 distinct
 * strings per text column.
 */
int hd_df_read(const char *path, struct hd_df **out, char *err, size_t errlen);
void hd_df_free(struct hd_df *df);
/* The value of a metadata key, or NULL. */
const char *hd_df_meta(const struct hd_df *df, const char *key);
/* The column called name, or NULL. */
const struct hd_df_col *hd_df_col(const struct hd_df *df, const char *name);
/* The string in row i of a text column. */
const char *hd_df_str(const struct hd_df_col *c, size_t i);

/* A latency in a row: milliseconds with nanosecond digits, "-" first when negative. */
void hd_put_ms(FILE *f, int64_t ns);

#endif
