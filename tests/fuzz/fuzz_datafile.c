/*
 * Fuzz harness: the data-file reader (hd_df_read), which fit, plot,
 * compare and verdict run on files that may be truncated, edited, or from
 * another version.  The reader takes a path, so each input goes through a
 * scratch file.  A file it accepts must hold what its contract promises:
 * the format line, a "test" key, named columns of one type each, finite
 * numbers, text cells that index their column's dictionary, and no more
 * rows than the input has lines.
 */
#include <math.h>
#include <string.h>

#include "fuzz.h"
#include "hddscope/datafile.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_scratch_file(data, size);
	struct hd_df *df = NULL;
	char err[512] = "";
	size_t lines = 0;

	if (hd_df_read(path, &df, err, sizeof(err)) != 0) {
		/* A refusal names the file. */
		FUZZ_CHECK(strstr(err, path) != NULL);
		return 0;
	}
	FUZZ_CHECK(df != NULL);
	FUZZ_CHECK(memchr(data, '\0', size) == NULL);
	FUZZ_CHECK(hd_df_meta(df, "test") != NULL);
	for (size_t i = 0; i < df->nmeta; i++) {
		FUZZ_CHECK(df->keys[i][0] != '\0');
		FUZZ_CHECK(strchr(df->values[i], '\n') == NULL);
	}
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	/* The format line and the columns line hold no rows. */
	FUZZ_CHECK(df->nrows + 2 <= lines + 1);
	FUZZ_CHECK(df->ncols >= 1);
	for (size_t c = 0; c < df->ncols; c++) {
		const struct hd_df_col *col = &df->cols[c];

		FUZZ_CHECK(col->name[0] != '\0');
		FUZZ_CHECK(hd_df_col(df, col->name) != NULL);
		for (size_t r = 0; r < df->nrows; r++) {
			if (col->type == HD_COL_NUM) {
				FUZZ_CHECK(isfinite(col->num[r]));
			} else {
				const char *s;

				FUZZ_CHECK(col->type == HD_COL_STR);
				FUZZ_CHECK(col->str[r] < col->ndict);
				s = hd_df_str(col, r);
				FUZZ_CHECK(s[0] != '\0' && !strchr(s, '\t'));
			}
		}
		FUZZ_CHECK(col->ndict <= 255);
	}
	hd_df_free(df);
	return 0;
}
