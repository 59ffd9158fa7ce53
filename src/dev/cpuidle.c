/* The PM QoS hold on the CPUs' idle states (cpuidle.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/cpuidle.h"

#define QOS_PATH "/dev/cpu_dma_latency"

int hd_idle_hold(struct hd_idle_hold *h, int allow)
{
	int32_t zero = 0;
	int e;

	h->fd = -1;
	h->why[0] = '\0';
	if (allow) {
		snprintf(h->why, sizeof(h->why), "--allow-idle");
		return -1;
	}
	h->fd = open(QOS_PATH, O_WRONLY | O_CLOEXEC);
	if (h->fd >= 0 && write(h->fd, &zero, sizeof(zero)) == (ssize_t)sizeof(zero))
		return 0;
	e = errno;
	snprintf(h->why, sizeof(h->why), "%s %s: %s", h->fd < 0 ? "open" : "write", QOS_PATH, strerror(e));
	if (h->fd >= 0)
		close(h->fd);
	h->fd = -1;
	return -1;
}

void hd_idle_release(struct hd_idle_hold *h)
{
	if (h->fd >= 0)
		close(h->fd);
	h->fd = -1;
}

void hd_idle_note(const struct hd_idle_hold *h, char *buf, size_t len)
{
	if (h->fd >= 0)
		snprintf(buf, len, "polled (PM QoS 0 us on " QOS_PATH ")");
	else
		snprintf(buf, len, "allowed (%s)", h->why);
}
