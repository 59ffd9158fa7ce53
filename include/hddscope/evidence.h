/* Facts read back from data files for verdicts and summaries. */
#ifndef HDDSCOPE_EVIDENCE_H
#define HDDSCOPE_EVIDENCE_H

#include <stddef.h>
#include <stdint.h>

#include "hddscope/datafile.h"

/*
 * The byte offsets of the failed accesses a data file records, in file
 * order: its offset_bytes column, else start_bytes + distance_bytes, else
 * reference_bytes + distance_bytes.  Stores up to max of them in out and
 * returns how many error rows name an offset.
 */
size_t hd_evidence_error_offsets(const struct hd_df *df, double *out, size_t max);

/*
 * The failed accesses a data file records: its rows of class "error" where
 * it has a class column (whatever its samples_error header says), else its
 * samples_error header, the only record a file of sums (bench, zone, queue)
 * keeps of them.
 */
uint64_t hd_evidence_error_count(const struct hd_df *df);

#endif
