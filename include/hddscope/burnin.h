/*
 * The burn-in's figures and its decision: what one round's response data
 * file says of write stability and latency by distance, the SMART
 * counters a burn-in watches, and the verdict over the rounds (drift of
 * the slow-write rate or of write latency, moving SMART counters, I/O
 * errors).  Reads data files only; nothing here prints.
 */
#ifndef HDDSCOPE_BURNIN_H
#define HDDSCOPE_BURNIN_H

#include <stddef.h>
#include <stdint.h>

#include "hddscope/verdict.h"

/* The SMART counters a burn-in watches, in this order. */
enum { HD_BI_REALLOC, HD_BI_PENDING, HD_BI_OFFLINE_UNC, HD_BI_CRC, HD_BI_NCOUNTERS };

/* Their SMART attribute numbers and their names in the summary and the metrics. */
extern const int hd_burnin_counter_attr[HD_BI_NCOUNTERS];
extern const char *const hd_burnin_counter_name[HD_BI_NCOUNTERS];

struct hd_burnin_smart {
	int available;
	int have[HD_BI_NCOUNTERS];	/* the drive reports the counter */
	uint64_t v[HD_BI_NCOUNTERS];
	double temperature_c;		/* NAN when unknown */
	char overall[32];		/* "GOOD", ... or "unknown" */
};

/* Response at one distance in one round. */
struct hd_burnin_dist {
	double dist_bytes;
	uint64_t writes, reads;
	double write_p50_ms, write_p99_ms, read_p50_ms, read_p99_ms;	/* NAN without samples */
};

struct hd_burnin_round {
	unsigned index;			/* 1, 2, ... */
	double start_s, end_s;		/* burn-in time (the device's clock) */
	int complete;			/* the round's data file ran to its end */
	uint64_t writes, slow, reads, errors;
	double slow_rate, slow_lo, slow_hi;	/* fraction of writes slow and its 95% Wilson interval */
	double rev_ms;			/* the revolution slow writes were counted by */
	int rev_assumed;		/* ... 7200 rpm assumed: the file gives no rpm */
	double write_p50_ms, write_p99_ms;	/* medians over distances of 5 writes or more */
	double read_p50_ms, read_p99_ms;
	struct hd_burnin_dist *dist;
	size_t ndist;
	struct hd_burnin_smart smart;	/* the snapshot after the round */
};

/*
 * The figures of one round from its response data file path: writes
 * (media and cache rows), the slow ones (slower than their distance's p10
 * by more than 1.1 revolutions, at the drive's nominal rpm or 7200 rpm
 * where the file has none), p50/p99 by distance, errors.  0, or -1 with
 * the message in err.  r->dist is malloc'd (hd_burnin_round_free).
 */
int hd_burnin_round_read(const char *path, struct hd_burnin_round *r, char *err, size_t errlen);
void hd_burnin_round_free(struct hd_burnin_round *r);

/* The burn-in's rules: the limits of its decision, listed by burnin --help. */
#define HD_BURNIN_NRULES 4
extern struct hd_verdict_rule hd_burnin_rules[HD_BURNIN_NRULES];

/*
 * Judge n rounds (in order) with the SMART snapshot before the first:
 * the slow-write rate of the later half of the rounds against the earlier
 * half (FAIL when their 95% intervals part upwards and the later rate is
 * burnin_slow_drift times the earlier or more, or when the later half is
 * unstable by itself), the median write p99 likewise (FAIL past
 * burnin_p99_drift), every SMART counter that moved (FAIL), I/O errors
 * (FAIL); WARN where SMART is not available or there are fewer than two
 * rounds to compare.
 */
void hd_burnin_judge(const struct hd_burnin_round *r, size_t n, const struct hd_burnin_smart *before,
		     struct hd_verdict *v);

#endif
