/*
 * Reading facts back out of data files.  Each probe records a failed access
 * in its own columns; this is the one place that knows how to turn any of
 * them into the offset that failed.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/evidence.h"
#include "hddscope/util.h"

size_t hd_evidence_error_offsets(const struct hd_df *df, double *out, size_t max)
{
	const struct hd_df_col *cls = hd_df_col(df, "class"), *off = hd_df_col(df, "offset_bytes");
	const struct hd_df_col *dist = hd_df_col(df, "distance_bytes"), *start = hd_df_col(df, "start_bytes");
	const char *r = hd_df_meta(df, "reference_bytes");
	double ref = r ? atof(r) : NAN;
	size_t n = 0;

	if (!cls || cls->type != HD_COL_STR)
		return 0;
	if (off && off->type != HD_COL_NUM)
		off = NULL;
	for (size_t i = 0; i < df->nrows; i++) {
		double at = NAN;

		if (strcmp(hd_df_str(cls, i), "error") != 0)
			continue;
		if (off)
			at = off->num[i];
		else if (start && dist)
			at = start->num[i] + dist->num[i];
		else if (dist && !isnan(ref))
			at = ref + dist->num[i];
		if (isnan(at))
			continue;
		if (n < max)
			out[n] = at;
		n++;
	}
	return n;
}

uint64_t hd_evidence_error_count(const struct hd_df *df)
{
	const struct hd_df_col *cls = hd_df_col(df, "class");
	const char *m;
	uint64_t n = 0;

	/* Rows are what was measured; a header line is only what the file says of them. */
	if (cls && cls->type == HD_COL_STR) {
		for (size_t i = 0; i < df->nrows; i++)
			n += strcmp(hd_df_str(cls, i), "error") == 0;
		return n;
	}
	m = hd_df_meta(df, "samples_error");
	return m && hd_parse_u64(m, &n) == 0 ? n : 0;
}
