/*
 * The queue probe: random reads from N concurrent clients, for each N in
 * --procs, so that IOPS and latency can be read against the depth of the
 * drive's command queue.
 *
 * On a block device or a file each client is a forked process with its own
 * O_DIRECT descriptor; all of them are released together by a barrier (a
 * pipe the parent closes) and write one record per request into shared
 * memory that was mapped before the fork, so nothing but the pread itself
 * is a system call in the loop.  The parent merges the records exactly:
 * percentiles come from the merged, sorted latencies, never from averaged
 * per-client figures.  On the simulated drive the N clients are simulated
 * in this process as closed loops against the drive's queue (submit/reap),
 * with the same records and output.
 *
 * Two data files: one row per N (the summary) and one row per request
 * (<out>-requests.tsv), both with test "queue".
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hddscope/cli.h"
#include "hddscope/msg.h"
#include "hddscope/fsutil.h"
#include "hddscope/probes.h"
#include "hddscope/session.h"
#include "hddscope/stats.h"

#define QUEUE_MAX_PROCS 256
#define QUEUE_MAX_LIST HD_QUEUE_MAX_LIST
/*
 * Records held per N when the run is bounded by time: a real disk fills a
 * small part of it in --time, a RAM-backed device could fill gigabytes.
 * When one client's share is full every client stops, so that all of them
 * ran for the same time.
 */
#define QUEUE_TIME_RECORDS (256u * 1024)
/* With --requests the records are exactly procs x requests; at most this many. */
#define QUEUE_MAX_RECORDS (16u * 1024 * 1024)

/* One request as a client saw it. */
struct qrec {
	uint64_t off;
	int64_t start_ns;	/* from the release of the clients */
	int64_t lat_ns;
	int32_t rc;		/* 0 or -errno */
	int32_t pad;
};

/* Per client, in shared memory. */
struct qclient {
	_Atomic uint64_t n;	/* records written */
	int32_t pid;
	int32_t setup_rc;	/* 0, or -errno of the failed setup call */
	const char *setup_call;	/* a static string: the same address in parent and child */
	int full;		/* stopped because its record space was full */
};

/* The shared region's head; the records follow it. */
struct qshared {
	_Atomic int stop;	/* set by the parent (interrupt) or a client (records full) */
	int64_t t0_ns;		/* release time, CLOCK_MONOTONIC */
	int64_t deadline_ns;	/* 0 with --requests */
	struct qclient cl[QUEUE_MAX_PROCS];
};

/* Everything a run needs beyond the options. */
struct queue_run {
	const struct hd_queue_opts *o;
	struct hd_dev *dev;
	uint64_t span, nblocks;	/* offsets are k * block for k < nblocks */
	struct qshared *sh;
	struct qrec *rec;
	size_t map_len;
	unsigned nclients;	/* the N being run */
	uint64_t per_client;	/* record slots per client for the N being run */
	uint64_t total_slots;
};

/* Per-N result, also printed at the end. */
struct queue_sum {
	unsigned procs;
	uint64_t requests, ok;
	double iops, mb_s, mean_ms;
	int64_t p50, p90, p99, max;
	int limited;
};

static int parse_procs(void *vo, const char *arg)
{
	struct hd_queue_opts *o = vo;
	const char *p = arg;

	o->nprocs = 0;
	for (;;) {
		char *end;
		unsigned long v;

		if (*p < '0' || *p > '9')
			goto bad;
		errno = 0;
		v = strtoul(p, &end, 10);
		if (errno || v < 1 || v > QUEUE_MAX_PROCS)
			goto bad;
		if (o->nprocs == QUEUE_MAX_LIST) {
			hd_err("--procs '%s': at most %d values", arg, QUEUE_MAX_LIST);
			return -1;
		}
		o->procs[o->nprocs++] = (unsigned)v;
		if (*end == '\0')
			return 0;
		if (*end != ',')
			goto bad;
		p = end + 1;
	}
bad:
	hd_err("--procs '%s': must be a comma-separated list of counts between 1 and %d", arg,
	       QUEUE_MAX_PROCS);
	return -1;
}

#define O(member) offsetof(struct hd_queue_opts, member)
#define STR(x) #x
#define XSTR(x) STR(x)

static const struct hd_option queue_options[] = {
	{ .name = "procs", .kind = HD_OPT_CALL, .arg = "LIST", .call = parse_procs, .def = "1,2,4,8,16,32",
	  .help = "client counts, comma-separated, 1.." XSTR(QUEUE_MAX_PROCS) },
	HD_BLOCK_OPTION("block", struct hd_queue_opts, block, "4k", "bytes per read, a multiple of the sector"),
	{ .name = "span", .kind = HD_OPT_SIZE, .arg = "SIZE", .off = O(span), .lo = 1,
	  .given = HD_OPT_GIVEN(struct hd_queue_opts, have_span), .shown = "the whole device",
	  .help = "reads fall in [0, SIZE) of the device" },
	{ .name = "time", .kind = HD_OPT_DURATION, .arg = "DURATION", .off = O(time_ns), .def = "10s",
	  .given = HD_OPT_GIVEN(struct hd_queue_opts, have_time),
	  .help = "per N, each client reads for this long, simulated time\n"
		  "on sim:; s, ms, us or m suffix, seconds without one" },
	{ .name = "requests", .kind = HD_OPT_COUNT, .arg = "N", .off = O(requests), .lo = 1,
	  .hi = QUEUE_MAX_RECORDS, .help = "per N, each client issues exactly N reads (instead of --time)" },
	{ .name = "scheduler", .kind = HD_OPT_STRING, .arg = "none|keep|NAME", .off = O(scheduler), .def = "none",
	  .given = HD_OPT_GIVEN(struct hd_queue_opts, have_scheduler),
	  .help = "the block device's I/O scheduler for the run, put back\n"
		  "afterwards with its nr_requests (also after an error or a\n"
		  "signal): none lets the drive alone reorder, keep changes\n"
		  "nothing; a file or a simulated drive has none to set" },
	{ .kind = HD_OPT_END },
};

static int queue_check(void *vo)
{
	const struct hd_queue_opts *o = vo;

	if (o->have_time && o->requests) {
		hd_err("--time and --requests exclude each other");
		return -1;
	}
	if (o->c.write_ok) {
		hd_err("queue only reads; --write does not apply");
		return -1;
	}
	/* A name goes into sysfs as it is: no path, no list, no whitespace. */
	if (!o->scheduler[0] || strlen(o->scheduler) >= 32 || strspn(o->scheduler, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != strlen(o->scheduler)) {
		hd_err("--scheduler '%s': must be none, keep or the name of an I/O scheduler", o->scheduler);
		return -1;
	}
	return 0;
}

static const struct hd_cmdspec queue_spec = {
	HD_PROBE_SPEC("queue", "[OPTIONS] [DEVICE]"),
	.intro = "Random reads from N concurrent clients, for each N in --procs: how IOPS and\n"
		 "latency grow with the depth of the drive's command queue.  On a block device\n"
		 "or a file every client is a forked process with its own O_DIRECT descriptor;\n"
		 "on a simulated drive the clients are simulated against its queue.  On a\n"
		 "block device the I/O scheduler is set to none for the run (--scheduler) so\n"
		 "that the drive's own reordering is what is measured; the header records\n"
		 "scheduler, nr_requests and queue_depth as they were during the run.\n"
		 "\n"
		 "Pattern:\n",
	.opts = queue_options,
	.outro = "\n"
		 "Output: queue.tsv (one row per N) and queue-requests.tsv (one row per read);\n"
		 "with -o FILE.tsv the second is FILE-requests.tsv.\n",
	.check = queue_check,
};

static unsigned max_procs(const struct hd_queue_opts *o)
{
	unsigned m = 0;

	for (size_t i = 0; i < o->nprocs; i++)
		m = o->procs[i] > m ? o->procs[i] : m;
	return m;
}

/*
 * Size the span and map the shared region.  Returns 0 or an exit code
 * after printing why.
 */
static int queue_setup(const struct hd_queue_opts *o, struct hd_dev *d, struct queue_run *q)
{
	unsigned np = max_procs(o);
	size_t head = (sizeof(struct qshared) + 63) / 64 * 64;

	memset(q, 0, sizeof(*q));
	q->o = o;
	q->dev = d;
	if (o->block % d->io_align) {
		hd_err("--block %llu: not a multiple of the %u-byte access unit of %s",
		       (unsigned long long)o->block, (unsigned)d->io_align, d->path);
		return HD_EXIT_USAGE;
	}
	if (o->have_span && o->span > d->size) {
		hd_err("--span %llu: larger than %s (%llu bytes)", (unsigned long long)o->span, d->path,
		       (unsigned long long)d->size);
		return HD_EXIT_USAGE;
	}
	q->span = o->have_span ? o->span : d->size;
	q->nblocks = q->span / o->block;
	if (q->nblocks < 2) {
		hd_err("%s: span of %llu bytes holds fewer than two blocks of %llu", d->path,
		       (unsigned long long)q->span, (unsigned long long)o->block);
		return o->have_span ? HD_EXIT_USAGE : HD_EXIT_SETUP;
	}
	if (o->requests) {
		if (o->requests * np > QUEUE_MAX_RECORDS) {
			hd_err("--requests %llu with %u clients: %llu records, more than the %u this probe "
			       "holds", (unsigned long long)o->requests, np,
			       (unsigned long long)(o->requests * np), QUEUE_MAX_RECORDS);
			return HD_EXIT_USAGE;
		}
		q->total_slots = o->requests * np;
	} else {
		q->total_slots = QUEUE_TIME_RECORDS;
	}
	q->map_len = head + q->total_slots * sizeof(struct qrec);
	/* Populated now, so that no client takes a page fault while it runs. */
	q->sh = mmap(NULL, q->map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_POPULATE,
		     -1, 0);
	if (q->sh == MAP_FAILED) {
		hd_err("mmap %zu bytes of shared memory: %s", q->map_len, strerror(errno));
		q->sh = NULL;
		return HD_EXIT_SETUP;
	}
	q->rec = (struct qrec *)((char *)q->sh + head);
	return 0;
}

static void queue_reset(struct queue_run *q, unsigned n)
{
	memset(q->sh, 0, sizeof(*q->sh));
	q->nclients = n;
	q->per_client = q->o->requests ? q->o->requests : q->total_slots / n;
}

static uint64_t client_seed(uint64_t seed, unsigned procs, unsigned client)
{
	return seed * 0x9e3779b97f4a7c15ULL + (uint64_t)procs * 1000003u + client;
}

/* ---- real devices: forked clients ---- */

/*
 * One client process: open the device again, report ready, wait at the
 * barrier, then read until the deadline, the request count, a full record
 * space, or a stop.  Never returns.
 */
static void client_main(struct queue_run *q, unsigned client, pid_t parent, int ready_fd, int gate_fd)
{
	const struct hd_queue_opts *o = q->o;
	struct qclient *me = &q->sh->cl[client];
	struct qrec *rec = q->rec + (uint64_t)client * q->per_client;
	struct hd_dev *d = NULL;
	struct hd_rng rng;
	const char *call = "open";
	char err[512];
	void *buf = NULL;
	uint64_t n = 0;
	int consec = 0, rc;
	char c;

	/* A client must not outlive the parent, whatever kills it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	rc = hd_dev_open(&d, q->dev->path, 0, err, sizeof(err));
	if (rc == 0 && !(buf = hd_buf_alloc(d, o->block))) {
		call = "malloc";
		rc = -ENOMEM;
	}
	me->setup_rc = rc;
	me->setup_call = call;
	me->pid = (int32_t)getpid();
	if (write(ready_fd, "r", 1) != 1 || rc)
		_exit(1);
	close(ready_fd);
	/* The barrier: the parent closes the write end once every client is ready. */
	while (read(gate_fd, &c, 1) < 0 && errno == EINTR)
		;
	close(gate_fd);
	hd_rng_seed(&rng, client_seed(o->c.seed, q->nclients, client));
	while (!atomic_load_explicit(&q->sh->stop, memory_order_relaxed) && !hd_interrupted) {
		uint64_t off = hd_rng_below(&rng, q->nblocks) * o->block;
		int64_t t0, lat;

		/*
		 * One clock reading both decides and stamps the read: a client
		 * preempted between two readings would start a read past the
		 * deadline.
		 */
		t0 = hd_mono_ns();
		if (o->requests ? n >= o->requests : t0 >= q->sh->deadline_ns)
			break;
		if (n == q->per_client) {
			me->full = 1;
			atomic_store(&q->sh->stop, 1);
			break;
		}
		rc = hd_dev_timed(d, HD_OP_READ, buf, o->block, off, &lat);
		rec[n] = (struct qrec){ .off = off, .start_ns = t0 - q->sh->t0_ns, .lat_ns = lat, .rc = rc };
		n++;
		atomic_store_explicit(&me->n, n, memory_order_release);
		consec = rc ? consec + 1 : 0;
		if (consec >= HD_MAX_CONSEC_ERRORS)
			break;
	}
	_exit(0);
}

static void sleep_ms(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };

	nanosleep(&ts, NULL);
}

/* Wait for every listed child, stopping the clients on an interrupt. */
static void reap_all(struct queue_run *q, pid_t *pids, unsigned n, int *status, uint64_t *progress_base,
		     struct hd_run *run, uint64_t total)
{
	unsigned left = n;

	while (left) {
		for (unsigned i = 0; i < n; i++) {
			pid_t r;

			if (pids[i] <= 0)
				continue;
			r = waitpid(pids[i], &status[i], WNOHANG);
			if (r == pids[i] || (r < 0 && errno == ECHILD)) {
				pids[i] = -pids[i];
				left--;
			}
		}
		if (!left)
			break;
		if (hd_interrupted)
			atomic_store(&q->sh->stop, 1);
		if (run && progress_base) {
			uint64_t done = 0;
			const struct hd_queue_opts *o = q->o;

			if (o->requests) {
				for (unsigned i = 0; i < n; i++)
					done += atomic_load_explicit(&q->sh->cl[i].n, memory_order_relaxed);
				done = done * 1000 / (o->requests * n);
			} else {
				int64_t el = hd_mono_ns() - q->sh->t0_ns;

				done = el <= 0 ? 0 : el >= o->time_ns ? 1000 : (uint64_t)(el * 1000 / o->time_ns);
			}
			hd_run_progress(run, *progress_base + done, total);
		}
		sleep_ms(20);
	}
	for (unsigned i = 0; i < n; i++)
		pids[i] = -pids[i];
}

/*
 * Run n forked clients.  Returns 0, or -errno with *what naming the failed
 * call (*who the client, or -1 for the parent).
 */
static int run_forked(struct queue_run *q, unsigned n, struct hd_run *run, uint64_t base, uint64_t total,
		      const char **what, int *who)
{
	pid_t pids[QUEUE_MAX_PROCS], parent = getpid();
	int status[QUEUE_MAX_PROCS];
	int ready[2], gate[2], rc = 0;
	unsigned forked = 0, nready = 0;

	*who = -1;
	if (pipe2(ready, O_CLOEXEC) < 0) {
		*what = "pipe";
		return -errno;
	}
	if (pipe2(gate, O_CLOEXEC) < 0) {
		rc = -errno;
		close(ready[0]);
		close(ready[1]);
		*what = "pipe";
		return rc;
	}
	/* Buffered output must not be written twice by a child; clients leave with _exit(). */
	fflush(NULL);
	for (forked = 0; forked < n; forked++) {
		pid_t p = fork();

		if (p < 0) {
			rc = -errno;
			*what = "fork";
			break;
		}
		if (p == 0) {
			close(ready[0]);
			close(gate[1]);
			client_main(q, forked, parent, ready[1], gate[0]);
		}
		pids[forked] = p;
	}
	close(ready[1]);
	close(gate[0]);
	/* Every client reports once, ready or failed; EOF early means one died. */
	while (!rc && nready < forked) {
		char buf[QUEUE_MAX_PROCS];
		ssize_t k = read(ready[0], buf, forked - nready);

		if (k < 0 && errno == EINTR) {
			if (hd_interrupted)
				break;
			continue;
		}
		if (k <= 0)
			break;
		nready += (unsigned)k;
	}
	close(ready[0]);
	for (unsigned i = 0; i < forked && !rc; i++) {
		if (q->sh->cl[i].setup_rc) {
			rc = q->sh->cl[i].setup_rc;
			*what = q->sh->cl[i].setup_call;
			*who = (int)i;
		}
	}
	if (!rc && nready < forked) {
		rc = hd_interrupted ? -EINTR : -ECHILD;
		*what = "start client";
	}
	if (rc)
		atomic_store(&q->sh->stop, 1);
	q->sh->t0_ns = hd_mono_ns();
	q->sh->deadline_ns = q->sh->t0_ns + q->o->time_ns;
	/* The release: every client's read() on the gate returns at once. */
	close(gate[1]);
	reap_all(q, pids, forked, status, &base, run, total);
	for (unsigned i = 0; i < forked && !rc; i++) {
		if (WIFSIGNALED(status[i]) && !hd_interrupted) {
			rc = -EINTR;
			*what = "client killed by a signal";
			*who = (int)i;
		}
	}
	return rc;
}

/* ---- the simulated drive: closed-loop clients against its queue ---- */

static int run_simulated(struct queue_run *q, unsigned n, const char **what, int *who)
{
	const struct hd_queue_opts *o = q->o;
	struct hd_dev *d = q->dev;
	struct hd_rng rng[QUEUE_MAX_PROCS];
	void *buf = hd_buf_alloc(d, o->block * n);
	int64_t t0 = hd_dev_now(d), deadline = t0 + o->time_ns;
	int consec[QUEUE_MAX_PROCS] = { 0 }, rc = 0;
	struct hd_req r;

	*who = -1;
	if (!buf) {
		*what = "malloc";
		return -ENOMEM;
	}
	q->sh->t0_ns = t0;
	for (unsigned i = 0; i < n; i++) {
		hd_rng_seed(&rng[i], client_seed(o->c.seed, n, i));
		q->sh->cl[i].pid = 0;
	}
	/* Every client's first request arrives at once; each next one when its last completes. */
	for (unsigned i = 0; i < n && !rc; i++) {
		r = (struct hd_req){ .tag = i, .op = HD_OP_READ, .len = o->block,
				     .off = hd_rng_below(&rng[i], q->nblocks) * o->block,
				     .buf = (char *)buf + (size_t)i * o->block };
		if ((rc = hd_dev_submit(d, &r)))
			*what = "submit", *who = (int)i;
	}
	while (!rc) {
		struct qclient *c;
		uint64_t k;

		rc = hd_dev_reap(d, &r);
		if (rc == -EAGAIN) {
			rc = 0;
			break;
		}
		if (rc) {
			*what = "reap";
			break;
		}
		c = &q->sh->cl[r.tag];
		k = atomic_load(&c->n);
		q->rec[r.tag * q->per_client + k] = (struct qrec){ .off = r.off, .start_ns = r.submit_ns - t0,
			.lat_ns = r.done_ns - r.submit_ns, .rc = r.result };
		atomic_store(&c->n, ++k);
		consec[r.tag] = r.result ? consec[r.tag] + 1 : 0;
		if (hd_interrupted || consec[r.tag] >= HD_MAX_CONSEC_ERRORS || atomic_load(&q->sh->stop))
			continue;
		if (o->requests ? k >= o->requests : hd_dev_now(d) >= deadline)
			continue;
		if (k == q->per_client) {
			/* Only reachable with --time: every client stops with the full one. */
			c->full = 1;
			atomic_store(&q->sh->stop, 1);
			continue;
		}
		r.off = hd_rng_below(&rng[r.tag], q->nblocks) * o->block;
		r.buf = (char *)buf + (size_t)r.tag * o->block;
		if ((rc = hd_dev_submit(d, &r)))
			*what = "submit", *who = (int)r.tag;
	}
	hd_buf_free(buf, o->block * n);
	return rc;
}

/* ---- merging ---- */

/* The requests file's name beside the summary's: X.tsv -> X-requests.tsv. */
static char *requests_name(const char *out)
{
	size_t n = strlen(out);
	char *p;

	if (n > 4 && strcmp(out + n - 4, ".tsv") == 0)
		n -= 4;
	p = malloc(n + sizeof("-requests.tsv"));
	if (p) {
		memcpy(p, out, n);
		strcpy(p + n, "-requests.tsv");
	}
	return p;
}

/*
 * Write every record of the n clients as rows, account them, and compute
 * the exact summary from the merged latencies.  Returns 0 or -ENOMEM.
 */
static int merge(struct queue_run *q, unsigned n, struct hd_session *s, FILE *rows, struct queue_sum *sum)
{
	uint64_t total = 0, ok = 0;
	int64_t *lat, end = 0;
	double acc = 0;

	memset(sum, 0, sizeof(*sum));
	sum->procs = n;
	for (unsigned i = 0; i < n; i++)
		total += atomic_load(&q->sh->cl[i].n);
	lat = malloc((total ? total : 1) * sizeof(*lat));
	if (!lat)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		const struct qclient *c = &q->sh->cl[i];
		uint64_t cn = atomic_load(&c->n);

		sum->limited |= c->full;
		for (uint64_t j = 0; j < cn; j++) {
			const struct qrec *r = &q->rec[i * q->per_client + j];
			enum hd_class cls;

			hd_session_sample(s, r->rc, HD_OP_READ, r->off, r->lat_ns, &cls);
			fprintf(rows, "%u\t%u\t%d\t%" PRIu64 "\t", n, i, (int)c->pid, r->off);
			hd_put_ms(rows, r->start_ns);
			fputc('\t', rows);
			hd_put_ms(rows, r->lat_ns);
			fprintf(rows, "\t%s\n", hd_class_name(cls));
			if (r->start_ns + r->lat_ns > end)
				end = r->start_ns + r->lat_ns;
			if (r->rc == 0) {
				lat[ok++] = r->lat_ns;
				acc += (double)r->lat_ns;
			}
		}
	}
	sum->requests = total;
	sum->ok = ok;
	if (ok) {
		double secs = (double)end / 1e9;

		hd_sort_i64(lat, ok);
		sum->iops = secs > 0 ? (double)ok / secs : 0;
		sum->mb_s = sum->iops * (double)q->o->block / 1e6;
		sum->mean_ms = acc / (double)ok / 1e6;
		sum->p50 = hd_percentile_i64(lat, ok, 50);
		sum->p90 = hd_percentile_i64(lat, ok, 90);
		sum->p99 = hd_percentile_i64(lat, ok, 99);
		sum->max = lat[ok - 1];
	}
	free(lat);
	return 0;
}

static void put_sum(FILE *f, const struct queue_sum *m)
{
	fprintf(f, "%u\t%" PRIu64 "\t%.3f\t%.3f\t%.6f\t", m->procs, m->requests, m->iops, m->mb_s, m->mean_ms);
	hd_put_ms(f, m->p50);
	fputc('\t', f);
	hd_put_ms(f, m->p90);
	fputc('\t', f);
	hd_put_ms(f, m->p99);
	fputc('\t', f);
	hd_put_ms(f, m->max);
	fputc('\n', f);
}

/* One queue run: the options, the shared clients' state, the session and its two files. */
struct queue_ctx {
	struct hd_queue_opts o;
	struct queue_run q;
	struct hd_session s;
	struct hd_df_writer *rw;	/* the requests file */
	char *rname;
	char procs_list[QUEUE_MAX_LIST * 5];
	int simulated;
	struct queue_sum sums[QUEUE_MAX_LIST];
	size_t nsum;
};

/* The header lines of the summary and of the requests file. */
static void queue_headers(struct queue_ctx *x, void *buf)
{
	const struct hd_queue_opts *o = &x->o;
	struct hd_session *s = &x->s;
	size_t pl = 0;

	for (size_t i = 0; i < o->nprocs; i++)
		pl += (size_t)snprintf(x->procs_list + pl, sizeof(x->procs_list) - pl, "%s%u", i ? "," : "",
				       o->procs[i]);
	if (o->requests)
		hd_dfw_meta(s->w, "params", "procs=%s block=%llu span=%llu requests=%llu seed=%llu", x->procs_list,
			    (unsigned long long)o->block, (unsigned long long)x->q.span,
			    (unsigned long long)o->requests, (unsigned long long)o->c.seed);
	else
		hd_dfw_meta(s->w, "params", "procs=%s block=%llu span=%llu time_s=%.6f seed=%llu", x->procs_list,
			    (unsigned long long)o->block, (unsigned long long)x->q.span, (double)o->time_ns / 1e9,
			    (unsigned long long)o->c.seed);
	hd_dfw_meta(s->w, "span_bytes", "%llu", (unsigned long long)x->q.span);
	hd_dfw_meta(s->w, "phase", "random by placement: every read at an independent random offset within span_bytes; "
		    "no delay");
	hd_dfw_meta(s->w, "clients", "%s", x->simulated ? "simulated (closed loops against the drive's queue)"
						     : "processes (fork, one O_DIRECT descriptor each)");
	/* Progress in client counts (--procs), measured in thousandths of one. */
	s->run.unit = "client counts";
	s->run.unit_scale = 1000;
	s->run.total = o->nprocs * 1000;
	/* Progress counts thousandths of each N; samples are known in advance only with --requests. */
	s->timed = 1;
	for (size_t i = 0; o->requests && i < o->nprocs; i++)
		s->planned += o->requests * o->procs[i];
	hd_session_calibrate(s, buf, o->block);
	hd_run_header(&s->run, x->rw);
	hd_dfw_meta(x->rw, "table", "requests");
	hd_dfw_meta(x->rw, "summary_file", "%s", s->out);
	hd_session_idle_meta(s, x->rw);
	hd_dfw_meta(x->rw, "params", "procs=%s block=%llu span=%llu seed=%llu", x->procs_list,
		    (unsigned long long)o->block, (unsigned long long)x->q.span, (unsigned long long)o->c.seed);
	hd_dfw_meta(x->rw, "phase", "random by placement: every read at an independent random offset within the span; "
		    "no delay");
	if (s->run.cache_threshold_ns >= 0)
		hd_dfw_meta(x->rw, "cache_threshold_ms", "%.6f", (double)s->run.cache_threshold_ns / 1e6);
	else
		hd_dfw_meta(x->rw, "cache_threshold_ms", "none");
}

/* Every N of --procs in turn; returns how many ran, with *failed set on a failure. */
static size_t queue_loop(struct queue_ctx *x, int *failed)
{
	const struct hd_queue_opts *o = &x->o;
	struct hd_session *s = &x->s;
	size_t i;
	int rc;

	for (i = 0; i < o->nprocs && !hd_session_stop(s); i++) {
		unsigned n = o->procs[i];
		const char *what = "";
		int who = -1;
		uint64_t before = s->nrows;

		queue_reset(&x->q, n);
		if (x->simulated)
			rc = run_simulated(&x->q, n, &what, &who);
		else
			rc = run_forked(&x->q, n, &s->run, (uint64_t)i * 1000, o->nprocs * 1000, &what, &who);
		if (rc && !(rc == -EINTR && hd_interrupted)) {
			if (who >= 0)
				hd_err("%s %s (client %d of %u): %s", what, s->dev->path, who, n, strerror(-rc));
			else
				hd_err("%s %s (%u clients): %s", what, s->dev->path, n, strerror(-rc));
			*failed = 1;
		}
		if (merge(&x->q, n, s, hd_dfw_rows(x->rw), &x->sums[x->nsum])) {
			hd_err("%s: out of memory merging %u clients", s->dev->path, n);
			*failed = 1;
			break;
		}
		/* An N cut short by an interrupt is still a measurement; an empty one is not. */
		if (s->nrows > before)
			put_sum(s->rows, &x->sums[x->nsum++]);
		hd_run_progress(&s->run, (i + 1) * 1000, o->nprocs * 1000);
		if (*failed)
			break;
	}
	return i;
}

/* Which N stopped early because a client filled its share of the records. */
static void note_limited(struct queue_ctx *x)
{
	char lim[QUEUE_MAX_LIST * 5] = "";
	size_t ll = 0;

	for (size_t k = 0; k < x->nsum; k++)
		if (x->sums[k].limited)
			ll += (size_t)snprintf(lim + ll, sizeof(lim) - ll, "%s%u", ll ? "," : "", x->sums[k].procs);
	if (ll)
		hd_dfw_meta(x->s.w, "limited", "procs=%s: a client filled its %llu-record share, all "
			    "stopped before --time", lim, (unsigned long long)(QUEUE_TIME_RECORDS));
}

/* Finish the requests file; the summary names it only when it was written.  Returns 0 or -1. */
static int finish_requests(struct queue_ctx *x, int complete)
{
	const char *call;
	int rc;

	hd_dfw_meta(x->rw, "samples", "%" PRIu64, x->s.nrows);
	hd_dfw_columns(x->rw, "procs client pid offset_bytes start_ms latency_ms class");
	rc = hd_dfw_finish(x->rw, complete, &call);
	x->rw = NULL;
	if (rc) {
		hd_err("%s %s: %s", call, x->rname, hd_fs_strerror(rc));
		hd_dfw_meta(x->s.w, "requests_file", "none (%s %s: %s)", call, x->rname, hd_fs_strerror(rc));
		return -1;
	}
	hd_dfw_meta(x->s.w, "requests_file", "%s", x->rname);
	return 0;
}

/* Results on stdout, as bench's; progress and messages on stderr. */
static void print_table(const struct queue_sum *sums, size_t nsum)
{
	printf("%6s %10s %10s %10s %10s %10s\n", "procs", "requests", "IOPS", "p50 ms", "p99 ms", "max ms");
	for (size_t k = 0; k < nsum; k++)
		printf("%6u %10" PRIu64 " %10.1f %10.3f %10.3f %10.3f\n", sums[k].procs, sums[k].requests,
		       sums[k].iops, (double)sums[k].p50 / 1e6, (double)sums[k].p99 / 1e6,
		       (double)sums[k].max / 1e6);
}

/* The shared state, the buffer and the requests file; an exit code (after printing why) or 0. */
static int queue_prepare(struct queue_ctx *x, void **buf)
{
	struct hd_dev *d = x->s.dev;
	int rc, ex = queue_setup(&x->o, d, &x->q);

	if (!ex && !(*buf = hd_buf_alloc(d, x->o.block))) {
		hd_err("%s: cannot allocate a %llu-byte buffer", d->path, (unsigned long long)x->o.block);
		ex = HD_EXIT_SETUP;
	}
	if (!ex && !(x->rname = requests_name(x->s.out)))
		ex = HD_EXIT_SETUP;
	if (!ex && (rc = hd_dfw_open(&x->rw, x->rname, "queue"))) {
		hd_err("create %s: %s", x->rname, hd_fs_strerror(rc));
		ex = HD_EXIT_SETUP;
	}
	return ex;
}

static int queue_run(void *vo)
{
	struct queue_ctx *x = calloc(1, sizeof(*x));
	void *buf = NULL;
	int ex, failed = 0, complete;
	size_t ran;

	if (!x) {
		hd_err("queue: out of memory");
		return HD_EXIT_SETUP;
	}
	x->o = *(const struct hd_queue_opts *)vo;
	/* The host must not reorder what is credited to the drive: the session pins the scheduler and restores it. */
	x->o.c.scheduler = x->o.scheduler;
	x->o.c.scheduler_given = x->o.have_scheduler;
	ex = hd_session_begin(&x->s, "queue", &x->o.c, 0, "queue.tsv");
	if (ex)
		goto done;
	ex = queue_prepare(x, &buf);
	if (ex) {
		hd_session_abort(&x->s);
		goto done;
	}
	x->simulated = hd_dev_can_queue(x->s.dev);
	queue_headers(x, buf);
	ran = queue_loop(x, &failed);
	note_limited(x);
	complete = ran == x->o.nprocs && !failed && !hd_session_stop(&x->s);
	if (finish_requests(x, complete))
		failed = 1;
	if (!x->o.c.quiet && x->nsum) {
		hd_run_progress_end(&x->s.run);
		x->s.run.progress = 0;
		print_table(x->sums, x->nsum);
	}
	ex = hd_session_end(&x->s, "procs requests iops mb_s lat_mean_ms lat_p50_ms lat_p90_ms lat_p99_ms "
				   "lat_max_ms", complete);
	if (failed && ex == HD_EXIT_OK)
		ex = HD_EXIT_RUNTIME;
done:
	if (x->rw)
		hd_dfw_abort(x->rw);
	if (x->q.sh)
		munmap(x->q.sh, x->q.map_len);
	hd_buf_free(buf, x->o.block);
	free(x->rname);
	free(x);
	return ex;
}

const struct hd_probe hd_probe_queue = { "queue", &queue_spec, sizeof(struct hd_queue_opts), queue_run };

int hd_cmd_queue(int argc, char **argv)
{
	return hd_probe_main(&hd_probe_queue, argc, argv);
}
