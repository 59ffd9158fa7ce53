/*
 * A simulated drive served as a kernel block device (hddscope emulate):
 * a FUSE file system holding one file, "disk", of the model's capacity,
 * and a loop device with direct I/O over that file.  Every request that
 * reaches the file is stamped on arrival (CLOCK_MONOTONIC) and submitted
 * to the engine, whose clock is real time since the start; its reply is
 * sent at the completion the model gives, waited for with an absolute
 * deadline.  Concurrent requests meet in the engine's queue.
 */
#ifndef HDDSCOPE_EMU_H
#define HDDSCOPE_EMU_H

#include <stddef.h>
#include <stdint.h>

struct hd_emu;

/* One request as the emulator saw it, in ns of its clock (for the self-test). */
struct hd_emu_rec {
	int write;
	uint64_t off;
	uint32_t len;
	int64_t arrival_ns, done_ns, reply_ns;
};

/*
 * Is this machine able to emulate?  0, or -errno with the reason in err
 * (no /dev/fuse, no loop devices, not root, no fusermount3).
 */
int hd_emu_check(char *err, size_t errlen);
/*
 * hd_emu_start's flags: HD_EMU_RAW, reply at the modelled completion itself
 * (no path compensation); HD_EMU_ALLOW_IDLE, leave the CPUs' idle states
 * alone (by default the emulator holds a PM QoS request of 0 us on
 * /dev/cpu_dma_latency while it serves, cpuidle.h).
 */
#define HD_EMU_RAW 1u
#define HD_EMU_ALLOW_IDLE 2u

/*
 * Start serving model (a preset name or a .drive) with seed: mounts the
 * file system on dir (an existing empty directory; NULL: a new one under
 * $TMPDIR or /tmp, removed at the end) and attaches a loop device.  Then,
 * unless flags has HD_EMU_RAW, it times the kernel path's round trip
 * (reads the file system answers at once) and takes it out of every
 * modelled time: half before the arrival stamp, half after the reply, so
 * that a client sees the model's service time.  0 or -errno with
 * "object: call: reason" in err.
 */
int hd_emu_start(struct hd_emu **out, const char *model, uint64_t seed, const char *dir, unsigned flags, char *err,
		 size_t errlen);
/* The path round trip taken out of each modelled time (0 with HD_EMU_RAW), ns. */
int64_t hd_emu_path_ns(const struct hd_emu *e);
/* The CPUs' idle hold (cpuidle.h): fd -1 where it holds none, and why. */
struct hd_idle_hold;
const struct hd_idle_hold *hd_emu_idle(const struct hd_emu *e);
/* The loop device's path, e.g. "/dev/loop3"; the mount point. */
const char *hd_emu_device(const struct hd_emu *e);
const char *hd_emu_mount(const struct hd_emu *e);
/* Keep a record of every request from now on (at most max, the rest counted only). */
int hd_emu_record(struct hd_emu *e, size_t max);
/* The records kept so far; *n of them. */
const struct hd_emu_rec *hd_emu_records(const struct hd_emu *e, size_t *n);
/*
 * Detach the loop device once its users have closed it (waiting for them,
 * saying so once), unmount, remove what start made.  0, or -errno with
 * the reason in err.  Frees e either way.
 */
int hd_emu_stop(struct hd_emu *e, char *err, size_t errlen);
/*
 * Stop the emulator serving dev (another process): SIGTERM to it and wait;
 * where it is gone, clean up what it left (the loop device, the mount).
 * What was done goes to stderr.  0, -ENODEV when dev is not an emulated
 * drive, another -errno with the reason in err.
 */
int hd_emu_stop_device(const char *dev, char *err, size_t errlen);
/*
 * What an emulator that died leaves, undone: the loop device dev let go
 * (detached once its users close it), mnt unmounted, and removed where the
 * emulator made it.  Each step taken is said on stderr.  0 or -errno.
 */
int hd_emu_clean_after(const char *dev, const char *mnt, char *err, size_t errlen);

#endif
