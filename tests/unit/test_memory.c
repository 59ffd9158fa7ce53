/*
 * Memory over many runs in one process: every probe is run 200 times
 * through its command entry point on a simulated drive, as "hddscope
 * profile" and the tests do in-process, and after the first few runs
 * (stdio buffers, allocator arenas and the like are set up once) neither
 * the resident set size (/proc/self/statm) nor the heap in use (glibc's
 * mallinfo2, or AddressSanitizer's own count) may grow.  This catches what
 * leak checkers cannot, such as memory that stays reachable (a cache or
 * list that only grows) and would exhaust a long-running process; in the
 * sanitizer build LeakSanitizer is also asked, after the runs, whether
 * anything leaked.  Two controls show the checks can fail: runs that hold
 * on to memory on purpose are seen to grow, and a block leaked on purpose
 * is seen by LeakSanitizer (so the suite's leak detection is really on).
 */
#include <check.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hddscope/cmd.h"
#include "hddscope/probe.h"
#include "testutil.h"

#define RUNS 200
/*
 * Runs before the baseline: the RSS settles within about 10 runs (thread
 * stacks and malloc arenas of the queue probe's clients are kept for
 * reuse).
 */
#define WARMUP 20
/*
 * Slack for what the allocator does on its own.  The RSS of a build with
 * AddressSanitizer wanders by about 1 MiB from run to run (its allocator
 * maps memory per size class); the heap in use is exact (glibc's
 * per-thread cache is turned off for it, see main()).
 */
#define RSS_SLACK (2 * 1024 * 1024L)
#define HEAP_SLACK 1024L

/*
 * Under AddressSanitizer freed memory sits in a quarantine (256 MB by
 * default) before it is reused, which would look like growth.  Without the
 * quarantine the RSS measures the same thing as elsewhere; use-after-free
 * detection is the rest of the suite's job.
 */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "quarantine_size_mb=0";
}

/* tmpfs where there is one: the data files are fsync'ed, and 1600 fsyncs on a disk take long. */

static long rss_bytes(void)
{
	long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%ld %ld", &size, &resident), 2);
	fclose(f);
	return resident * sysconf(_SC_PAGESIZE);
}

/*
 * AddressSanitizer's count of the bytes allocated and not freed; weak, so
 * that it is NULL in a build without the sanitizer.
 */
size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));

/*
 * LeakSanitizer's check on demand (1 when something leaked); weak, NULL
 * without the sanitizer.
 */
int __lsan_do_recoverable_leak_check(void) __attribute__((weak));

/* Bytes malloc has handed out and not had back: from ASan's allocator or glibc's. */
static long heap_bytes(void)
{
	struct mallinfo2 mi;

	if (__sanitizer_get_current_allocated_bytes)
		return (long)__sanitizer_get_current_allocated_bytes();
	mi = mallinfo2();
	return (long)(mi.uordblks + mi.hblkhd);
}

/* A probe on sim:atlas3 that must succeed. */
#define run(cmd, name, ...) ck_assert_msg(tu_probe(cmd, "sim:atlas3", name, __VA_ARGS__) == 0, "%s failed", name)

/*
 * One of each probe, small but through every phase (calibration, pre-reads,
 * writes).  bench --write reads and writes back 32 MiB windows, which costs
 * 0.2 s of CPU: it runs every tenth time, plain bench the others.
 */
static void all_probes(int i)
{
	run(hd_cmd_seek, "seek", "--samples", "100", "--op", "write", "--write", NULL);
	run(hd_cmd_seek, "seek", "--samples", "100", NULL);
	run(hd_cmd_response, "response", "--points", "40", "--reps", "2", NULL);
	run(hd_cmd_media, "media", "--reps", "2", "--max-size", "64k", NULL);
	run(hd_cmd_queue, "queue", "--procs", "1,4", "--requests", "10", NULL);
	if (i % 10 == 0)
		run(hd_cmd_bench, "bench", "--time", "100ms", "--write", NULL);
	else
		run(hd_cmd_bench, "bench", "--time", "100ms", NULL);
	run(hd_cmd_zone, "zone", "--points", "5", NULL);
	run(hd_cmd_interval, "interval", "--write", "--intervals", "0,5", "--reps", "2", NULL);
}

static void setup(void)
{
	tu_mkdir();
	/* bench prints its table even with -q. */
	ck_assert_ptr_nonnull(freopen("/dev/null", "w", stdout));
}

START_TEST(test_no_growth)
{
	long rss0, heap0, rss_max = 0, heap_max = 0, heap_half = 0;

	for (int i = 0; i < WARMUP; i++)
		all_probes(i);
	rss0 = rss_bytes();
	heap0 = heap_bytes();
	for (int i = WARMUP; i < RUNS; i++) {
		long r, h;

		all_probes(i);
		r = rss_bytes();
		h = heap_bytes();
		if (r > rss_max)
			rss_max = r;
		if (h > heap_max)
			heap_max = h;
		if (i == RUNS / 2)
			heap_half = h;
		if (getenv("HDDSCOPE_MEMORY_TRACE") && i % 10 == 0)
			fprintf(stderr, "run %d: RSS %ld KiB, heap %ld\n", i, r / 1024, h);
	}
	fprintf(stderr, "memory: %d runs of 8 probes: RSS %ld -> max %ld KiB, heap in use %ld -> max %ld bytes\n",
		RUNS, rss0 / 1024, rss_max / 1024, heap0, heap_max);
	/* And not a byte unreachable, where LeakSanitizer can tell. */
	if (__lsan_do_recoverable_leak_check)
		ck_assert_msg(__lsan_do_recoverable_leak_check() == 0, "LeakSanitizer found leaks (above)");
	ck_assert_msg(rss_max - rss0 <= RSS_SLACK, "resident memory grew by %ld KiB over %d runs",
		      (rss_max - rss0) / 1024, RUNS - WARMUP);
	ck_assert_msg(heap_max - heap0 <= HEAP_SLACK, "heap in use grew by %ld bytes over %d runs",
		      heap_max - heap0, RUNS - WARMUP);
	/* Over the second half alone, too: a late leak is not averaged away. */
	ck_assert_msg(heap_bytes() - heap_half <= HEAP_SLACK, "heap in use grew by %ld bytes over the last %d runs",
		      heap_bytes() - heap_half, RUNS / 2);
}
END_TEST

/* The control: 64 KiB kept per run, as a growing cache would, is seen. */
START_TEST(test_growth_is_seen)
{
	enum { KEEP = 64 * 1024 };
	static char *kept[RUNS];
	long rss0, heap0, rss1, heap1;

	for (int i = 0; i < WARMUP; i++)
		all_probes(i);
	rss0 = rss_bytes();
	heap0 = heap_bytes();
	for (int i = 0; i < 60; i++) {
		all_probes(i);
		kept[i] = malloc(KEEP);
		ck_assert_ptr_nonnull(kept[i]);
		memset(kept[i], i + 1, KEEP);	/* touched, so that it is resident */
	}
	rss1 = rss_bytes();
	heap1 = heap_bytes();
	ck_assert_msg(rss1 - rss0 > RSS_SLACK, "RSS grew by only %ld KiB", (rss1 - rss0) / 1024);
	ck_assert_msg(heap1 - heap0 > HEAP_SLACK, "heap grew by only %ld bytes", heap1 - heap0);
	for (int i = 0; i < 60; i++)
		free(kept[i]);
}
END_TEST

/*
 * Allocate a block and return its address disguised, so that no pointer to
 * it is left for LeakSanitizer to find: a leak until it is freed.
 */
#define DISGUISE ((uintptr_t)0x5a5a5a5a5a5a5a5aULL)
static uintptr_t __attribute__((noinline)) leak_one(void)
{
	volatile uintptr_t h = (uintptr_t)malloc(4096) ^ DISGUISE;

	return h;
}

/*
 * The sanitizer build runs the suite with leak detection on (.ci/run):
 * this shows it is, since a leak must be found.  Without LeakSanitizer
 * there is nothing to check.
 */
START_TEST(test_leak_check_is_on)
{
	uintptr_t h;

	if (!__lsan_do_recoverable_leak_check) {
		fprintf(stderr, "memory: no LeakSanitizer in this build\n");
		return;
	}
	h = leak_one();
	fprintf(stderr, "memory: a leak report of 4096 bytes from leak_one() follows; it is expected\n");
	ck_assert_msg(__lsan_do_recoverable_leak_check() == 1,
		      "LeakSanitizer did not see a leak: is ASAN_OPTIONS detect_leaks=0?");
	free((void *)(h ^ DISGUISE));
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s = suite_create("memory");

	/*
	 * glibc's per-thread cache keeps freed blocks that mallinfo2 still
	 * counts as in use, and fills up over the first 60 runs or so; without
	 * it the heap in use is exactly the same after every run.  Tunables
	 * are read at start-up, hence the exec (once; where it fails, the test
	 * runs with the cache and may see its filling as growth).
	 */
	(void)argc;
	if (!getenv("GLIBC_TUNABLES")) {
		setenv("GLIBC_TUNABLES", "glibc.malloc.tcache_count=0", 1);
		execv("/proc/self/exe", argv);
	}

	tcase_set_timeout(tu_case(s, "memory", setup, tu_rmdir,
				  TU_TESTS(TU_TEST(test_no_growth), TU_TEST(test_growth_is_seen),
					   TU_TEST(test_leak_check_is_on))),
			  120);
	return tu_run_suite(s);
}
