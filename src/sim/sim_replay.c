/*
 * Trace replay on the simulated drive: reading the two trace formats,
 * replaying them as a closed loop (each request issued when the previous
 * one has completed and its idle time has passed, which is how DiskSim's
 * validate mode replays its traces), and the RMS horizontal distance
 * between two service-time distributions, DiskSim's validation metric.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hddscope/fsutil.h"
#include "hddscope/sim.h"
#include "hddscope/util.h"

/*
 * The longest host idle time after a request: an hour.  Unbounded, the
 * replay's virtual clock (int64_t nanoseconds) overflowed after two idle
 * times of 6.7e15 us (found by tests/fuzz/fuzz_trace.c); at an hour each it
 * would take 2.5 million requests, 292 years of trace.
 */
#define MAX_IDLE_US 3.6e9

static int parse_line(char *line, struct hd_trace_req *r, int *measured, const char **why)
{
	char *tok[8], *s, *save = NULL;
	int n = 0, i = 1;
	uint64_t v;
	double d;

	for (s = strtok_r(line, " \t\r\n", &save); s; s = strtok_r(NULL, " \t\r\n", &save)) {
		if (n == 8) {
			*why = "too many fields";
			return -EINVAL;
		}
		tok[n++] = s;
	}
	memset(r, 0, sizeof(*r));
	r->measured_us = -1;
	*measured = 0;
	if (n < 3 || n > 6 || n == 5) {
		*why = "expected 'R|W LBA BLOCKS [IDLE_US]' or 'R|W Hit|Miss|Doub|Trip LBN BLOCKS SERVICE_US NEXT_INTERARRIVAL_US'";
		return -EINVAL;
	}
	if (strcmp(tok[0], "R") == 0 || strcmp(tok[0], "r") == 0) {
		r->write = 0;
	} else if (strcmp(tok[0], "W") == 0 || strcmp(tok[0], "w") == 0) {
		r->write = 1;
	} else {
		*why = "the operation must be R or W";
		return -EINVAL;
	}
	if (n == 6) {
		/* What the real drive's cache did: a hit, a miss, or a double or triple disconnect. */
		if (strcmp(tok[1], "Hit") && strcmp(tok[1], "Miss") && strcmp(tok[1], "Doub") && strcmp(tok[1], "Trip")) {
			*why = "the second field of a 6-field line must be Hit, Miss, Doub or Trip";
			return -EINVAL;
		}
		i = 2;
	}
	if (hd_parse_u64(tok[i], &r->lba)) {
		*why = "bad LBA";
		return -EINVAL;
	}
	if (hd_parse_u64(tok[i + 1], &v) || v == 0 || v > (1u << 20)) {
		*why = "bad block count (1..1048576)";
		return -EINVAL;
	}
	r->blocks = (uint32_t)v;
	if (n == 6) {
		if (hd_parse_double(tok[4], &d) || d < 0) {
			*why = "bad service time";
			return -EINVAL;
		}
		r->measured_us = d;
		*measured = 1;
		if (hd_parse_double(tok[5], &d) || d < 0 || d > MAX_IDLE_US) {
			*why = "bad interarrival time (0 to 3600000000 us)";
			return -EINVAL;
		}
		r->idle_us = d;
	} else if (n == 4) {
		if (hd_parse_double(tok[3], &d) || d < 0 || d > MAX_IDLE_US) {
			*why = "bad idle time (0 to 3600000000 us)";
			return -EINVAL;
		}
		r->idle_us = d;
	}
	return 0;
}

/* The limit of the fixed buffer the line reader replaced: 1023 bytes with the newline. */
#define TRACE_MAX_LINE 1022

/* Add r to the trace; -ENOMEM. */
static int trace_push(struct hd_trace *t, size_t *cap, const struct hd_trace_req *r)
{
	if (t->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 1024;
		struct hd_trace_req *nr = realloc(t->req, nc * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		t->req = nr;
		*cap = nc;
	}
	t->req[t->n++] = *r;
	return 0;
}

/*
 * Read the requests of f into t.  A CRLF line is read like an LF one: only
 * the replay reads a trace, so there is no second reader to disagree with.
 */
static int trace_read(struct hd_trace *t, FILE *f, const char *path, char *err, size_t errlen)
{
	struct hd_lines l;
	size_t cap = 0;
	int all_measured = 1, rc;

	if (hd_lines_init(&l, f, TRACE_MAX_LINE)) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	while ((rc = hd_lines_next(&l)) == 1) {
		struct hd_trace_req r;
		const char *why = "";
		char *hash = strchr(l.buf, '#'), *p = l.buf;
		int measured;

		if (hash)
			*hash = '\0';
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (*p == '\0')
			continue;
		if (parse_line(p, &r, &measured, &why)) {
			snprintf(err, errlen, "%s:%zu: %s", path, l.lineno, why);
			rc = -EINVAL;
			goto out;
		}
		all_measured &= measured;
		if (trace_push(t, &cap, &r)) {
			snprintf(err, errlen, "%s: out of memory", path);
			rc = -ENOMEM;
			goto out;
		}
	}
	if (rc < 0) {
		hd_lines_strerror(err, errlen, &l, path, rc);
		/* A line too long or holding a NUL is a malformed trace, as the contract says. */
		if (rc == -HD_ELONGLINE || rc == -HD_ENUL)
			rc = -EINVAL;
	}
out:
	hd_lines_free(&l);
	t->has_measured = all_measured;
	return rc;
}

int hd_trace_load(const char *path, struct hd_trace **out, char *err, size_t errlen)
{
	struct hd_trace *t = calloc(1, sizeof(*t));
	FILE *f = NULL;
	int rc;

	if (!t) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	rc = hd_in_open(path, &f);
	if (rc) {
		hd_in_strerror(err, errlen, path, rc);
		hd_trace_free(t);
		return rc;
	}
	rc = trace_read(t, f, path, err, errlen);
	fclose(f);
	if (!rc && t->n == 0) {
		snprintf(err, errlen, "%s: no requests in trace", path);
		rc = -EINVAL;
	}
	if (rc) {
		hd_trace_free(t);
		return rc;
	}
	*out = t;
	return 0;
}

void hd_trace_free(struct hd_trace *t)
{
	if (!t)
		return;
	free(t->req);
	free(t);
}

int hd_trace_run(struct hd_trace *t, const struct hd_sim_model *m, uint64_t seed,
		 char *err, size_t errlen)
{
	struct hd_sim *s;
	uint64_t blocks = m->sectors * (m->sector_bytes / 512);
	size_t i;
	int rc;

	for (i = 0; i < t->n; i++)
		if (t->req[i].lba >= blocks || t->req[i].blocks > blocks - t->req[i].lba) {
			snprintf(err, errlen, "request %zu (LBA %llu, %u blocks) lies beyond the drive's %llu blocks",
				 i + 1, (unsigned long long)t->req[i].lba, t->req[i].blocks,
				 (unsigned long long)blocks);
			return -ERANGE;
		}
	if ((rc = hd_sim_new(&s, m, seed))) {
		snprintf(err, errlen, "out of memory");
		return rc;
	}
	for (i = 0; i < t->n; i++) {
		struct hd_trace_req *r = &t->req[i];
		int64_t t0 = hd_sim_now(s);

		/* Timing only: the replay has no data to carry. */
		r->result = hd_sim_io(s, r->write ? HD_OP_WRITE : HD_OP_READ, NULL,
				      (size_t)r->blocks * 512, r->lba * 512, &r->hit);
		r->sim_us = (double)(hd_sim_now(s) - t0) / 1e3;
		hd_sim_idle(s, llround(r->idle_us * 1e3));
	}
	hd_sim_free(s);
	return 0;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The p-quantile of sorted x, interpolating linearly between order statistics. */
static double quantile(const double *x, size_t n, double p)
{
	double pos = p * (double)n - 1, f;
	size_t i;

	if (pos <= 0)
		return x[0];
	if (pos >= (double)(n - 1))
		return x[n - 1];
	i = (size_t)pos;
	f = pos - (double)i;
	return x[i] + f * (x[i + 1] - x[i]);
}

double hd_cdf_rms(const double *a, size_t na, const double *b, size_t nb)
{
	double *sa, *sb, sum = 0;
	int k;

	if (!na || !nb)
		return -1;
	sa = malloc(na * sizeof(*sa));
	sb = malloc(nb * sizeof(*sb));
	if (!sa || !sb) {
		free(sa);
		free(sb);
		return -1;
	}
	memcpy(sa, a, na * sizeof(*sa));
	memcpy(sb, b, nb * sizeof(*sb));
	qsort(sa, na, sizeof(*sa), cmp_dbl);
	qsort(sb, nb, sizeof(*sb), cmp_dbl);
	/* Same grid as DiskSim's rms tool: p = 0.0001 ... 1 in steps of 0.0001. */
	for (k = 1; k <= 10000; k++) {
		double p = k / 10000.0, d = quantile(sa, na, p) - quantile(sb, nb, p);

		sum += d * d;
	}
	free(sa);
	free(sb);
	return sqrt(sum / 10000);
}
