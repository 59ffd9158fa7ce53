/*
 * Fuzz harness: the trace reader (hd_trace_load) and, for the traces it
 * accepts, a replay on a small simulated drive (hd_trace_run), since a
 * trace that loads is one that "hddscope replay" goes on to run.  The
 * reader takes a path, so each input goes through a scratch file.
 * Accepted requests must be within the documented ranges; a replay must
 * either refuse a request beyond the drive or time every request with a
 * finite, non-negative service time.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "hddscope/sim.h"

/* Small and fast: a replay of a few hundred requests costs microseconds. */
static const char model_text[] =
	"format = 1\n"
	"name = fuzz trace drive\n"
	"rpm = 7200\n"
	"sector_bytes = 512\n"
	"surfaces = 2\n"
	"zone = 0 99 64 8 12\n"
	"zone = 100 199 48 6 9\n"
	"seek = 1 1.0\n"
	"seek = 50 3.0\n"
	"seek = 199 6.0\n"
	"cache_segments = 2\n"
	"cache_segment_kb = 64\n"
	"readahead_kb = 32\n"
	"write_cache = on\n"
	"write_cache_kb = 128\n"
	"queue_depth = 4\n";

static struct hd_sim_model *model;

/* Replays longer than this only cost time: the reader is what is fuzzed. */
#define MAX_REPLAY 512

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char err[256];

	(void)argc;
	(void)argv;
	if (hd_sim_model_parse(model_text, strlen(model_text), "fuzz.drive", &model, err, sizeof(err))) {
		fprintf(stderr, "fuzz_trace: %s\n", err);
		abort();
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_scratch_file(data, size);
	struct hd_trace *t = NULL;
	char err[512] = "";
	int rc;

	rc = hd_trace_load(path, &t, err, sizeof(err));
	if (rc) {
		FUZZ_CHECK(rc == -EINVAL || rc == -ENOMEM);
		FUZZ_CHECK(strstr(err, path) != NULL);
		return 0;
	}
	FUZZ_CHECK(t != NULL && t->n > 0);
	FUZZ_CHECK(memchr(data, '\0', size) == NULL);
	for (size_t i = 0; i < t->n; i++) {
		const struct hd_trace_req *r = &t->req[i];

		FUZZ_CHECK(r->blocks >= 1 && r->blocks <= (1u << 20));
		FUZZ_CHECK(r->idle_us >= 0 && isfinite(r->idle_us));
		FUZZ_CHECK(r->write == 0 || r->write == 1);
		if (t->has_measured)
			FUZZ_CHECK(r->measured_us >= 0 && isfinite(r->measured_us));
	}
	if (t->n <= MAX_REPLAY) {
		rc = hd_trace_run(t, model, 1, err, sizeof(err));
		FUZZ_CHECK(rc == 0 || rc == -ERANGE);
		if (rc == 0)
			for (size_t i = 0; i < t->n; i++) {
				FUZZ_CHECK(isfinite(t->req[i].sim_us) && t->req[i].sim_us >= 0);
				FUZZ_CHECK(t->req[i].result == 0 || t->req[i].result < 0);
			}
	}
	hd_trace_free(t);
	return 0;
}
