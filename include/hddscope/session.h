/*
 * A probe run from start to end: the options every probe shares, opening
 * the target, the data file with its common header, sample accounting, and
 * the ending (data file finished complete or not, outcome printed, exit
 * code chosen).  A probe supplies its request pattern and its columns.
 */
#ifndef HDDSCOPE_SESSION_H
#define HDDSCOPE_SESSION_H

#include <stdint.h>
#include <stdio.h>

#include "hddscope/cpuidle.h"
#include "hddscope/cachectl.h"
#include "hddscope/identity.h"
#include "hddscope/opt.h"
#include "hddscope/probe.h"

/* The default --seed, as an argument is written. */
#define HD_DEFAULT_SEED "1"

/* The options every probe shares. */
struct hd_common {
	const char *device;
	const char *out;
	uint64_t seed;
	int quiet;
	int write_ok;
	int write_cache;	/* --write-cache: -1 keep, 0 off, 1 on */
	const char *smart_blob;	/* --smart-blob FILE */
	int sync;		/* --sync: writes complete only on the media */
	int allow_idle;		/* --allow-idle: the CPUs' idle states left alone (cpuidle.h) */
	/* Not an option: where the session adds the backend time it took (NULL: nowhere). */
	int64_t *drive_ns;
	/*
	 * Not an option: a device already open (for writing when the run
	 * writes) that the session uses instead of opening device, and leaves
	 * open: burnin holds its drive, and the simulated drive's clock, from
	 * round to round.  NULL: the session opens device.
	 */
	struct hd_dev *dev;
	/*
	 * Not a common option (queue's --scheduler): the I/O scheduler for the
	 * run, "keep" or NULL to touch nothing; with scheduler_given 0, a
	 * target that has no scheduler to set runs as it is.
	 */
	const char *scheduler;
	int scheduler_given;
};

/* The rows of the options every probe shares (opt.h), relative to struct hd_common. */
extern const struct hd_option hd_common_options[];

/* --write-cache on|off|keep into an int: 1, 0, -1 (keep, the default). */
extern const char *const hd_write_cache_words[];
extern const int hd_write_cache_values[];
#define HD_WRITE_CACHE_OPTION(type, member, help_)                                                  \
	{ .name = "write-cache", .kind = HD_OPT_ENUM, .off = offsetof(type, member),              \
	  .words = hd_write_cache_words, .values = hd_write_cache_values, .def = "keep", .help = help_ }

/* Take the optional DEVICE operand; -1 (printed) on extra operands. */
int hd_common_operands(struct hd_common *c, int argc, char **argv);

/*
 * A timed access the host kept waiting for a CPU longer than this (its
 * completion seen late, or the access issued late: the thread's run-queue
 * wait over it, hd_dev_host_wait) timed the host as much as the drive, and
 * its sample is labelled unknown.  On a quiet host the wait is a few
 * microseconds; a busy one (CPUs taken, a kernel without preemption) adds
 * milliseconds now and then.
 */
#define HD_HOST_LATE_NS 50000

struct hd_session {
	struct hd_run run;
	struct hd_dev *dev;
	struct hd_df_writer *w;
	FILE *rows;
	char *out;
	struct hd_cachectl cache;	/* the write cache setting to restore */
	int sched_set;		/* the scheduler was set through the backend: restore it */
	int dev_held;		/* dev is hd_common's: the caller closes it */
	struct hd_idle_hold idle;	/* the CPUs held out of their idle states while it runs */
	struct hd_identity id;		/* identity, health and caches in effect */
	int fatal;		/* stopped by HD_MAX_CONSEC_ERRORS failures */
	int timed;		/* bounded by time: run.total counts progress, not samples */
	uint64_t planned;	/* with timed: the samples planned where known, else 0 */
	int64_t dev_t0_ns;	/* backend clock at the start */
	int64_t *drive_ns;	/* hd_common's: the backend time is added there at the end */
	uint64_t nrows, nmedia, ncache, nerror, nunknown;
	/* Samples the host kept waiting (HD_HOST_LATE_NS): taken again, and left late (labelled unknown). */
	uint64_t host_retaken, host_late;
	int64_t phase_rev_ns;	/* hd_session_aimed waits U(0, this) before the timed access */
	int64_t last_lat_ns;	/* hd_session_aimed's last row: its latency and class */
	enum hd_class last_cls;
	uint64_t phase_locked_to;	/* ... where |distance| exceeds this */
};

/* The header's cpu_idle line (the session's idle hold, or n/a on a simulated drive) into w. */
void hd_session_idle_meta(const struct hd_session *s, struct hd_df_writer *w);

/* The phase delay's span where the rpm is unknown: one revolution at 3600 rpm. */
#define HD_PHASE_REV_UNKNOWN_NS 16666667

/*
 * Open c->device (for writing when writes), set the write cache and the
 * I/O scheduler as asked (refusing to start where they cannot be set; both
 * are put back on every way out), learn the drive's identity,
 * start the data file c->out or default_out with the common header,
 * install the signal handlers.  Returns 0 or the exit code (after printing
 * why).
 */
int hd_session_begin(struct hd_session *s, const char *test, const struct hd_common *c, int writes,
		     const char *default_out);

/*
 * Account one row's access; *cls receives its class.  Returns 1 when the
 * run must stop (HD_MAX_CONSEC_ERRORS failures in a row).
 */
int hd_session_sample(struct hd_session *s, int rc, enum hd_op op, uint64_t off, int64_t lat_ns,
		      enum hd_class *cls);
/* The sample just counted is of class to after all (*cls becomes to): the counts follow. */
void hd_session_relabel(struct hd_session *s, enum hd_class *cls, enum hd_class to);

/*
 * One positioned sample, the pattern of seek and response: position with
 * aim (a media read at a reference), wait a random fraction (drawn from
 * the plan stream) of the span hd_session_phase chose, then time op at reference + dist
 * (from wbuf for a write, into buf for a read), account it and write its
 * row "distance, reference or target offset, latency, op, class, delay"
 * (the phase delay before the timed access; 0 when it was not reached).  A row
 * is always one access: the timed one, or the access that failed on the
 * way to it, whose offset then gives the distance.  Returns 0, or -EINTR
 * when the run was interrupted before a row was written.
 */
int hd_session_aimed(struct hd_session *s, const struct hd_aim *aim, enum hd_op op, int64_t dist, void *buf,
		     void *wbuf, size_t len, int row_has_ref);

/* True when the sampling loop must end (interrupted or too many failures). */
int hd_session_stop(const struct hd_session *s);

/* Calibrate the cache-hit threshold (see hd_calibrate_cache); sets fatal. */
void hd_session_calibrate(struct hd_session *s, void *buf, size_t len);

/*
 * After hd_session_calibrate, in a run that times writes: calibrate their
 * labels (see hd_calibrate_writes), write write_cache_threshold_ms and
 * write_calibration; the file then carries samples_unknown.  Sets fatal.
 */
void hd_session_calibrate_writes(struct hd_session *s, void *buf, size_t len);

/*
 * Choose the span of hd_session_aimed's phase delay (one revolution at the
 * drive's nominal rpm; HD_PHASE_REV_UNKNOWN_NS where the rpm is unknown;
 * none on a non-rotating device) and say in the header how the phase is
 * randomised (meta key phase).  Samples at distances up to locked_to bytes
 * get no delay: they time the rotation from the reference's phase.
 * Without it there is no delay.
 */
void hd_session_phase(struct hd_session *s, uint64_t locked_to);

/*
 * Write the closing header lines and the columns, finish the data file
 * (complete when the loop ran to its end: not interrupted, not fatal),
 * restore the write cache, print the outcome, close the device.  Returns
 * the exit code.
 */
int hd_session_end(struct hd_session *s, const char *columns, int ran_to_end);

/* Abort before any sample: drop the data file, restore the write cache and scheduler, close the device. */
void hd_session_abort(struct hd_session *s);


/* "SIGHUP" and the like, for the signals that end a run. */
const char *hd_signal_name(int sig);

/*
 * The exit code of an interrupted run: 128 + the signal (hd_interrupted),
 * or HD_EXIT_RUNTIME when the run stopped for another process (SIGIO).
 */
int hd_interrupt_exit(void);

#endif
