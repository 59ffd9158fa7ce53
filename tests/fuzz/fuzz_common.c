/*
 * Helpers shared by the fuzz harnesses: the scratch file that path-taking
 * readers are pointed at, and a NUL-terminated copy of an input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static char scratch[64];
static int scratch_fd = -1;

static void scratch_remove(void)
{
	if (scratch_fd >= 0)
		unlink(scratch);
}

const char *fuzz_scratch_file(const uint8_t *data, size_t size)
{
	size_t done = 0;

	if (scratch_fd < 0) {
		/* /dev/shm keeps the write off the disk; /tmp where it is missing. */
		const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

		snprintf(scratch, sizeof(scratch), "%s/hddscope-fuzz-XXXXXX", dir);
		scratch_fd = mkstemp(scratch);
		if (scratch_fd < 0) {
			perror("fuzz: mkstemp");
			exit(2);
		}
		atexit(scratch_remove);
	}
	/* Rewritten in place: the reader opens the path afresh each time. */
	if (ftruncate(scratch_fd, 0) < 0)
		goto fail;
	while (done < size) {
		ssize_t n = pwrite(scratch_fd, data + done, size - done, (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		done += (size_t)n;
	}
	return scratch;
fail:
	perror("fuzz: writing the scratch file");
	exit(2);
}

char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s) {
		perror("fuzz: malloc");
		exit(2);
	}
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}
