/* Small shared helpers: number and size parsing, a seeded generator, time. */
#ifndef HDDSCOPE_UTIL_H
#define HDDSCOPE_UTIL_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse a byte size: digits with an optional fraction and an optional
 * suffix k, m, g, t (powers of 1024, either case, an optional trailing "b"
 * or "ib" allowed).  Returns 0, -EINVAL for junk or a negative number,
 * -ERANGE when the value does not fit in 63 bits, -EDOM when the value is
 * not a whole number of bytes ("1.3k").
 */
int hd_parse_size(const char *s, uint64_t *out);

/* Parse a non-negative decimal integer; same error convention. */
int hd_parse_u64(const char *s, uint64_t *out);

/* Parse a finite decimal number (locale-independent "."); -EINVAL on junk. */
int hd_parse_double(const char *s, double *out);

/* The longest duration taken (1000000 s, about 11.6 days), in nanoseconds. */
#define HD_DURATION_MAX_NS 1e15

/*
 * Parse a positive duration: a number with an optional suffix ns, us, ms,
 * s, m or h (seconds without one) into nanoseconds.  -ERANGE when it is
 * under 1 ns or over HD_DURATION_MAX_NS, -EINVAL for anything else.
 */
int hd_parse_duration(const char *s, int64_t *ns);

/* A human-readable reason for a parse error code. */
const char *hd_parse_strerror(int err);

/* Format a byte count as "256 KiB", "1 GiB", "1.5 MiB" into buf. */
char *hd_fmt_size(char *buf, size_t len, uint64_t bytes);

/* xoshiro256** seeded with splitmix64: fast, repeatable for a given seed. */
struct hd_rng {
	uint64_t s[4];
};
void hd_rng_seed(struct hd_rng *r, uint64_t seed);
uint64_t hd_rng_next(struct hd_rng *r);
double hd_rng_uniform(struct hd_rng *r);		/* [0, 1) */
uint64_t hd_rng_below(struct hd_rng *r, uint64_t n);	/* [0, n), n > 0, unbiased */
double hd_rng_gauss(struct hd_rng *r);			/* standard normal */

/*
 * Text read from a file, made fit to be quoted in a one-line message:
 * control bytes, bytes above 0x7e and the backslash are escaped ("\x01",
 * "\xc3", "\\"), so that a binary file cannot write to the terminal; text
 * that does not fit in len bytes is cut and ends in "...".  Returns buf.
 * Every message that quotes file content goes through it.
 */
char *hd_quote(char *buf, size_t len, const char *s);

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t hd_mono_ns(void);
/*
 * How long the calling thread has waited, runnable, for a CPU (the second
 * figure of /proc/thread-self/schedstat), in nanoseconds; -1 where the
 * kernel does not tell.  Its growth over a timed access is how late the
 * host let the thread see the access complete.
 */
int64_t hd_run_wait_ns(void);
/* UTC wall-clock time as "2026-11-30T08:00:00Z". */
char *hd_utc_now(char *buf, size_t len);

#endif
