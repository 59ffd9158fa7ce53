/*
 * hddscope burnin: qualify drives over hours.  One process per device
 * (drives are independent); each runs rounds of the response probe with
 * synced, data-preserving writes over the whole stroke (the same probe,
 * through its table entry, as everywhere else), holding its device open
 * from round to round, and takes a SMART snapshot before the first round
 * and after every one.  Each round's data file and the device's
 * device.json are written as the round finishes, so an interrupted run
 * keeps every finished round and --resume goes on from there.  At the end
 * the rounds are judged (burnin.c) and the result directory gets
 * burnin.json, and --prom its metrics.  On a simulated drive the rounds
 * run on its virtual clock.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hddscope/cli.h"
#include "hddscope/cmd.h"
#include "hddscope/dev.h"
#include "hddscope/fsutil.h"
#include "hddscope/identity.h"
#include "hddscope/msg.h"
#include "hddscope/opt.h"
#include "hddscope/probe.h"
#include "hddscope/probes.h"
#include "hddscope/session.h"
#include "hddscope/util.h"
#include "burnin_local.h"

struct burnin_opts {
	int write_ok, quiet;
	double hours, minutes;
	int have_hours, have_minutes;
	int64_t every_ns;
	int have_every;
	const char *out, *resume, *prom;
	uint64_t points, reps, seed, rounds;
	int have_points, have_reps, have_seed, have_rounds;
};

#define O(m) offsetof(struct burnin_opts, m)

static const struct hd_option burnin_options[] = {
	{ .name = "write", .kind = HD_OPT_FLAG, .off = O(write_ok),
	  .help = "allow the writes (data-preserving: every block is read\n"
		  "first and the same bytes are written back); required" },
	{ .name = "hours", .kind = HD_OPT_DOUBLE, .arg = "H", .off = O(hours), .dlo = 0.0001, .dhi = 10000,
	  .given = HD_OPT_GIVEN(struct burnin_opts, have_hours), .shown = "1",
	  .help = "how long: rounds start until H hours have passed" },
	{ .name = "minutes", .kind = HD_OPT_DOUBLE, .arg = "M", .off = O(minutes), .dlo = 0.001, .dhi = 600000,
	  .given = HD_OPT_GIVEN(struct burnin_opts, have_minutes), .help = "the same in minutes" },
	{ .name = "rounds", .kind = HD_OPT_COUNT, .arg = "N", .off = O(rounds), .hi = 1000000, .shown = "0: no limit",
	  .given = HD_OPT_GIVEN(struct burnin_opts, have_rounds), .help = "at most N rounds, however short the time" },
	{ .name = "every", .kind = HD_OPT_DURATION, .arg = "TIME", .off = O(every_ns),
	  .given = HD_OPT_GIVEN(struct burnin_opts, have_every), .shown = "none: back to back",
	  .help = "a round starts every TIME, idle in between" },
	{ .name = "out", .letter = 'o', .kind = HD_OPT_FILE, .arg = "DIR", .off = O(out), .shown = "burnin",
	  .help = "the result directory (absent or empty)" },
	{ .name = "resume", .kind = HD_OPT_FILE, .arg = "DIR", .off = O(resume),
	  .help = "go on with the burn-in of DIR (its plan and devices)" },
	{ .name = "prom", .kind = HD_OPT_FILE, .arg = "FILE", .off = O(prom),
	  .help = "also write verdicts and figures for node_exporter's\n"
		  "textfile collector (Prometheus text format, atomically),\n"
		  "as rounds finish (the verdict so far) and at the end" },
	{ .name = "points", .kind = HD_OPT_COUNT, .arg = "N", .off = O(points), .def = "48", .lo = 40, .hi = 1000,
	  .given = HD_OPT_GIVEN(struct burnin_opts, have_points), .help = "distances per round (response --points)" },
	{ .name = "reps", .kind = HD_OPT_COUNT, .arg = "N", .off = O(reps), .def = "25", .lo = 1, .hi = 10000,
	  .given = HD_OPT_GIVEN(struct burnin_opts, have_reps), .help = "samples per distance (response --reps)" },
	{ .name = "seed", .kind = HD_OPT_COUNT, .arg = "N", .off = O(seed), .def = "1",
	  .given = HD_OPT_GIVEN(struct burnin_opts, have_seed), .help = "seed of the first round; round k uses N + k - 1" },
	{ .name = "quiet", .letter = 'q', .kind = HD_OPT_FLAG, .off = O(quiet), .help = "no progress" },
	HD_OPT_HELP_END,
};

static void burnin_help(FILE *f)
{
	fprintf(f, "\nRules (defaults in parentheses):\n");
	for (size_t i = 0; i < HD_BURNIN_NRULES; i++)
		fprintf(f, "  %-22s %s (%g)\n", hd_burnin_rules[i].name, hd_burnin_rules[i].help, hd_burnin_rules[i].value);
	fprintf(f,
"A round is response --write --sync over the stroke: per round, the slow-write\n"
"rate (writes slower than their distance's p10 by more than 1.1 revolutions)\n"
"with its 95%% Wilson interval, p50/p99 of writes and reads by distance, and a\n"
"SMART snapshot.  The later half of the rounds is judged against the earlier\n"
"half: a slow-write rate up by burnin_slow_drift with the intervals apart, a\n"
"later slow-write rate at burnin_slow_unstable, a write p99 up by\n"
"burnin_p99_drift, any I/O error, or a SMART counter that moved (reallocated,\n"
"pending, offline uncorrectable, CRC errors) fails the drive, with the\n"
"evidence.  Without SMART, or with fewer than two rounds: WARN.\n"
"\n"
"Every drive's verdict and reasons are printed at the end.\n"
"Output: DIR/burnin.json (every device: identity, SMART before and after,\n"
"rounds, verdict, reasons), DIR/NN-NAME/round-NNNN.tsv and device.json, each\n"
"written as its round finishes.  Interrupted (INT, TERM, HUP), the finished\n"
"rounds are kept; --resume DIR goes on.  Progress per device on a terminal.\n"
"Exit codes: 0 every drive PASS, 4 WARN, 5 FAIL (the worst drive); 1 usage,\n"
"2 refused (no --write, a device in use or mounted, an output in the way),\n"
"3 runtime failure, 128 + signal when interrupted.\n");
}

static const struct hd_cmdspec burnin_spec = {
	.name = "burnin",
	.intro = "Usage: hddscope burnin --write [--hours H | --minutes M] [-o DIR] DEVICE...\n"
		 "       hddscope burnin --write --resume DIR\n"
		 "\n"
		 "Qualify drives for service: rounds of synced, data-preserving write and\n"
		 "read response over the whole stroke, with SMART snapshots, on every\n"
		 "DEVICE at once (one process each), then a verdict per drive.\n"
		 "\n",
	.opts = burnin_options,
	.extra_help = burnin_help,
};

/* The name of device number idx in the result directory: NN-BASENAME, with only [A-Za-z0-9._-]. */
static void dev_name(char *buf, size_t len, size_t idx, const char *spec)
{
	const char *b = strncmp(spec, "sim:", 4) == 0 ? spec + 4 : spec, *slash = strrchr(b, '/');
	size_t k;

	b = slash && slash[1] ? slash + 1 : b;
	k = (size_t)snprintf(buf, len, "%02zu-", idx + 1);
	for (; *b && k + 1 < len; b++)
		buf[k++] = (strchr("._-", *b) || (*b >= 'a' && *b <= 'z') || (*b >= 'A' && *b <= 'Z') ||
			    (*b >= '0' && *b <= '9')) ? *b : '_';
	buf[k] = '\0';
}

/* Append round r (taken over) to d; -1 when out of memory. */
static int dev_add(struct bi_dev *d, struct hd_burnin_round *r)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 16;
		struct hd_burnin_round *p = realloc(d->r, cap * sizeof(*p));

		if (!p)
			return -1;
		d->r = p;
		d->cap = cap;
	}
	d->r[d->n++] = *r;
	return 0;
}

/* Tell the parent where device d stands: one line, written whole (shorter than PIPE_BUF). */
static void report(int fd, const struct bi_dev *d, const char *state)
{
	char line[256];
	int n;

	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%zu %zu %.0f %s\n", d->idx, d->n, d->elapsed_s, state);
	if (n > 0 && write(fd, line, (size_t)n) < 0) {
		/* The parent is gone: progress is only ever shown, never kept. */
	}
}

/* Let ns pass on d in steps of at most a second, so that a signal ends the wait. */
static void idle_for(struct hd_dev *d, int64_t ns)
{
	while (ns > 0 && !hd_interrupted) {
		int64_t step = ns < 1000000000 ? ns : 1000000000, t0 = hd_dev_now(d);

		hd_dev_idle(d, step);
		ns -= hd_dev_now(d) - t0 > 0 ? hd_dev_now(d) - t0 : step;
	}
}

/* One round on the open device: the response probe into its file, its figures, the SMART snapshot after it. */
static int dev_round(struct bi_dev *d, struct hd_dev *dev, double t0_s, int64_t t0_ns, int *stop)
{
	struct hd_response_opts o;
	struct hd_burnin_round r;
	struct hd_identity id;
	char path[4300], err[600];
	int ex;

	hd_opt_defaults(hd_probe_response.spec, &o, sizeof(o));
	snprintf(path, sizeof(path), "%s/round-%04zu.tsv", d->dir, d->n + 1);
	o.c.device = d->spec;
	o.c.dev = dev;
	o.c.out = path;
	o.c.seed = d->plan->seed + d->n;
	o.c.quiet = 1;
	o.c.write_ok = 1;
	o.c.sync = 1;
	o.points = d->plan->points;
	o.reps = d->plan->reps;
	memset(&r, 0, sizeof(r));
	r.index = (unsigned)(d->n + 1);
	r.start_s = t0_s + (double)(hd_dev_now(dev) - t0_ns) / 1e9;
	ex = hd_probe_run(&hd_probe_response, &o, NULL);
	/* An interrupted round is not a finished one: its file stays (complete: no), the round is done again. */
	if (hd_interrupted || (ex != HD_EXIT_OK && ex != HD_EXIT_RUNTIME)) {
		*stop = 1;
		return ex;
	}
	if (hd_burnin_round_read(path, &r, err, sizeof(err))) {
		hd_err("%s", err);
		*stop = 1;
		return HD_EXIT_RUNTIME;
	}
	r.end_s = t0_s + (double)(hd_dev_now(dev) - t0_ns) / 1e9;
	if (hd_identity_of(dev, NULL, &id, err, sizeof(err)) == 0)
		bi_smart_of(&id, &r.smart);
	else
		r.smart.temperature_c = NAN;
	hd_identity_free(&id);
	if (dev_add(d, &r)) {
		hd_burnin_round_free(&r);
		hd_err("%s: out of memory for round %u", d->spec, r.index);
		*stop = 1;
		return HD_EXIT_RUNTIME;
	}
	d->elapsed_s = r.end_s;
	/* A device that kept failing stops after its round is kept: the verdict names the errors. */
	*stop = ex == HD_EXIT_RUNTIME;
	return bi_dev_save(d) ? HD_EXIT_RUNTIME : HD_EXIT_OK;
}

/* Identity and the SMART snapshot before the first round. */
static void dev_identity(struct bi_dev *d, struct hd_dev *dev, int resumed)
{
	struct hd_identity id;
	char err[600];

	if (hd_identity_of(dev, NULL, &id, err, sizeof(err))) {
		hd_warn("%s: %s", d->spec, err);
		hd_identity_init(&id);
	}
	snprintf(d->model, sizeof(d->model), "%s", id.model);
	snprintf(d->serial, sizeof(d->serial), "%s", id.serial);
	snprintf(d->firmware, sizeof(d->firmware), "%s", id.firmware);
	d->capacity_bytes = id.capacity_bytes;
	d->rpm_nominal = id.rpm_nominal;
	d->simulated = id.simulated;
	if (!resumed)
		bi_smart_of(&id, &d->before);
	hd_identity_free(&id);
}

/* The plan's --rounds have all been taken. */
static int rounds_done(const struct bi_dev *d)
{
	return d->plan->rounds && d->n >= d->plan->rounds;
}

/* The whole burn-in of one device (a child process): its exit code. */
static int dev_main(struct bi_dev *d, int resumed, int fd)
{
	struct hd_dev *dev;
	char path[4300];
	double t0_s;
	int64_t t0_ns, every = (int64_t)(d->plan->every_s * 1e9);
	int ex = hd_open_target(&dev, d->spec, HD_OPEN_WRITE | HD_OPEN_SYNC), stop = 0;

	if (ex)
		return ex;
	/* A device of a resumed burn-in that had not started yet starts now. */
	snprintf(path, sizeof(path), "%s/device.json", d->dir);
	resumed = resumed && access(path, F_OK) == 0;
	if (resumed && bi_dev_load(d)) {
		hd_dev_close(dev);
		return HD_EXIT_SETUP;
	}
	dev_identity(d, dev, resumed);
	/*
	 * The burn-in's clock goes on from the time saved, or from when the
	 * round after the last one was due: the time a run was stopped for
	 * counts as the idle time the plan had there.  A simulated drive
	 * opened again starts its own virtual clock, and its faults, afresh.
	 */
	if (d->n && d->r[d->n - 1].start_s + d->plan->every_s > d->elapsed_s)
		d->elapsed_s = d->r[d->n - 1].start_s + d->plan->every_s;
	t0_s = d->elapsed_s;
	t0_ns = hd_dev_now(dev);
	if (bi_dev_save(d)) {
		hd_dev_close(dev);
		return HD_EXIT_SETUP;
	}
	report(fd, d, "running");
	while (!stop && !hd_interrupted && d->elapsed_s < d->plan->duration_s && !rounds_done(d)) {
		int64_t start = hd_dev_now(dev);

		ex = dev_round(d, dev, t0_s, t0_ns, &stop);
		if (ex)
			break;
		report(fd, d, "running");
		if (!stop && d->elapsed_s < d->plan->duration_s && !rounds_done(d))
			idle_for(dev, start + every - hd_dev_now(dev));
		d->elapsed_s = t0_s + (double)(hd_dev_now(dev) - t0_ns) / 1e9;
	}
	hd_dev_close(dev);
	d->complete = !hd_interrupted && !ex && !stop;
	hd_burnin_judge(d->r, d->n, &d->before, &d->v);
	d->judged = 1;
	if (bi_dev_save(d) && !ex)
		ex = HD_EXIT_RUNTIME;
	report(fd, d, hd_verdict_level_name(d->v.overall));
	if (hd_interrupted)
		return hd_interrupt_exit();
	if (ex)
		return ex;
	return d->v.overall == HD_VERDICT_FAIL ? HD_EXIT_FAIL : d->v.overall == HD_VERDICT_WARN ? HD_EXIT_WARN : HD_EXIT_OK;
}

/* Every device can be opened for writing (not in use, not mounted) before anything is written. */
static int check_devices(const struct bi_plan *p)
{
	for (size_t i = 0; i < p->ndev; i++) {
		struct hd_dev *d;
		int ex = hd_open_target(&d, p->dev[i], HD_OPEN_WRITE | HD_OPEN_SYNC);

		if (ex) {
			hd_err("%s: refused; no drive burnt in", p->dev[i]);
			return ex;
		}
		hd_dev_close(d);
		for (size_t j = 0; j < i; j++)
			if (strcmp(p->dev[i], p->dev[j]) == 0) {
				hd_err("%s: named twice; one burn-in per drive", p->dev[i]);
				return HD_EXIT_USAGE;
			}
	}
	return 0;
}

/* The progress lines on a terminal: one per device, redrawn in place. */
struct progress {
	int tty;
	size_t n, drawn;
	char (*line)[160];
};

static void progress_draw(struct progress *pg)
{
	if (!pg->tty)
		return;
	if (pg->drawn)
		fprintf(stderr, "\033[%zuA", pg->drawn);
	for (size_t i = 0; i < pg->n; i++)
		fprintf(stderr, "\r\033[K%s\n", pg->line[i]);
	pg->drawn = pg->n;
	fflush(stderr);
}

/* A line from a device process: "IDX ROUNDS ELAPSED STATE". */
static void progress_line(struct progress *pg, const struct bi_plan *p, const char *msg)
{
	size_t idx, rounds;
	double el;
	char state[32];

	if (sscanf(msg, "%zu %zu %lf %31s", &idx, &rounds, &el, state) != 4 || idx >= pg->n)
		return;
	snprintf(pg->line[idx], sizeof(pg->line[idx]), "%-40.40s round %zu, %5.1f of %.1f h  %s", p->dev[idx], rounds,
		 el / 3600, p->duration_s / 3600, state);
}

/*
 * --prom while the burn-in runs: a device that finished a round is read
 * back (its device.json, replaced whole after each round) and judged so
 * far; the file is rewritten at most once a second.
 */
struct live {
	struct bi_dev *devs;
	size_t n;
	const char *prom;
	int dirty;
	int64_t last_ns;
};

static void live_round(struct live *lv, const char *msg)
{
	size_t idx;
	struct bi_dev *d;

	if (!lv->prom || sscanf(msg, "%zu", &idx) != 1 || idx >= lv->n)
		return;
	d = &lv->devs[idx];
	if (bi_dev_load(d) == 0 && d->n) {
		hd_burnin_judge(d->r, d->n, &d->before, &d->v);
		d->judged = 1;
		lv->dirty = 1;
	}
}

static void live_flush(struct live *lv)
{
	int64_t now = hd_mono_ns();

	if (!lv->dirty || now - lv->last_ns < 1000000000)
		return;
	/* A failure is said; the burn-in goes on, and the end writes the file again. */
	bi_prom_save(lv->prom, lv->devs, lv->n);
	lv->dirty = 0;
	lv->last_ns = now;
}

/* Read what the device processes say until every one of them has ended; forward a signal to them. */
static void watch(int rfd, pid_t *pid, int *status, const struct bi_plan *p, int quiet, struct live *lv)
{
	struct progress pg = { isatty(2) && !quiet, p->ndev, 0, calloc(p->ndev, sizeof(*pg.line)) };
	char buf[4096], acc[8192];
	size_t alen = 0, left = p->ndev;
	int fwd = 0;

	for (size_t i = 0; pg.line && i < p->ndev; i++)
		snprintf(pg.line[i], sizeof(pg.line[i]), "%-40.40s starting", p->dev[i]);
	if (!pg.line)
		pg.tty = 0;
	progress_draw(&pg);
	while (left) {
		struct pollfd pf = { rfd, POLLIN, 0 };
		ssize_t k;

		if (hd_interrupted && !fwd) {
			for (size_t i = 0; i < p->ndev; i++)
				if (pid[i] > 0)
					kill(pid[i], hd_interrupted);
			fwd = 1;
		}
		if (poll(&pf, 1, 200) > 0 && (k = read(rfd, buf, sizeof(buf))) > 0) {
			for (ssize_t i = 0; i < k; i++) {
				if (buf[i] == '\n' || alen + 1 >= sizeof(acc)) {
					acc[alen] = '\0';
					if (pg.line)
						progress_line(&pg, p, acc);
					live_round(lv, acc);
					alen = 0;
				} else {
					acc[alen++] = buf[i];
				}
			}
			progress_draw(&pg);
		}
		live_flush(lv);
		for (size_t i = 0; i < p->ndev; i++)
			if (pid[i] > 0 && waitpid(pid[i], &status[i], WNOHANG) == pid[i]) {
				pid[i] = 0;
				left--;
			}
	}
	free(pg.line);
}

/* An exit code from a device process's status. */
static int child_exit(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : HD_EXIT_RUNTIME;
}

/* The worst of two exit codes: interruption, then failure to run, then the verdict. */
static int worse(int a, int b)
{
	static const int rank[] = { [HD_EXIT_OK] = 0, [HD_EXIT_WARN] = 1, [HD_EXIT_FAIL] = 2, [HD_EXIT_USAGE] = 3,
				    [HD_EXIT_SETUP] = 4, [HD_EXIT_RUNTIME] = 5 };
	int ra = a >= 128 ? 6 : a < (int)(sizeof(rank) / sizeof(rank[0])) ? rank[a] : 5;
	int rb = b >= 128 ? 6 : b < (int)(sizeof(rank) / sizeof(rank[0])) ? rank[b] : 5;

	return rb > ra ? b : a;
}

/* Every device's verdict and its reasons on stdout, as verdict prints them. */
static void print_verdicts(const struct bi_dev *devs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct bi_dev *d = &devs[i];

		printf("%s: %s (%zu round%s, %.2f h%s)\n", d->spec, d->judged ? hd_verdict_level_name(d->v.overall) : "not run",
		       d->n, d->n == 1 ? "" : "s", d->elapsed_s / 3600, d->complete ? "" : ", incomplete");
		for (size_t k = 0; d->judged && k < d->v.n; k++)
			printf("  %-5s %s\n", hd_verdict_level_name(d->v.r[k].level), d->v.r[k].text);
	}
	fflush(stdout);
}

/* One process per device, then the summaries.  Returns the exit code. */
static int run_all(const char *dir, const struct bi_plan *p, struct bi_dev *devs, int resumed, const char *prom,
		   int quiet)
{
	pid_t *pid = calloc(p->ndev, sizeof(*pid));
	int *status = calloc(p->ndev, sizeof(*status)), fds[2], ex = HD_EXIT_OK, complete = 1;
	char path[4300];
	struct live lv = { devs, p->ndev, prom, 0, 0 };

	if (!pid || !status || pipe(fds)) {
		if (pid && status)
			hd_err("pipe for the device processes of %s: %s", dir, strerror(errno));
		else
			hd_err("%s: out of memory for %zu device processes", dir, p->ndev);
		free(pid);
		free(status);
		return HD_EXIT_SETUP;
	}
	fflush(NULL);
	for (size_t i = 0; i < p->ndev; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			close(fds[0]);
			_exit(dev_main(&devs[i], resumed, fds[1]));
		}
		if (pid[i] < 0) {
			hd_err("fork for %s: %s", p->dev[i], strerror(errno));
			status[i] = HD_EXIT_SETUP << 8;
		}
	}
	close(fds[1]);
	watch(fds[0], pid, status, p, quiet, &lv);
	close(fds[0]);
	for (size_t i = 0; i < p->ndev; i++) {
		int e = child_exit(status[i]);

		ex = worse(ex, e);
		/* What the device's process left: its finished rounds and, at its end, its verdict. */
		bi_dev_free(&devs[i]);
		snprintf(path, sizeof(path), "%s/device.json", devs[i].dir);
		if (access(path, F_OK) == 0 && bi_dev_load(&devs[i]) == 0) {
			hd_burnin_judge(devs[i].r, devs[i].n, &devs[i].before, &devs[i].v);
			devs[i].judged = 1;
		}
		complete &= devs[i].complete;
	}
	if (bi_summary_save(dir, p, devs, complete) || (prom && bi_prom_save(prom, devs, p->ndev)))
		ex = worse(ex, HD_EXIT_RUNTIME);
	print_verdicts(devs, p->ndev);
	if (hd_interrupted) {
		size_t kept = 0;

		for (size_t i = 0; i < p->ndev; i++)
			kept += devs[i].n;
		hd_err("interrupted by %s: %zu finished rounds kept in %s (complete: no); --resume %s goes on",
		       hd_signal_name(hd_interrupted), kept, dir, dir);
	}
	free(pid);
	free(status);
	return ex;
}

/* The plan from the options and operands (a new burn-in). */
static int plan_new(const struct burnin_opts *o, int argc, char **argv, struct bi_plan *p)
{
	memset(p, 0, sizeof(*p));
	if (o->have_hours && o->have_minutes) {
		hd_err("--hours and --minutes exclude each other");
		return HD_EXIT_USAGE;
	}
	if (optind >= argc) {
		hd_err("no device given (name every drive to burn in)");
		return HD_EXIT_USAGE;
	}
	p->duration_s = o->have_minutes ? o->minutes * 60 : o->have_hours ? o->hours * 3600 : 3600;
	p->every_s = (double)o->every_ns / 1e9;
	p->points = o->points;
	p->reps = o->reps;
	p->seed = o->seed;
	p->rounds = o->rounds;
	p->ndev = (size_t)(argc - optind);
	p->dev = calloc(p->ndev, sizeof(*p->dev));
	for (size_t i = 0; p->dev && i < p->ndev; i++)
		if (!(p->dev[i] = strdup(argv[optind + (int)i]))) {
			bi_plan_free(p);
			break;
		}
	if (!p->dev) {
		hd_err("burnin: out of memory");
		return HD_EXIT_SETUP;
	}
	return 0;
}

/* --resume DIR: its plan; the options of a new burn-in would change it, and are refused. */
static int plan_resume(const struct burnin_opts *o, int argc, struct bi_plan *p)
{
	if (optind < argc || o->have_hours || o->have_minutes || o->have_every || o->have_points || o->have_reps ||
	    o->have_seed || o->have_rounds || o->out) {
		hd_err("--resume %s goes on with the plan saved there: no devices, -o, --hours, --minutes, --rounds, "
		       "--every, --points, --reps or --seed with it", o->resume);
		return HD_EXIT_USAGE;
	}
	return bi_plan_load(o->resume, p) ? HD_EXIT_SETUP : 0;
}

/* 1 when dir is absent or holds nothing (one it cannot read counts as empty: making it then says why). */
static int dir_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return 1;
	while (empty && (e = readdir(d)))
		empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
	closedir(d);
	return empty;
}

/* A new result directory: absent or empty, and never one of a burn-in already (that is --resume's). */
static int out_dir(const char *dir)
{
	char path[4200];
	int rc;

	snprintf(path, sizeof(path), "%s/burnin.json", dir);
	if (access(path, F_OK) == 0) {
		hd_err("%s: holds a burn-in already; --resume %s goes on with it", dir, dir);
		return HD_EXIT_SETUP;
	}
	if (!dir_empty(dir)) {
		hd_err("%s: not empty; a burn-in writes into a new or empty directory", dir);
		return HD_EXIT_SETUP;
	}
	rc = hd_out_make_dir(dir);
	if (rc) {
		hd_err("%s: %s", dir, hd_fs_strerror(rc));
		return HD_EXIT_SETUP;
	}
	return 0;
}

/*
 * Every device's state and result directory; resumed, the rounds each one
 * kept, so that burnin.json holds them from the start.
 */
static int devs_init(const char *dir, const struct bi_plan *p, struct bi_dev *devs, int resumed)
{
	for (size_t i = 0; i < p->ndev; i++) {
		struct bi_dev *d = &devs[i];
		char path[4300];
		int rc;

		d->plan = p;
		d->idx = i;
		d->spec = p->dev[i];
		d->before.temperature_c = NAN;
		dev_name(d->name, sizeof(d->name), i, d->spec);
		snprintf(d->dir, sizeof(d->dir), "%s/%s", dir, d->name);
		rc = hd_out_make_dir(d->dir);
		if (rc) {
			hd_err("%s: %s", d->dir, hd_fs_strerror(rc));
			return HD_EXIT_SETUP;
		}
		snprintf(path, sizeof(path), "%s/device.json", d->dir);
		if (resumed && access(path, F_OK) == 0 && bi_dev_load(d))
			return HD_EXIT_SETUP;
	}
	return 0;
}

int hd_cmd_burnin(int argc, char **argv)
{
	struct burnin_opts o;
	struct bi_plan p = { 0 };
	struct bi_dev *devs = NULL;
	const char *dir;
	int ex, rc;

	ex = hd_opt_parse(&burnin_spec, &o, sizeof(o), argc, argv);
	if (ex != HD_OPT_GO)
		return ex;
	if (!o.write_ok) {
		hd_err("burnin writes to every DEVICE; add --write to allow it (every block is read first and the "
		       "same bytes are written back)");
		return HD_EXIT_SETUP;
	}
	ex = o.resume ? plan_resume(&o, argc, &p) : plan_new(&o, argc, argv, &p);
	if (ex)
		return ex == HD_EXIT_USAGE ? hd_usage_hint("burnin") : ex;
	dir = o.resume ? o.resume : o.out ? o.out : "burnin";
	hd_install_signals();
	/* Where the results go, then the devices: a refusal writes nothing. */
	if (o.prom && (rc = hd_out_check_file(o.prom))) {
		hd_err("%s: %s", o.prom, hd_fs_strerror(rc));
		ex = HD_EXIT_SETUP;
	}
	if (!ex && !o.resume && (rc = hd_out_check_dir(dir))) {
		hd_err("%s: %s", dir, hd_fs_strerror(rc));
		ex = HD_EXIT_SETUP;
	}
	if (!ex)
		ex = check_devices(&p);
	if (ex == HD_EXIT_USAGE)
		ex = hd_usage_hint("burnin");
	if (!ex && !o.resume)
		ex = out_dir(dir);
	devs = ex ? NULL : calloc(p.ndev, sizeof(*devs));
	if (!ex && !devs) {
		hd_err("burnin: out of memory");
		ex = HD_EXIT_SETUP;
	}
	if (!ex)
		ex = devs_init(dir, &p, devs, o.resume != NULL);
	if (!ex && bi_summary_save(dir, &p, devs, 0))
		ex = HD_EXIT_SETUP;
	if (!ex)
		ex = run_all(dir, &p, devs, o.resume != NULL, o.prom, o.quiet);
	for (size_t i = 0; devs && i < p.ndev; i++)
		bi_dev_free(&devs[i]);
	free(devs);
	bi_plan_free(&p);
	return ex;
}
