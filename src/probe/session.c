/*
 * The lifecycle every probe shares, so that all of them open targets,
 * refuse writes, label samples, stop on failures and on Ctrl-C, and keep
 * their data the same way.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hddscope/cli.h"
#include "hddscope/msg.h"
#include "hddscope/fsutil.h"
#include "hddscope/probes.h"
#include "hddscope/session.h"

int hd_interrupt_exit(void)
{
	/* A lease break is not the user's stop: the run failed, someone else wants the file. */
	if (hd_interrupted == SIGIO)
		return HD_EXIT_RUNTIME;
	return HD_EXIT_SIGNAL + (hd_interrupted ? (int)hd_interrupted : SIGINT);
}

const char *const hd_write_cache_words[] = { "on", "off", "keep", NULL };
const int hd_write_cache_values[] = { 1, 0, -1 };

#define C(member) offsetof(struct hd_common, member)

const struct hd_option hd_common_options[] = {
	{ .kind = HD_OPT_TEXT, .name = "Common:\n" },
	{ .name = "write", .kind = HD_OPT_FLAG, .off = C(write_ok), .writes = 1,
	  .help = "allow writes (data-preserving: every block is read\n"
		  "first and the same bytes are written back)" },
	{ .name = "sync", .kind = HD_OPT_FLAG, .off = C(sync), .writes = 1,
	  .help = "a write completes only once it is on the media (O_DSYNC:\n"
		  "FUA or a cache flush): time the mechanics, not the cache" },
	HD_WRITE_CACHE_OPTION(struct hd_common, write_cache,
			      "set the drive's write cache for the run and restore it\n"
			      "afterwards; refuses to start where it cannot be set"),
	{ .name = "allow-idle", .kind = HD_OPT_FLAG, .off = C(allow_idle),
	  .help = "leave the CPUs' idle states alone (by default a PM QoS\n"
		  "request of 0 us keeps them polling while it runs, or where\n"
		  "no cpuidle driver reads it an idle-priority thread spins on\n"
		  "each CPU, so that a CPU's wake-up is not timed as the drive's)" },
	{ .name = "smart-blob", .kind = HD_OPT_FILE, .arg = "FILE", .off = C(smart_blob),
	  .help = "identity and SMART health from saved data (skdump --save,\n"
		  "hddscope smart-save) instead of asking the drive" },
	{ .name = "seed", .kind = HD_OPT_COUNT, .arg = "N", .off = C(seed), .def = HD_DEFAULT_SEED,
	  .help = "random seed; equal seeds give the same offsets and\n"
		  "distances on any device under any load" },
	{ .name = "output", .letter = 'o', .kind = HD_OPT_FILE, .arg = "FILE", .off = C(out), .help = "data file" },
	{ .name = "quiet", .letter = 'q', .kind = HD_OPT_FLAG, .off = C(quiet), .help = "no progress line" },
	{ .name = "help", .letter = 'h', .kind = HD_OPT_HELP, .help = "this help" },
	{ .kind = HD_OPT_TEXT,
	  .name = "\n"
		  "DEVICE is a block device, a regular file or sim:NAME (default " HD_DEFAULT_TARGET ").\n"
		  "SIZE and OFFSET take k, m, g, t suffixes (powers of 1024).\n"
		  "Exit codes: 0 ok, 1 usage, 2 setup (cannot open, refused), 3 runtime failure\n"
		  "(10 consecutive failed accesses), 128 + signal when interrupted by HUP, INT,\n"
		  "QUIT or TERM (129, 130, 131, 143; partial data is kept).\n" },
	{ .kind = HD_OPT_END },
};

int hd_common_operands(struct hd_common *c, int argc, char **argv)
{
	if (argc - optind > 1) {
		hd_err("too many arguments: '%s'", argv[optind + 1]);
		return -1;
	}
	c->device = optind < argc ? argv[optind] : HD_DEFAULT_TARGET;
	return 0;
}

int hd_probe_run(const struct hd_probe *p, void *o, int64_t *drive_ns)
{
	struct hd_common *c = o;
	int64_t ns = 0;
	int ex;

	c->drive_ns = &ns;
	ex = p->run(o);
	c->drive_ns = NULL;
	if (drive_ns)
		*drive_ns = ns;
	return ex;
}

int hd_probe_main(const struct hd_probe *p, int argc, char **argv)
{
	void *o = malloc(p->size);
	int ex;

	if (!o) {
		hd_err("%s: out of memory", p->name);
		return HD_EXIT_SETUP;
	}
	ex = hd_opt_parse(p->spec, o, p->size, argc, argv);
	if (ex == HD_OPT_GO)
		ex = hd_common_operands(o, argc, argv) ? hd_usage_hint(p->name) : hd_probe_run(p, o, NULL);
	free(o);
	return ex;
}

/* The data file would be renamed over the target (under another name, maybe): its bytes would be gone. */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * Set the I/O scheduler c asks for and say in note what was done (the
 * header's scheduler_setting).  Where the target has none to set and none
 * was asked for by name, it runs as it is.  Returns 0, or -1 after printing
 * why nothing is measured.
 */
static int set_scheduler(struct hd_session *s, const struct hd_common *c, char *note, size_t len)
{
	char err[512], was[64];
	int rc = hd_dev_set_scheduler(s->dev, c->scheduler, was, sizeof(was), err, sizeof(err));

	if (rc == -ENOTSUP && !c->scheduler_given) {
		snprintf(note, len, "n/a (the target has no I/O scheduler of its own)");
		return 0;
	}
	if (rc) {
		hd_err("%s; nothing measured", err);
		return -1;
	}
	s->sched_set = 1;
	if (!was[0])
		snprintf(note, len, "%s (no host scheduler: requests reach the drive's queue in the order issued)",
			 c->scheduler);
	else if (strcmp(was, c->scheduler) == 0)
		snprintf(note, len, "%s, as found", c->scheduler);
	else
		snprintf(note, len, "%s for the run (it was %s, put back at the end with its nr_requests)",
			 c->scheduler, was);
	return 0;
}

/* Put back the scheduler set_scheduler changed; a failure is said, not fatal (the data stands). */
static void restore_scheduler(struct hd_session *s)
{
	char err[512];

	if (!s->sched_set)
		return;
	s->sched_set = 0;
	if (hd_dev_restore_scheduler(s->dev, err, sizeof(err)))
		hd_err("%s", err);
}

int hd_session_begin(struct hd_session *s, const char *test, const struct hd_common *c, int writes,
		     const char *default_out)
{
	char err[512], note[200] = "";
	int rc, ex;

	memset(s, 0, sizeof(*s));
	s->idle.fd = -1;
	s->drive_ns = c->drive_ns;
	/* Where the data goes is checked before the target is touched: a refusal costs nothing. */
	rc = hd_out_check_file(c->out ? c->out : default_out);
	if (rc) {
		hd_err("%s: %s", c->out ? c->out : default_out, hd_fs_strerror(rc));
		return HD_EXIT_SETUP;
	}
	/*
	 * Before anything is changed: a Ctrl-C from here on ends the run
	 * through hd_session_end, which puts the write cache back.
	 */
	hd_install_signals();
	if (same_file(c->out ? c->out : default_out, c->device)) {
		hd_err("%s: is the target; refusing to write the data file over it", c->out ? c->out : default_out);
		return HD_EXIT_SETUP;
	}
	s->dev_held = c->dev != NULL;
	if (c->dev)
		s->dev = c->dev;
	else if ((ex = hd_open_target(&s->dev, c->device, writes ? HD_OPEN_WRITE | (c->sync ? HD_OPEN_SYNC : 0) : 0)))
		return ex;
	/* Nothing is measured under a cache setting other than the one asked for. */
	if (hd_cache_set(&s->cache, s->dev, c->write_cache, err, sizeof(err))) {
		hd_err("%s; nothing measured", err);
		if (!s->dev_held)
			hd_dev_close(s->dev);
		return HD_EXIT_SETUP;
	}
	if (c->scheduler && strcmp(c->scheduler, "keep") == 0)
		snprintf(note, sizeof(note), "kept as found (--scheduler keep)");
	else if (c->scheduler && set_scheduler(s, c, note, sizeof(note))) {
		ex = HD_EXIT_SETUP;
		goto fail;
	}
	if (hd_identity_of(s->dev, c->smart_blob, &s->id, err, sizeof(err))) {
		hd_err("%s", err);
		ex = HD_EXIT_SETUP;
		goto fail;
	}
	s->out = strdup(c->out ? c->out : default_out);
	if (!s->out) {
		ex = HD_EXIT_SETUP;
		goto fail;
	}

	rc = hd_dfw_open(&s->w, s->out, test);
	if (rc) {
		hd_err("create %s: %s", s->out, hd_fs_strerror(rc));
		free(s->out);
		s->out = NULL;
		ex = HD_EXIT_SETUP;
		goto fail;
	}
	s->rows = hd_dfw_rows(s->w);
	hd_run_init(&s->run, s->dev, test, c->seed, c->quiet);
	hd_run_header(&s->run, s->w);
	hd_identity_header(s->w, &s->id);
	if (note[0])
		hd_dfw_meta(s->w, "scheduler_setting", "%s", note);
	/* A simulated drive keeps the model's time: no host wake-up lands in it. */
	if (s->dev->kind != HD_DEV_SIM)
		hd_idle_hold(&s->idle, c->allow_idle);
	hd_session_idle_meta(s, s->w);
	if (writes)
		hd_dfw_meta(s->w, "sync_writes", "%s", s->dev->sync ? "yes" : "no");
	s->dev_t0_ns = hd_dev_now(s->dev);
	return 0;
fail:
	restore_scheduler(s);
	if (hd_cache_restore(&s->cache, err, sizeof(err)))
		hd_err("%s", err);
	hd_identity_free(&s->id);
	if (!s->dev_held)
		hd_dev_close(s->dev);
	return ex;
}

void hd_session_idle_meta(const struct hd_session *s, struct hd_df_writer *w)
{
	char note[200];

	if (s->dev->kind == HD_DEV_SIM)
		snprintf(note, sizeof(note), "n/a (a simulated drive's times are the model's)");
	else
		hd_idle_note(&s->idle, note, sizeof(note));
	hd_dfw_meta(w, "cpu_idle", "%s", note);
}

/* Put the write cache and the scheduler back and let go of the device. */
static void session_close(struct hd_session *s)
{
	char err[512];

	hd_idle_release(&s->idle);
	restore_scheduler(s);
	if (hd_cache_restore(&s->cache, err, sizeof(err)))
		hd_err("%s", err);
	hd_identity_free(&s->id);
	if (!s->dev_held)
		hd_dev_close(s->dev);
	s->dev = NULL;
	free(s->out);
	s->out = NULL;
}

int hd_session_sample(struct hd_session *s, int rc, enum hd_op op, uint64_t off, int64_t lat_ns,
		      enum hd_class *cls)
{
	int fatal = hd_run_account(&s->run, rc, op, off);

	*cls = hd_run_classify(&s->run, rc, op, lat_ns);
	s->nrows++;
	s->nunknown += *cls == HD_CLASS_UNKNOWN;
	s->nmedia += *cls == HD_CLASS_MEDIA;
	s->ncache += *cls == HD_CLASS_CACHE;
	s->nerror += *cls == HD_CLASS_ERROR;
	if (fatal)
		s->fatal = 1;
	return fatal;
}

void hd_session_relabel(struct hd_session *s, enum hd_class *cls, enum hd_class to)
{
	uint64_t *n[] = { &s->nmedia, &s->ncache, &s->nerror, &s->nunknown };

	(*n[*cls])--;
	(*n[to])++;
	*cls = to;
}

int hd_session_aimed(struct hd_session *s, const struct hd_aim *aim, enum hd_op op, int64_t dist, void *buf,
		     void *wbuf, size_t len, int row_has_ref)
{
	uint64_t ref = 0, target = 0;
	int64_t lat = 0;
	enum hd_op row_op = op;
	enum hd_class cls;
	/* Drawn before anything else, whatever happens next: the plan stays the seed's. */
	double phase = hd_rng_uniform(&s->run.rng);
	int64_t delay = 0, w0 = -1, w1 = -1;
	int rc = hd_position(&s->run, aim, buf, len, &ref, &target, &row_op, &lat);

	if (hd_interrupted)
		return -EINTR;
	if (rc) {
		dist = (int64_t)target - (int64_t)ref;
	} else {
		int64_t t0 = hd_dev_now(s->dev);

		target = (uint64_t)((int64_t)ref + dist);
		/* The row gives the delay as it happened: a sleep may overrun. */
		if ((uint64_t)(dist < 0 ? -dist : dist) > s->phase_locked_to)
			hd_dev_idle(s->dev, (int64_t)(phase * (double)s->phase_rev_ns));
		delay = hd_dev_now(s->dev) - t0;
		if (hd_interrupted)
			return -EINTR;
		w0 = hd_dev_host_wait(s->dev);
		rc = hd_dev_timed(s->dev, op, op == HD_OP_WRITE ? wbuf : buf, len, target, &lat);
		w1 = hd_dev_host_wait(s->dev);
		if (rc == -EINTR && hd_interrupted)
			return -EINTR;
	}
	hd_session_sample(s, rc, row_op, target, lat, &cls);
	if (!rc && w0 >= 0 && w1 - w0 > HD_HOST_LATE_NS && cls != HD_CLASS_UNKNOWN) {
		hd_session_relabel(s, &cls, HD_CLASS_UNKNOWN);
		s->host_late++;
	}
	/* A sample whose reference could not be read from the media started from an unknown place. */
	if (!rc && s->run.unplaced && cls == HD_CLASS_MEDIA)
		hd_session_relabel(s, &cls, HD_CLASS_UNKNOWN);
	s->last_lat_ns = lat;
	s->last_cls = cls;
	fprintf(s->rows, "%" PRId64 "\t%" PRIu64 "\t", dist, row_has_ref ? ref : target);
	hd_put_ms(s->rows, lat);
	fprintf(s->rows, "\t%s\t%s\t", hd_op_name(row_op), hd_class_name(cls));
	hd_put_ms(s->rows, delay);
	fputc('\n', s->rows);
	return 0;
}

int hd_session_stop(const struct hd_session *s)
{
	return s->fatal || hd_interrupted;
}

void hd_session_calibrate(struct hd_session *s, void *buf, size_t len)
{
	int rc = hd_calibrate_cache(&s->run, buf, len);

	if (rc == -EIO)
		s->fatal = 1;
	s->run.consec_errors = 0;
	if (s->run.cache_threshold_ns >= 0)
		hd_dfw_meta(s->w, "cache_threshold_ms", "%.6f", (double)s->run.cache_threshold_ns / 1e6);
	else
		hd_dfw_meta(s->w, "cache_threshold_ms", "none");
	hd_dfw_meta(s->w, "calibration", "hit_p50_ms=%.6f media_p50_ms=%.6f",
		    (double)s->run.cal_hit_p50_ns / 1e6, (double)s->run.cal_media_p50_ns / 1e6);
}

void hd_session_calibrate_writes(struct hd_session *s, void *buf, size_t len)
{
	int rc = hd_calibrate_writes(&s->run, buf, len);

	if (rc == -EIO)
		s->fatal = 1;
	s->run.consec_errors = 0;
	if (s->run.wcache_threshold_ns >= 0)
		hd_dfw_meta(s->w, "write_cache_threshold_ms", "%.6f", (double)s->run.wcache_threshold_ns / 1e6);
	else
		hd_dfw_meta(s->w, "write_cache_threshold_ms", "none");
	if (s->run.cal_wfua_p50_ns >= 0)
		hd_dfw_meta(s->w, "write_calibration", "repeat_write_p50_ms=%.6f fua_write_p50_ms=%.6f writes_cached=%s",
			    (double)s->run.cal_wrepeat_p50_ns / 1e6, (double)s->run.cal_wfua_p50_ns / 1e6,
			    s->run.wcache_threshold_ns >= 0 ? "yes" : "no");
	else
		hd_dfw_meta(s->w, "write_calibration", "repeat_write_p50_ms=%.6f fua_write_p50_ms=none writes_cached=%s",
			    (double)s->run.cal_wrepeat_p50_ns / 1e6, s->run.wcache_threshold_ns >= 0 ? "yes" : "no");
}

/*
 * Why a host-side delay rather than a shifted target: the platter keeps
 * turning while the host waits, so a delay drawn uniformly over one
 * revolution makes the target's angle under the head, when the timed
 * access starts, uniform whatever the distance, on a real drive as on the
 * simulated one, and leaves the distance exactly what the plan drew.  A
 * target moved within a track would need the track's size (unknown before
 * a profile, different in every zone) and would change the distance.  The
 * price is half a revolution per sample on average.
 */
void hd_session_phase(struct hd_session *s, uint64_t locked_to)
{
	int rpm = s->id.rpm_nominal;
	char span[160], locked[200] = "";

	s->phase_locked_to = locked_to;
	if (rpm == 1 || s->dev->rotational == 0) {
		s->phase_rev_ns = 0;
		hd_dfw_meta(s->w, "phase", "not randomised (the device says it does not rotate: no rotational phase)");
		return;
	}
	s->phase_rev_ns = rpm > 1 ? (int64_t)(60e9 / rpm + 0.5) : HD_PHASE_REV_UNKNOWN_NS;
	if (rpm > 1)
		snprintf(span, sizeof(span), "one revolution at the drive's nominal %d rpm", rpm);
	else
		snprintf(span, sizeof(span), "the rpm being unknown, one revolution at 3600 rpm; at a faster speed the "
			 "phase is uniform only where that is a whole number of revolutions");
	if (locked_to)
		snprintf(locked, sizeof(locked), "; none at distances up to %llu bytes, which follow the reference at "
			 "once to time the rotation from a known phase", (unsigned long long)locked_to);
	hd_dfw_meta(s->w, "phase", "host delay uniform in [0, %.6f) ms between the reference access and the timed "
		    "one (%s)%s; each row gives its delay", (double)s->phase_rev_ns / 1e6, span, locked);
}

void hd_session_abort(struct hd_session *s)
{
	hd_dfw_abort(s->w);
	s->w = NULL;
	session_close(s);
}

const char *hd_signal_name(int sig)
{
	switch (sig) {
	case SIGHUP: return "SIGHUP";
	case SIGINT: return "SIGINT";
	case SIGQUIT: return "SIGQUIT";
	case SIGTERM: return "SIGTERM";
	case SIGIO: return "SIGIO";
	}
	return "a signal";
}

/*
 * What an interruption left.  The total is the number of samples the run
 * was to take; a run bounded by time has none to give (its progress counts
 * milliseconds, or steps, not samples).
 */
static void say_interrupted(const struct hd_session *s)
{
	uint64_t planned = s->timed ? s->planned : s->run.total;
	char of[32] = "";

	if (planned)
		snprintf(of, sizeof(of), " of %" PRIu64, planned);
	if (hd_interrupted == SIGIO)
		hd_err("%s: opened for writing by another process; stopped: %" PRIu64 "%s samples kept in %s "
		       "(complete: no)", s->dev->path, s->nrows, of, s->out);
	else
		hd_err("interrupted by %s: %" PRIu64 "%s samples kept in %s (complete: no)",
		       hd_signal_name(hd_interrupted), s->nrows, of, s->out);
}

int hd_session_end(struct hd_session *s, const char *columns, int ran_to_end)
{
	const char *call;
	int64_t dev_ns = hd_dev_now(s->dev) - s->dev_t0_ns;
	int complete = ran_to_end && !s->fatal && !hd_interrupted, rc, ex = HD_EXIT_OK;

	hd_run_progress_end(&s->run);
	if (s->drive_ns)
		*s->drive_ns += dev_ns;
	hd_dfw_meta(s->w, "drive_time_ms", "%.3f", (double)dev_ns / 1e6);
	hd_dfw_meta(s->w, "samples", "%" PRIu64, s->nrows);
	hd_dfw_meta(s->w, "samples_media", "%" PRIu64, s->nmedia);
	hd_dfw_meta(s->w, "samples_cache", "%" PRIu64, s->ncache);
	hd_dfw_meta(s->w, "samples_error", "%" PRIu64, s->nerror);
	if (s->run.wcal || s->nunknown)
		hd_dfw_meta(s->w, "samples_unknown", "%" PRIu64, s->nunknown);
	if (hd_dev_host_wait(s->dev) >= 0)
		hd_dfw_meta(s->w, "host_late",
			    "%" PRIu64 " samples taken again, %" PRIu64 " labelled unknown: the host kept an access "
			    "waiting for a CPU over %d us while it was timed",
			    s->host_retaken, s->host_late, HD_HOST_LATE_NS / 1000);
	hd_dfw_columns(s->w, columns);
	rc = hd_dfw_finish(s->w, complete, &call);
	s->w = NULL;
	if (rc) {
		hd_err("%s %s: %s", call, s->out, hd_fs_strerror(rc));
		ex = HD_EXIT_RUNTIME;
	} else if (s->fatal) {
		hd_err_access(s->dev, s->run.last_err_op, s->run.last_err_off, s->run.last_err);
		hd_err("%s: stopped after %d consecutive failed accesses; %" PRIu64 " samples kept in %s",
		       s->dev->path, HD_MAX_CONSEC_ERRORS, s->nrows, s->out);
		ex = HD_EXIT_RUNTIME;
	} else if (hd_interrupted) {
		say_interrupted(s);
		ex = hd_interrupt_exit();
	} else if (!s->run.quiet) {
		char unknown[48] = "";

		if (s->nunknown)
			snprintf(unknown, sizeof(unknown), ", %" PRIu64 " unknown", s->nunknown);
		fprintf(stderr, "%s: %" PRIu64 " samples (%" PRIu64 " media, %" PRIu64 " cache, %" PRIu64
			" error%s) -> %s\n", s->run.test, s->nrows, s->nmedia, s->ncache, s->nerror, unknown, s->out);
	}
	session_close(s);
	return ex;
}
