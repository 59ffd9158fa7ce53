/*
 * hddscope emulate: serve a simulated drive as a kernel block device
 * (src/dev/emu.c), stop one (--stop DEV), or measure how faithfully this
 * machine delivers its timing (--selftest).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hddscope/cmd.h"
#include "hddscope/cpuidle.h"
#include "hddscope/emu.h"
#include "hddscope/sim.h"
#include "hddscope/stats.h"
#include "hddscope/util.h"

static void emulate_usage(FILE *f)
{
	fprintf(f,
"Usage: hddscope emulate MODEL [--dir DIR] [--seed N] [--raw] [--allow-idle] [--daemon]\n"
"       hddscope emulate --stop DEV\n"
"       hddscope emulate --selftest MODEL [--seed N] [--raw] [--allow-idle]\n"
"\n"
"Serve the simulated drive MODEL (a preset name or a FILE.drive) as a block\n"
"device: a FUSE file system holding one file of the model's capacity, and a\n"
"loop device with direct I/O and the model's sector size over it.  Every\n"
"request is stamped on arrival and answered when the model says it\n"
"completes, in real time, less the kernel path's own round trip (timed at\n"
"the start), so that a client sees the model's service time; concurrent\n"
"requests meet in the drive's queue; data written is kept (in memory) and\n"
"read back.  While it serves, it holds a PM QoS request of 0 us on\n"
"/dev/cpu_dma_latency, so that idle CPUs poll instead of sleeping (waking\n"
"a sleeping CPU adds tens to hundreds of microseconds to a reply): the\n"
"CPUs do not rest until it ends.  Prints the device path (one line) and\n"
"serves until SIGINT or SIGTERM, or 'emulate --stop DEV'; then detaches\n"
"the loop device (once its users have closed it) and unmounts.  Needs\n"
"root, /dev/fuse, loop devices and fusermount3 (Debian: apt-get install\n"
"fuse3).\n"
"\n"
"  --dir DIR     mount the file system on DIR, an existing empty directory\n"
"                (default: a new directory under $TMPDIR or /tmp, removed at\n"
"                the end)\n"
"  --seed N      the drive's random seed (seek jitter, write retries; 1)\n"
"  --raw         answer at the modelled completion itself: a client sees\n"
"                the model's time plus the kernel path's round trip\n"
"  --allow-idle  leave the CPUs' idle states alone (replies after a wait then\n"
"                come later by the time a CPU takes to wake)\n"
"  --daemon      print the device path, then serve in the background:\n"
"                dev=$(hddscope emulate --daemon atlas3)\n"
"  --stop DEV    stop the emulator serving DEV and wait until DEV is gone;\n"
"                where the emulator was killed, clean up what it left\n"
"  --selftest    run a fixed workload (random, short-distance and sequential\n"
"                4K reads, random 4K writes) through the kernel device and\n"
"                report the delivered-minus-modelled latency (p50, p99, max)\n"
"                and the RMS between the delivered and modelled service-time\n"
"                distributions\n"
"  -h, --help    this help\n"
"\n"
"If the emulator itself is killed (SIGKILL), fusermount3 unmounts its file\n"
"system and the loop device goes with its last user; 'emulate --stop DEV'\n"
"cleans up whatever is left.\n"
"Exit codes: 0 ok, 1 usage, 2 setup (no FUSE, no loop devices, not root,\n"
"bad model, mount or attach failed, --stop of a device no emulator serves),\n"
"3 the server was killed, or the self-test could not complete.\n");
}

/* What to serve. */
struct emu_args {
	const char *model, *dir;
	uint64_t seed;
	unsigned flags;
};

/* Block the stop signals (and SIGCHLD) in every thread; the caller waits for them with sigwait. */
static void block_stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGQUIT);
	sigaddset(set, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, set, NULL);
}

/*
 * The server (a child of the watcher): starts the emulator, reports
 * "D<device>\t<mount>" or "E<reason>" on fd, serves until a stop signal,
 * then stops.  Its parent's death is a stop signal too.
 */
static int serve(const struct emu_args *a, int fd, pid_t parent)
{
	struct hd_emu *e;
	sigset_t set;
	char err[512];
	int sig = 0;

	block_stop_signals(&set);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		return HD_EXIT_RUNTIME;
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	if (hd_emu_start(&e, a->model, a->seed, a->dir, a->flags, err, sizeof(err))) {
		dprintf(fd, "E%s\n", err);
		return HD_EXIT_SETUP;
	}
	if (!hd_idle_held(hd_emu_idle(e)) && !(a->flags & HD_EMU_ALLOW_IDLE))
		hd_err("emulate: %s: CPUs may sleep while requests are served, and replies after a wait come late by "
		       "their wake-up", hd_emu_idle(e)->why);
	dprintf(fd, "D%s\t%s\n", hd_emu_device(e), hd_emu_mount(e));
	close(fd);
	do
		sigwait(&set, &sig);
	while (sig == SIGCHLD);
	if (hd_emu_stop(e, err, sizeof(err))) {
		hd_err("emulate: %s", err);
		return HD_EXIT_RUNTIME;
	}
	return HD_EXIT_OK;
}

/*
 * The first line from fd (without its newline) into buf, then fd closed.
 * One line only: the server's helpers (fusermount3) may hold the pipe open
 * long after.
 */
static void read_line(int fd, char *buf, size_t len)
{
	size_t n = 0;

	for (ssize_t r; n < len - 1 && !memchr(buf, '\n', n) && (r = read(fd, buf + n, len - 1 - n)) > 0;)
		n += (size_t)r;
	close(fd);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/*
 * The watcher: forks the server, passes its first line to out (the
 * device, or the reason it could not start), forwards stop signals to it
 * and waits for it.  Where the server dies of a signal, it cleans up what
 * the server left and says so.
 */
static int watch(const struct emu_args *a, int out)
{
	char line[PATH_MAX + 600], err[512], *tab;
	sigset_t set;
	pid_t pid, me = getpid();
	int p[2], status, sig;

	block_stop_signals(&set);
	if (pipe(p) || (pid = fork()) < 0) {
		dprintf(out, "E%s: %s\n", "pipe or fork", strerror(errno));
		return HD_EXIT_SETUP;
	}
	if (pid == 0) {
		close(p[0]);
		close(out);
		_exit(serve(a, p[1], me));
	}
	close(p[1]);
	read_line(p[0], line, sizeof(line));
	if (line[0] != 'D') {
		waitpid(pid, &status, 0);
		dprintf(out, "%s\n", line[0] == 'E' ? line : "Ethe emulator ended before it reported its device");
		return HD_EXIT_SETUP;
	}
	tab = strchr(line, '\t');
	if (tab)
		*tab++ = '\0';
	dprintf(out, "%s\n", line);
	close(out);
	for (;;) {
		sigwait(&set, &sig);
		if (sig != SIGCHLD) {
			kill(pid, SIGTERM);
			continue;
		}
		if (waitpid(pid, &status, WNOHANG) != pid)
			continue;
		if (WIFEXITED(status))
			return WEXITSTATUS(status);
		hd_err("emulate: the emulator of %s (pid %ld) was killed by signal %d; cleaning up", line + 1, (long)pid,
		       WTERMSIG(status));
		if (tab && hd_emu_clean_after(line + 1, tab, err, sizeof(err)))
			hd_err("emulate: %s; see 'hddscope emulate --help' for what to undo by hand", err);
		return HD_EXIT_RUNTIME;
	}
}

/*
 * Serve in the foreground (the watcher a child, to which this process
 * passes the stop signals) or, with --daemon, in a new session (the
 * watcher a grandchild, nobody's child to wait for): either way the
 * device path goes to stdout, one line.
 */
static int run_served(const struct emu_args *a, int daemon)
{
	char msg[PATH_MAX + 600];
	int p[2], rc, status, fd;
	pid_t pid;

	if (pipe(p)) {
		hd_err("emulate: pipe: %s", strerror(errno));
		return HD_EXIT_SETUP;
	}
	fflush(NULL);
	if ((pid = fork()) < 0) {
		hd_err("emulate: fork: %s", strerror(errno));
		return HD_EXIT_SETUP;
	}
	if (pid == 0) {
		close(p[0]);
		if (!daemon) {
			/* This process killed, the watcher stops the emulator. */
			prctl(PR_SET_PDEATHSIG, SIGTERM);
			_exit(watch(a, p[1]));
		}
		setsid();
		if ((pid = fork()) != 0)
			_exit(pid < 0 ? HD_EXIT_SETUP : HD_EXIT_OK);
		/* Nothing of the caller's stays open: $(...) ends when this process has reported. */
		if ((fd = open("/dev/null", O_RDWR)) >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (dup2(p[1], 3) == 3) {
			close_range(4, ~0U, 0);
			_exit(watch(a, 3));
		}
		_exit(HD_EXIT_SETUP);
	}
	close(p[1]);
	read_line(p[0], msg, sizeof(msg));
	if (msg[0] != 'D') {
		waitpid(pid, &status, 0);
		hd_err("emulate %s: %s", a->model, msg[0] ? msg + 1 : "the emulator ended before it reported its device");
		return HD_EXIT_SETUP;
	}
	printf("%s\n", msg + 1);
	rc = fflush(stdout) ? HD_EXIT_RUNTIME : HD_EXIT_OK;
	if (daemon) {
		waitpid(pid, &status, 0);
		return rc;
	}
	/* In the foreground the stop signals go to the watcher, which passes them on. */
	{
		sigset_t set;
		int sig;

		block_stop_signals(&set);
		for (;;) {
			sigwait(&set, &sig);
			if (sig != SIGCHLD) {
				kill(pid, sig);
				continue;
			}
			if (waitpid(pid, &status, WNOHANG) == pid)
				return WIFEXITED(status) ? WEXITSTATUS(status) : HD_EXIT_RUNTIME;
		}
	}
}

/* ---- --selftest ---- */

#define ST_RANDOM 400
#define ST_SHORT 200
#define ST_SEQ 200
#define ST_WRITES 100
#define ST_TOTAL (ST_RANDOM + ST_SHORT + ST_SEQ + ST_WRITES)

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Offset of access i of the fixed workload on a drive of size bytes; *write for the writes. */
static uint64_t st_offset(struct hd_rng *rng, size_t i, uint64_t size, uint64_t *seq, int *write)
{
	uint64_t blocks = size / 4096, span = 16384; /* 64 MiB of 4K blocks */

	*write = i >= ST_RANDOM + ST_SHORT + ST_SEQ;
	if (i < ST_RANDOM || *write)
		return hd_rng_below(rng, blocks) * 4096;
	if (i < ST_RANDOM + ST_SHORT)
		return (blocks / 2 - span / 2 + hd_rng_below(rng, span < blocks ? span : blocks)) * 4096 % size;
	return (*seq += 4096) % size;
}

static void put_ms(const char *key, double ns)
{
	printf("%s: %.4f\n", key, ns / 1e6);
}

static int selftest_report(const struct hd_emu_rec *rec, size_t nrec, const double *user_ns, size_t n)
{
	double *added = malloc(n * sizeof(double)), *a = malloc(n * sizeof(double)),
	       *b = malloc(n * sizeof(double)), *late = malloc(n * sizeof(double)), rms;

	if (!added || !a || !b || !late) {
		free(added), free(a), free(b), free(late);
		hd_err("emulate --selftest: out of memory");
		return HD_EXIT_RUNTIME;
	}
	for (size_t i = 0; i < n; i++) {
		a[i] = user_ns[i];
		b[i] = (double)(rec[i].done_ns - rec[i].arrival_ns);
		added[i] = a[i] - b[i];
		late[i] = (double)(rec[i].reply_ns - rec[i].done_ns);
	}
	rms = hd_cdf_rms(a, n, b, n);
	hd_sort_doubles(added, n);
	hd_sort_doubles(late, n);
	printf("requests: %zu\nrecorded: %zu\n", n, nrec);
	put_ms("added_p50_ms", hd_percentile_sorted(added, n, 50));
	put_ms("added_p99_ms", hd_percentile_sorted(added, n, 99));
	put_ms("added_max_ms", added[n - 1]);
	put_ms("reply_late_p50_ms", hd_percentile_sorted(late, n, 50));
	put_ms("reply_late_max_ms", late[n - 1]);
	put_ms("rms_ms", rms);
	printf("target: added p50 <= 0.15 ms, rms <= 0.2 ms: %s\n",
	       hd_percentile_sorted(added, n, 50) <= 0.15e6 && rms <= 0.2e6 ? "met" : "not met");
	free(added), free(a), free(b), free(late);
	return HD_EXIT_OK;
}

static int run_selftest(const struct emu_args *a)
{
	struct hd_emu *e;
	struct hd_rng rng;
	char err[512], note[200];
	double user_ns[ST_TOTAL];
	const struct hd_emu_rec *rec;
	size_t nrec;
	uint64_t size, seq = 0;
	void *buf = NULL;
	int fd, rc = HD_EXIT_OK;

	if (hd_emu_check(err, sizeof(err)) || hd_emu_start(&e, a->model, a->seed, NULL, a->flags, err, sizeof(err))) {
		hd_err("emulate --selftest %s: %s", a->model, err);
		return HD_EXIT_SETUP;
	}
	fd = open(hd_emu_device(e), O_RDWR | O_DIRECT | O_CLOEXEC);
	if (fd < 0 || posix_memalign(&buf, 4096, 4096) || (size = (uint64_t)lseek(fd, 0, SEEK_END)) < 1 << 20 ||
	    hd_emu_record(e, ST_TOTAL + 16)) {
		hd_err("emulate --selftest: open %s: %s", hd_emu_device(e), strerror(errno));
		rc = HD_EXIT_RUNTIME;
		goto out;
	}
	memset(buf, 0x5a, 4096);
	hd_rng_seed(&rng, a->seed);
	{
		struct sched_param sp = { .sched_priority = 1 };
		pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	}
	seq = size / 4 / 4096 * 4096;
	for (size_t i = 0; i < ST_TOTAL; i++) {
		int write;
		uint64_t off = st_offset(&rng, i, size, &seq, &write);
		int64_t t0 = now_ns();
		ssize_t got = write ? pwrite(fd, buf, 4096, (off_t)off) : pread(fd, buf, 4096, (off_t)off);

		user_ns[i] = (double)(now_ns() - t0);
		if (got != 4096) {
			hd_err("emulate --selftest: %s %s at %llu: %s", write ? "pwrite" : "pread", hd_emu_device(e),
			       (unsigned long long)off, got < 0 ? strerror(errno) : "short transfer");
			rc = HD_EXIT_RUNTIME;
			goto out;
		}
	}
	rec = hd_emu_records(e, &nrec);
	if (nrec != ST_TOTAL) {
		hd_err("emulate --selftest: %zu requests reached the emulator for %d accesses", nrec, ST_TOTAL);
		rc = HD_EXIT_RUNTIME;
		goto out;
	}
	printf("model: %s\ndevice: %s\n", a->model, hd_emu_device(e));
	put_ms("path_compensation_ms", (double)hd_emu_path_ns(e));
	hd_idle_note(hd_emu_idle(e), note, sizeof(note));
	printf("cpu_idle: %s\n", note);
	rc = selftest_report(rec, nrec, user_ns, ST_TOTAL);
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	if (hd_emu_stop(e, err, sizeof(err))) {
		hd_err("emulate: %s", err);
		rc = rc ? rc : HD_EXIT_RUNTIME;
	}
	return rc;
}

int hd_cmd_emulate(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },   { "seed", required_argument, NULL, 's' },
		{ "daemon", no_argument, NULL, 'D' },      { "stop", required_argument, NULL, 'S' },
		{ "selftest", no_argument, NULL, 'T' },    { "raw", no_argument, NULL, 'R' },
		{ "allow-idle", no_argument, NULL, 'I' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL, *stop = NULL;
	uint64_t seed = 1;
	unsigned flags = 0;
	int c, daemon = 0, selftest = 0;
	char err[512];

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir = optarg; break;
		case 's':
			if (hd_parse_u64(optarg, &seed)) {
				hd_err("emulate: --seed '%s': not a number", optarg);
				return HD_EXIT_USAGE;
			}
			break;
		case 'D': daemon = 1; break;
		case 'S': stop = optarg; break;
		case 'T': selftest = 1; break;
		case 'R': flags |= HD_EMU_RAW; break;
		case 'I': flags |= HD_EMU_ALLOW_IDLE; break;
		case 'h': emulate_usage(stdout); return HD_EXIT_OK;
		default: emulate_usage(stderr); return HD_EXIT_USAGE;
		}
	}
	if (stop) {
		if (optind != argc || daemon || selftest || dir || flags) {
			hd_err("emulate: --stop DEV takes no model and no other option");
			return HD_EXIT_USAGE;
		}
		if (hd_emu_stop_device(stop, err, sizeof(err))) {
			hd_err("emulate --stop: %s", err);
			return HD_EXIT_SETUP;
		}
		return HD_EXIT_OK;
	}
	if (optind != argc - 1) {
		hd_err("emulate: %s", optind == argc ? "which model? (a preset name or a FILE.drive)" : "one model only");
		emulate_usage(stderr);
		return HD_EXIT_USAGE;
	}
	if (selftest && (daemon || dir)) {
		hd_err("emulate: --selftest takes neither --daemon nor --dir");
		return HD_EXIT_USAGE;
	}
	if (hd_emu_check(err, sizeof(err))) {
		hd_err("emulate: %s", err);
		return HD_EXIT_SETUP;
	}
	{
		struct emu_args a = { argv[optind], dir, seed, flags };

		return selftest ? run_selftest(&a) : run_served(&a, daemon);
	}
}
