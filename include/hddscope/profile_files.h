/*
 * The data files of a profile directory, named once: profile writes them
 * (one probe step each, the queue probe two files), compare and verdict
 * read them.  Each user keeps its own attributes in a table indexed by
 * enum hd_profile_file_id.
 */
#ifndef HDDSCOPE_PROFILE_FILES_H
#define HDDSCOPE_PROFILE_FILES_H

/* In the order profile runs the probes and verdict reads the files. */
enum hd_profile_file_id {
	HD_PF_SEEK_READ,
	HD_PF_SEEK_WRITE,
	HD_PF_RESPONSE,
	HD_PF_MEDIA,
	HD_PF_QUEUE_REQUESTS,
	HD_PF_QUEUE,
	HD_PF_INTERVAL,
	HD_PF_BENCH,
	HD_PF_ZONE,
	HD_PF_INTERVAL_READ,
	HD_PF_CACHE,
	HD_PF_LAYOUT,
	HD_PF_COUNT
};

/* A step of its own in profile (queue-requests.tsv comes with queue.tsv). */
#define HD_PF_STEP 1u
/* One row per small access taken one at a time, with latency_ms: where a stall shows. */
#define HD_PF_ACCESSES 2u

struct hd_profile_file {
	const char *name;	/* DIR/<name>.tsv */
	const char *test;	/* its "test:" header */
	unsigned flags;		/* HD_PF_STEP, HD_PF_ACCESSES */
};

extern const struct hd_profile_file hd_profile_files[HD_PF_COUNT];

#endif
