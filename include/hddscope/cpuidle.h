/*
 * The host's CPUs held out of their idle states while something is timed.
 * Left to halt (a virtual machine's haltpoll or HLT, a host's C-states) a
 * CPU takes tens to hundreds of microseconds to wake, and that wake falls
 * inside every completion that followed a wait: host time credited to the
 * drive.  Two ways, the first that works:
 * - a PM QoS request of 0 us on /dev/cpu_dma_latency, which the kernel
 *   keeps while the file stays open and drops when it is closed or the
 *   process ends, however it ends (nothing to restore).  Only a cpuidle
 *   driver reads it: an idle CPU then polls;
 * - where no cpuidle driver reads the request (a virtual machine whose
 *   current_driver is "none": its idle CPUs halt whatever is requested) or
 *   it cannot be taken (not root), one thread a CPU, pinned there at
 *   SCHED_IDLE, spinning: the CPU is never idle, and a thread of the same
 *   scheduling group that wakes on it preempts the spinner at once.  They
 *   spin only while the machine would leave a CPU idle (busier, no CPU
 *   halts anyway, and another group's work would share its CPU with them);
 *   one process on the machine spins (cpuidle.c says why); a later one
 *   leaves the CPUs to it, and spins in its place if it ends first.  The cost is the poll state's: the CPUs run while the
 *   hold lasts.  On this project's machine (no driver) the emulator's
 *   self-test gave an added p50 of 0.06 to 0.18 ms and an RMS of 1.1 to
 *   1.4 ms with the CPUs halting, 0.004 to 0.02 ms and 0.01 to 0.06 ms
 *   with them spun.
 */
#ifndef HDDSCOPE_CPUIDLE_H
#define HDDSCOPE_CPUIDLE_H

#include <stddef.h>

struct hd_idle_spin;
struct hd_idle_watch;

struct hd_idle_hold {
	int fd;		/* the open request, or -1 */
	char why[160];	/* why the request is not enough (fd -1, or no driver), or why nothing holds */
	int honoured;	/* with fd open: a cpuidle driver reads the request */
	struct hd_idle_spin *spin; /* the spinning threads, or NULL */
	int others;	/* another process's spinners hold the CPUs (one set a machine) */
	struct hd_idle_watch *watch; /* with others: waits to spin in their place */
};

/*
 * Hold the CPUs (allow: take nothing, why "--allow-idle").  Never fatal:
 * where neither way can be had, why says so.  Returns 0 when held.
 */
int hd_idle_hold(struct hd_idle_hold *h, int allow);
/* Whether the CPUs are held (by either way). */
int hd_idle_held(const struct hd_idle_hold *h);
/* Let them go (a hold never taken, or already dropped, is left as it is). */
void hd_idle_release(struct hd_idle_hold *h);
/*
 * What a data file's cpu_idle says: "polled (PM QoS 0 us on
 * /dev/cpu_dma_latency)", "polled (an idle-priority thread spinning on each
 * of N CPUs: why)", "polled (another hddscope process's idle-priority
 * threads spin on each CPU: why)" or "allowed (why)".
 */
void hd_idle_note(const struct hd_idle_hold *h, char *buf, size_t len);

#endif
