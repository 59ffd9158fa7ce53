/* The CPUs held out of their idle states (cpuidle.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "hddscope/cpuidle.h"

#define QOS_PATH "/dev/cpu_dma_latency"
#define DRIVER_PATH "/sys/devices/system/cpu/cpuidle/current_driver"
/*
 * One set of spinners on the machine: spinners of two processes keep each
 * other's process runnable, and where the two lie in different scheduling
 * groups (an autogroup each: the emulator runs in a session of its own)
 * the groups share each CPU fairly, so the timed thread waits for the
 * other group's spinner (a quarter of an emulated drive's seek samples
 * kept waiting over 50 us, against one in a hundred with one set).  The
 * first process binds this abstract socket name (nothing on the file
 * system; the kernel lets it go when the process ends, however it ends)
 * and spins; a later one finds it taken and leaves the CPUs to it.
 */
#define SPIN_NAME "hddscope-idle-spin"
/* How often a process whose connection the holder's full queue refused tries again. */
#define WATCH_RETRY_MS 20
/*
 * A spinner is idle only within its own scheduling group: against another
 * group (another session's autogroup, a service's cgroup) its group takes
 * its fair share of the CPU.  So the spinners spin only while the machine
 * would leave a CPU idle: the threads runnable (/proc/loadavg), less the
 * spinners, fewer than the CPUs.  Busier, the CPUs do not halt anyway, and
 * the spinners sleep (BUSY_NAP_NS at a time, the first one looking again
 * every SPIN_LOOK_NS while it spins, busy at BUSY_LOOKS looks in a row):
 * beside two busy loops, an emulator's
 * spinners took half of each CPU from the session that timed it, and the
 * cache probe's hits through it spread over 20 ms.
 */
#define SPIN_LOOK_NS 1000000
#define BUSY_NAP_NS 5000000
#define BUSY_LOOKS 8
#define LOADAVG_PATH "/proc/loadavg"

/*
 * The spinning threads: one a CPU of the process's affinity.  Nothing ever
 * waits for one: a SCHED_IDLE thread on a busy CPU waits long to run (its
 * weight is 3 against a normal thread's 1024), and joining them at the end
 * of each probe, a quick profile beside three others and two busy loops
 * was still ending after its last data file was whole when e2e.integrity's
 * SIGINT came.  They are made detached and lowered by the thread that
 * starts them, spin once told to go, and the last of them and the hold to
 * let go frees the set.
 */
struct hd_idle_spin {
	atomic_int stop;
	atomic_int go;		/* every thread lowered to SCHED_IDLE: spin */
	atomic_int busy;	/* the machine needs no spinner: they nap */
	atomic_int refs;	/* the threads alive, and the hold */
	int load_fd;		/* LOADAVG_PATH, or -1: spin whatever the load */
	int n;
	int name_fd;		/* the bound SPIN_NAME, or -1 once let go */
	struct spin_arg {
		struct hd_idle_spin *sp;
		int first;	/* the one that looks at the load */
	} *arg;
};

static void spin_unref(struct hd_idle_spin *sp)
{
	if (atomic_fetch_sub(&sp->refs, 1) != 1)
		return;
	if (sp->load_fd >= 0)
		close(sp->load_fd);
	free(sp->arg);
	free(sp);
}

/*
 * Whether the kernel has a cpuidle driver, the only reader of a PM QoS
 * latency request: without one an idle CPU takes the architecture's
 * default idle (a halt), whatever is requested.  1, or 0 where the driver
 * is "none" or the file cannot be read.
 */
static int have_driver(void)
{
	char name[64] = "";
	FILE *f = fopen(DRIVER_PATH, "re");

	if (!f)
		return 0;
	if (!fgets(name, sizeof(name), f))
		name[0] = '\0';
	fclose(f);
	name[strcspn(name, "\n")] = '\0';
	return name[0] && strcmp(name, "none") != 0;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * Whether the machine is busy without the spinners: its runnable threads
 * (the fourth field of /proc/loadavg, "running/all"), less the spinners
 * that spin (all of them, or this one while they nap), at least the CPUs.
 */
static int machine_busy(const struct hd_idle_spin *sp, int napping)
{
	char buf[128];
	ssize_t k = pread(sp->load_fd, buf, sizeof(buf) - 1, 0);
	double a1, a5, a15;
	int running;

	buf[k > 0 ? k : 0] = '\0';
	if (sscanf(buf, "%lf %lf %lf %d/", &a1, &a5, &a15, &running) != 4)
		return 0;
	return running - (napping ? 1 : sp->n) >= sp->n;
}

static void *spin_main(void *p)
{
	struct spin_arg *a = p;
	struct hd_idle_spin *sp = a->sp;

	/* At the normal priority until lowered: yield, never spin. */
	while (!atomic_load(&sp->go) && !atomic_load(&sp->stop))
		sched_yield();
	for (int64_t looked = 0, run = 0; !atomic_load_explicit(&sp->stop, memory_order_relaxed);) {
		/*
		 * The first spinner looks at the load now and then, for all of them:
		 * busy at BUSY_LOOKS looks in a row (the timed threads themselves
		 * run now and then, a drive's emulator beside them), free at the
		 * first look that is not.
		 */
		if (a->first && sp->load_fd >= 0) {
			int64_t now = mono_ns();

			if (now - looked >= SPIN_LOOK_NS) {
				run = machine_busy(sp, atomic_load(&sp->busy)) ? run + 1 : 0;
				atomic_store(&sp->busy, run >= BUSY_LOOKS);
				looked = now;
			}
		}
		if (atomic_load_explicit(&sp->busy, memory_order_relaxed)) {
			struct timespec nap = { 0, BUSY_NAP_NS };

			nanosleep(&nap, NULL);
			continue;
		}
		cpu_relax();
	}
	spin_unref(sp);
	return NULL;
}

/* Tell the spinners to stop and let the name go at once; they end as they next run. */
static void spin_stop(struct hd_idle_spin *sp)
{
	atomic_store(&sp->stop, 1);
	if (sp->name_fd >= 0)
		close(sp->name_fd);
	sp->name_fd = -1;
	spin_unref(sp);
}

/* SPIN_NAME's address and length. */
static socklen_t spin_addr(struct sockaddr_un *a)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	/* Abstract: sun_path begins with a zero byte, and the length ends the name. */
	memcpy(a->sun_path + 1, SPIN_NAME, sizeof(SPIN_NAME) - 1);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + sizeof(SPIN_NAME));
}

/*
 * SPIN_NAME bound to a new socket that listens (a process that found it
 * taken connects, and learns by the hang-up when it is free): its fd, or
 * -errno (-EADDRINUSE: another process spins).
 */
static int spin_name(void)
{
	struct sockaddr_un a;
	socklen_t alen = spin_addr(&a);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), e;

	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&a, alen) || listen(fd, 64)) {
		e = errno;
		close(fd);
		return -e;
	}
	return fd;
}

/*
 * Start the spinners; 0, EADDRINUSE where another process spins, or an
 * errno with call naming what failed.
 */
static int spin_start(struct hd_idle_spin **out, const char **call)
{
	struct hd_idle_spin *sp;
	struct sched_param prio = { .sched_priority = 0 };
	pthread_attr_t at;
	cpu_set_t mine, one;
	int cpus, rc = 0, name;

	*out = NULL;
	*call = "sched_getaffinity";
	if (sched_getaffinity(0, sizeof(mine), &mine))
		return errno;
	cpus = CPU_COUNT(&mine);
	*call = "bind " SPIN_NAME;
	if ((name = spin_name()) < 0)
		return -name;
	*call = "malloc";
	sp = calloc(1, sizeof(*sp));
	if (!sp || !(sp->arg = calloc((size_t)cpus, sizeof(*sp->arg)))) {
		free(sp);
		close(name);
		return ENOMEM;
	}
	sp->name_fd = name;
	sp->load_fd = open(LOADAVG_PATH, O_RDONLY | O_CLOEXEC);
	atomic_store(&sp->refs, 1);
	*call = "pthread_attr_init";
	if ((rc = pthread_attr_init(&at)) || (rc = pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED))) {
		spin_stop(sp);
		return rc;
	}
	for (int cpu = 0; cpu < CPU_SETSIZE && sp->n < cpus && !rc; cpu++) {
		pthread_t t;

		if (!CPU_ISSET(cpu, &mine))
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		sp->arg[sp->n] = (struct spin_arg){ sp, sp->n == 0 };
		*call = "pthread_attr_setaffinity_np";
		if ((rc = pthread_attr_setaffinity_np(&at, sizeof(one), &one)))
			break;
		*call = "pthread_create";
		atomic_fetch_add(&sp->refs, 1);
		if ((rc = pthread_create(&t, &at, spin_main, &sp->arg[sp->n]))) {
			atomic_fetch_sub(&sp->refs, 1);
			break;
		}
		sp->n++;
		/* A thread that cannot be lowered must not spin at a normal priority: all stop. */
		*call = "pthread_setschedparam SCHED_IDLE";
		rc = pthread_setschedparam(t, SCHED_IDLE, &prio);
	}
	pthread_attr_destroy(&at);
	if (rc) {
		spin_stop(sp);
		return rc;
	}
	atomic_store(&sp->go, 1);
	*out = sp;
	return 0;
}

/*
 * A process that found another spinning waits, connected to SPIN_NAME,
 * for that process to let it go (it ended, or its hold did), and then
 * spins in its place, so that the CPUs stay held while either times.
 */
struct hd_idle_watch {
	int stop[2];			/* a pipe: written when the hold is dropped */
	pthread_t t;
	struct hd_idle_spin *took;	/* the spinners it started, if it did */
};

/* Wait for fd to hang up or the hold to be dropped, at most ms (-1: no limit): 1 when dropped. */
static int watch_wait(struct hd_idle_watch *w, int fd, int ms)
{
	struct pollfd pf[2] = { { .fd = w->stop[0], .events = POLLIN }, { .fd = fd, .events = POLLIN } };

	while (poll(pf, fd >= 0 ? 2 : 1, ms) < 0 && errno == EINTR)
		;
	return pf[0].revents != 0;
}

static void *watch_main(void *p)
{
	struct hd_idle_watch *w = p;
	struct sockaddr_un a;
	socklen_t alen = spin_addr(&a);
	const char *call;

	for (;;) {
		/*
		 * Not blocking: the holder never accepts, so its queue keeps
		 * every connection made to it (of processes long ended too), and
		 * once full a blocking connect would wait for the holder's end:
		 * a process ending meanwhile waited for it in watch_stop.  A full
		 * queue (EAGAIN) is looked at again every WATCH_RETRY_MS.
		 */
		int c = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), rc;

		if (c < 0)
			return NULL;
		if (connect(c, (struct sockaddr *)&a, alen) == 0) {
			if (watch_wait(w, c, -1)) {
				close(c);
				return NULL;
			}
		} else if (errno == EAGAIN) {
			close(c);
			if (watch_wait(w, -1, WATCH_RETRY_MS))
				return NULL;
			continue;
		}
		close(c);
		rc = spin_start(&w->took, &call);
		if (rc == 0) {
			watch_wait(w, -1, -1);
			return NULL;
		}
		if (rc != EADDRINUSE)
			return NULL;
		/* Taken again, or bound and not yet listening: try again shortly. */
		if (watch_wait(w, -1, 1))
			return NULL;
	}
}

/* Start the watcher: 0 or an errno. */
static int watch_start(struct hd_idle_hold *h)
{
	struct hd_idle_watch *w = calloc(1, sizeof(*w));
	int rc;

	if (!w)
		return ENOMEM;
	if (pipe2(w->stop, O_CLOEXEC)) {
		rc = errno;
		free(w);
		return rc;
	}
	if ((rc = pthread_create(&w->t, NULL, watch_main, w))) {
		close(w->stop[0]);
		close(w->stop[1]);
		free(w);
		return rc;
	}
	h->watch = w;
	return 0;
}

static void watch_stop(struct hd_idle_watch *w)
{
	char one = 1;

	while (write(w->stop[1], &one, 1) < 0 && errno == EINTR)
		;
	pthread_join(w->t, NULL);
	if (w->took)
		spin_stop(w->took);
	close(w->stop[0]);
	close(w->stop[1]);
	free(w);
}

int hd_idle_hold(struct hd_idle_hold *h, int allow)
{
	int32_t zero = 0;
	const char *call;
	char first[sizeof(h->why)];
	int e;

	h->fd = -1;
	h->why[0] = '\0';
	h->honoured = 0;
	h->spin = NULL;
	h->watch = NULL;
	h->others = 0;
	if (allow) {
		snprintf(h->why, sizeof(h->why), "--allow-idle");
		return -1;
	}
	h->fd = open(QOS_PATH, O_WRONLY | O_CLOEXEC);
	if (h->fd >= 0 && write(h->fd, &zero, sizeof(zero)) == (ssize_t)sizeof(zero)) {
		if ((h->honoured = have_driver()))
			return 0;
		snprintf(h->why, sizeof(h->why), "the kernel has no cpuidle driver to read PM QoS");
	} else {
		e = errno;
		snprintf(h->why, sizeof(h->why), "%s %s: %s", h->fd < 0 ? "open" : "write", QOS_PATH, strerror(e));
		if (h->fd >= 0)
			close(h->fd);
		h->fd = -1;
	}
	if ((e = spin_start(&h->spin, &call)) == 0)
		return 0;
	if (e == EADDRINUSE) {
		call = "pthread_create";
		if ((e = watch_start(h)) == 0) {
			h->others = 1;
			return 0;
		}
	}
	snprintf(first, sizeof(first), "%s", h->why);
	snprintf(h->why, sizeof(h->why), "%.80s; %s: %s", first, call, strerror(e));
	return -1;
}

int hd_idle_held(const struct hd_idle_hold *h)
{
	return (h->fd >= 0 && h->honoured) || h->spin || h->others;
}

void hd_idle_release(struct hd_idle_hold *h)
{
	if (h->watch)
		watch_stop(h->watch);
	h->watch = NULL;
	if (h->spin)
		spin_stop(h->spin);
	h->spin = NULL;
	h->others = 0;
	if (h->fd >= 0)
		close(h->fd);
	h->fd = -1;
}

void hd_idle_note(const struct hd_idle_hold *h, char *buf, size_t len)
{
	if (h->fd >= 0 && h->honoured)
		snprintf(buf, len, "polled (PM QoS 0 us on " QOS_PATH ")");
	else if (h->spin)
		snprintf(buf, len, "polled (an idle-priority thread spinning on each of %d CPUs: %s)", h->spin->n,
			 h->why);
	else if (h->others)
		snprintf(buf, len, "polled (another hddscope process's idle-priority threads spin on each CPU: %s)",
			 h->why);
	else
		snprintf(buf, len, "allowed (%s)", h->why);
}
