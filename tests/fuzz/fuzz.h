/*
 * What every fuzz harness provides and may use.  A harness is one file
 * defining LLVMFuzzerInitialize and LLVMFuzzerTestOneInput (the libFuzzer
 * entry points); it is linked either with libFuzzer (-DHDDSCOPE_FUZZ=ON,
 * clang) or with replay_main.c, which feeds it the files of its corpus
 * once each, so that CI checks every corpus input on every run.
 */
#ifndef HDDSCOPE_FUZZ_H
#define HDDSCOPE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * An invariant of the code under test.  A violation aborts, which both
 * libFuzzer and the replay driver report as a failure with the input.
 */
#define FUZZ_CHECK(cond)                                                        \
	do {                                                                    \
		if (!(cond)) {                                                  \
			fprintf(stderr, "%s:%d: invariant failed: %s\n",        \
				__FILE__, __LINE__, #cond);                     \
			abort();                                                \
		}                                                               \
	} while (0)

/*
 * The readers of data files and traces take a path: the input is written
 * to one scratch file per process (created on first use, removed at exit)
 * and its path returned.  Exits the process when the file cannot be
 * written, since no result would mean anything then.
 */
const char *fuzz_scratch_file(const uint8_t *data, size_t size);

/* A NUL-terminated copy of the input (malloc'ed; exits when out of memory). */
char *fuzz_strndup(const uint8_t *data, size_t size);

#endif
