/*
 * The probes as entries of a table: each one's options as a struct, its
 * option table (opt.h) and its run.  A probe's command parses argv into
 * that struct; profile fills the same struct directly and runs the probe
 * through the same entry, so both measure exactly the same way.
 */
#ifndef HDDSCOPE_PROBES_H
#define HDDSCOPE_PROBES_H

#include <stddef.h>
#include <stdint.h>

#include "hddscope/opt.h"
#include "hddscope/session.h"

struct hd_probe {
	const char *name;
	const struct hd_cmdspec *spec;	/* its options: table, defaults, help */
	size_t size;			/* of its option struct, which begins with struct hd_common */
	/* Measure with the options o (filled and checked); returns the exit code (msg.h). */
	int (*run)(void *o);
};

/*
 * Run p with its option struct o (defaults from hd_opt_defaults, then any
 * changes).  *drive_ns, when drive_ns is not NULL, receives the backend
 * time the run took.  Returns the exit code.
 */
int hd_probe_run(const struct hd_probe *p, void *o, int64_t *drive_ns);

/* A probe's command: its options from argv, then the run.  Returns the exit code. */
int hd_probe_main(const struct hd_probe *p, int argc, char **argv);

/* --block and the like: a size between one sector and 64 MiB (the sector is checked at run time). */
#define HD_BLOCK_OPTION(name_, type, member, def_, help_)                                     \
	{ .name = name_, .kind = HD_OPT_SIZE, .arg = "SIZE", .off = offsetof(type, member), \
	  .def = def_, .lo = 1, .hi = 64u << 20, .must = "between one sector and 64m", .help = help_ }

struct hd_seek_opts {
	struct hd_common c;
	int op;			/* enum hd_op */
	int have_ref;
	uint64_t ref, range, min, samples, block;
	int log;
	/*
	 * Not an option (profile sets it): samples is the count at 7200 rpm,
	 * taken in proportion to the drive's nominal revolution where the rpm
	 * is known, so that the band edge of a bin, whose noise grows with the
	 * revolution, is as good at 5400 rpm and no better than needed at
	 * 10000.
	 */
	int per_rev;
};

struct hd_response_opts {
	struct hd_common c;
	uint64_t points, reps, block;
	uint64_t write_cap;	/* --write-cap: writes in all while the stability test is undecided (0: the plan's) */
};

struct hd_media_opts {
	struct hd_common c;
	uint64_t max_size, range, reps, ref;
	int have_ref;
};

#define HD_QUEUE_MAX_LIST 32

struct hd_queue_opts {
	struct hd_common c;
	unsigned procs[HD_QUEUE_MAX_LIST];
	size_t nprocs;
	uint64_t block, span;
	int have_span;
	int64_t time_ns;
	int have_time;		/* --time given */
	uint64_t requests;	/* per client; 0: bounded by time_ns */
	const char *scheduler;	/* --scheduler none|keep|NAME */
	int have_scheduler;	/* --scheduler given */
};

struct hd_interval_opts {
	struct hd_common c;
	const char *intervals;	/* --intervals LIST */
	int have_iv;		/* --intervals given */
	double step;		/* --step, shorthand for --intervals 0:20:STEP */
	int have_step;
	uint64_t reps, block, ref;
	int have_ref;
	int op;			/* enum hd_op: HD_OP_WRITE (the default) or HD_OP_READ */
	int64_t *iv;		/* the run's intervals in nanoseconds, as listed (built by the run) */
	size_t niv;
};

struct hd_bench_opts {
	struct hd_common c;
	int64_t time_ns;
	int64_t max_time_ns;	/* --max-time: random writes run on until steady, at most this long */
	int have_max_time;
	uint64_t span, rblock;
};

struct hd_zone_opts {
	struct hd_common c;
	uint64_t points, size, chunk;
};

struct hd_cache_opts {
	struct hd_common c;
	uint64_t block, reps, streams, max_reach, span, even, window_points;
	int64_t idle_ns;
	int have_idle;
};

extern const struct hd_probe hd_probe_cache;

struct hd_layout_opts {
	struct hd_common c;
	uint64_t at, tracks, cylinders, wcylinders, points, refine;
	int have_at;
};

extern const struct hd_probe hd_probe_seek, hd_probe_response, hd_probe_media, hd_probe_queue,
	hd_probe_interval, hd_probe_bench, hd_probe_zone, hd_probe_layout;

#endif
