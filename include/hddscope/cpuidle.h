/*
 * The host's CPUs held out of their idle states while something is timed:
 * a PM QoS request of 0 us on /dev/cpu_dma_latency, which the kernel keeps
 * while the file stays open and drops when it is closed or the process
 * ends, however it ends (nothing to restore).  An idle CPU then polls; left
 * to halt (a virtual machine's haltpoll, a host's C-states) it takes tens
 * to hundreds of microseconds to wake, and that wake falls inside every
 * completion that followed a wait: host time credited to the drive.
 */
#ifndef HDDSCOPE_CPUIDLE_H
#define HDDSCOPE_CPUIDLE_H

#include <stddef.h>

struct hd_idle_hold {
	int fd;		/* the open request, or -1 */
	char why[160];	/* with fd -1: why there is none */
};

/*
 * Take the request (allow: take none, why "--allow-idle").
 * Never fatal: where it cannot be had (no such file, not root) why says so,
 * "open /dev/cpu_dma_latency: Permission denied".  Returns 0 when held.
 */
int hd_idle_hold(struct hd_idle_hold *h, int allow);
/* Drop it (a hold never taken, or already dropped, is left as it is). */
void hd_idle_release(struct hd_idle_hold *h);
/* What a data file's cpu_idle says: "polled (PM QoS 0 us on ...)" or "allowed (why)". */
void hd_idle_note(const struct hd_idle_hold *h, char *buf, size_t len);

#endif
