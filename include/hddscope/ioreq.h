/*
 * An I/O request, the vocabulary that the device interface (dev.h) and the
 * simulator engine (sim.h) share.  It lives below both so that the engine
 * can queue requests without knowing anything of devices.
 */
#ifndef HDDSCOPE_IOREQ_H
#define HDDSCOPE_IOREQ_H

#include <stddef.h>
#include <stdint.h>

enum hd_op {
	HD_OP_READ,
	HD_OP_WRITE,
};

/*
 * A request of the optional asynchronous interface (submit/reap), used by
 * backends that can hold several outstanding requests from several clients
 * at once (the simulated drive's command queue).
 */
struct hd_req {
	uint64_t tag;		/* caller's cookie, returned by reap */
	enum hd_op op;
	uint64_t off;
	size_t len;
	void *buf;
	int64_t submit_ns;	/* filled by submit: the backend clock at arrival */
	int64_t done_ns;	/* filled by reap: the backend clock at completion */
	int result;		/* filled by reap: 0 or -errno */
};

#endif
